/**
 * Reading a stack's locks in Pulumi's PostgreSQL backend (postgresLocks.ts) without a database: the
 * forms a row holds a lock file in, which backends are PostgreSQL ones, and a table name that is no
 * plain identifier, which is never put into SQL. The e2e tier reads and removes real rows.
 */
import { describe, expect, it } from "vitest";
import { fileTextOf, isPostgresBackend, postgresLocks } from "../../provider/tenants/automation/postgresLocks";
import { lockOf } from "../../provider/tenants/automation/stackLock";

const LOCK = '{"pid":14361,"username":"root","hostname":"vm","timestamp":"2026-12-04T19:08:51.373977642Z"}';

describe("a PostgreSQL backend's lock rows", () => {
  it.each([
    [
      "a JSON column's base64 envelope (the pinned engine's)",
      JSON.stringify({ data: Buffer.from(LOCK).toString("base64") }),
    ],
    ["a BYTEA column's hex", `\\x${Buffer.from(LOCK).toString("hex")}`],
    ["the file's text itself", LOCK],
  ])("give the lock file's text from %s", (_form, column) => {
    expect(fileTextOf(column)).toBe(LOCK);
    expect(lockOf("k", fileTextOf(column))).toEqual({
      file: "k",
      pid: 14361,
      username: "root",
      hostname: "vm",
      timestamp: "2026-12-04T19:08:51.373977642Z",
    });
  });

  it("are read only where the backend is PostgreSQL, and never through a table name that is no plain identifier", () => {
    expect(["postgres://db/x", "postgresql://db/x", "POSTGRES://db/x"].map(isPostgresBackend)).toEqual([
      true,
      true,
      true,
    ]);
    expect(["file:///state", "s3://bucket", "https://api.pulumi.com"].map(isPostgresBackend)).toEqual([
      false,
      false,
      false,
    ]);
    expect(postgresLocks("postgres://db/x?table=state_2", "p", "s")).toBeDefined();
    expect(postgresLocks('postgres://db/x?table=x";DROP TABLE y;--', "p", "s")).toBeUndefined();
  });
});
