/**
 * The locks of a stack in Pulumi's PostgreSQL state backend (`postgres://`, pkg/backend/diy/
 * postgres): the backend keeps its files as rows of one table (`pulumi_state`, or the URL's
 * `table`), keyed by their path, so a stack's locks are the rows whose key ends in its lock
 * folder's path (`.pulumi/locks/organization/<project>/<stack>/<id>.json`; the backend puts the
 * database's name before it). A row holds the file's bytes: in a JSON column as `{"data": base64}`
 * (the pinned engine's), or in a BYTEA column (newer engines'). They are read and removed with the
 * `pg` client, one connection per call: a lock is looked at only while an update waits for it.
 */
import { Client } from "pg";
import { lockOf, type StackLock, type StackLocks } from "./stackLock";

/** The table the backend keeps its files in when the URL names none. */
const DEFAULT_TABLE = "pulumi_state";

/** What a table name may be here: an unquoted SQL identifier, so it can be quoted without escapes. */
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Whether `backendUrl` is a PostgreSQL state backend. */
export const isPostgresBackend = (backendUrl: string): boolean => /^postgres(ql)?:\/\//i.test(backendUrl);

/**
 * The locks of stack `stack` of `project` in PostgreSQL backend `backendUrl`; undefined when the
 * URL is none, or its table no plain identifier (then they are not listed, and a wait names
 * `pulumi cancel`).
 */
export function postgresLocks(backendUrl: string, project: string, stack: string): StackLocks | undefined {
  const url = URL.parse(backendUrl);
  const table = url?.searchParams.get("table") ?? DEFAULT_TABLE;
  if (!url || !TABLE_NAME.test(table)) return undefined;
  // The backend's own parameter, not libpq's: the client is given the rest.
  url.searchParams.delete("table");
  const connectionString = url.href;
  const folder = `.pulumi/locks/organization/${project}/${stack}/`;
  // Only the keys that end in the folder and a lock file's name; LIKE's own characters escaped.
  const pattern = `%${folder.replace(/[\\%_]/g, (c) => `\\${c}`)}%.json`;
  const withClient = async <T>(use: (client: Client) => Promise<T>): Promise<T> => {
    const client = new Client({ connectionString });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  };
  return {
    list: () =>
      withClient(async (client) => {
        const { rows } = await client.query<{ key: string; data: string }>(
          `SELECT key, data::text AS data FROM "${table}" WHERE key LIKE $1`,
          [pattern],
        );
        return rows
          .filter((row) => isLockOf(row.key, folder))
          .map((row): StackLock => lockOf(row.key, fileTextOf(row.data)));
      }),
    remove: (lock) =>
      withClient(async (client) => {
        await client.query(`DELETE FROM "${table}" WHERE key = $1`, [lock.file]);
      }),
  };
}

/** The text of the file a row holds, from the column's text: BYTEA's hex, or JSON's `{"data": base64}`. */
export function fileTextOf(column: string): string {
  if (column.startsWith("\\x")) return Buffer.from(column.slice(2), "hex").toString("utf8");
  try {
    const stored = JSON.parse(column) as { data?: unknown };
    if (typeof stored.data === "string") return Buffer.from(stored.data, "base64").toString("utf8");
  } catch {
    // Not JSON: the text is the file's.
  }
  return column;
}

/** Whether `key` is a lock file right in `folder` (not one of a stack whose name `folder` begins). */
function isLockOf(key: string, folder: string): boolean {
  const name = key.slice(key.lastIndexOf("/") + 1);
  return key.endsWith(`${folder}${name}`) && name.endsWith(".json") && !name.slice(0, -5).includes("/");
}
