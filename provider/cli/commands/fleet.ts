/**
 * `kubespaces fleet preview [NAME]`: the PlatformRevisions and what each would do to every tenant,
 * as the server previewed them (its admins only). With no NAME, one line per revision, as
 * `kubectl get platformrevisions` prints them; with NAME, the revision's sum and how its rollout
 * stands, then one line per tenant: what it would change, or why it fails, and whether it runs it.
 */
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT } from "../exitCodes";
import { formatted, isTable, type Column, type OutputFormat } from "../formatOutput";
import type { RevisionRollout, RevisionTenant, RevisionView } from "../../tenantResource/platformRevisionStatus";
import { planSummary } from "../../tenants/tenantPlan";
import { shownLine } from "../../util/terminalText";
import type { FleetReads } from "../tenantsDoor";

/** `fleet preview`'s options. */
export interface FleetPreviewOptions {
  /** How to print. */
  readonly output: OutputFormat;
}

/** Runs `fleet preview`. */
export async function fleetPreview(
  env: CommandEnv,
  name: string | undefined,
  options: FleetPreviewOptions,
): Promise<number> {
  const fleet = await fleetOf(env);
  if (!name) {
    const revisions = await fleet.revisions();
    env.stdout.write(
      formatted(
        {
          rows: revisions,
          columns: REVISION_COLUMNS,
          document: { items: revisions },
          names: revisions.map((r) => `platformrevision/${r.name}`),
        },
        options.output,
      ),
    );
    return EXIT.ok;
  }
  const revision = await fleet.revision(name);
  const tenants = revision.status?.tenants ?? [];
  if (!isTable(options.output)) {
    env.stdout.write(
      formatted({ rows: [], columns: [], document: revision, names: [`platformrevision/${name}`] }, options.output),
    );
    return EXIT.ok;
  }
  // The lines quote what others wrote (a halted rollout quotes a tenant's refusal, which quotes its
  // owner's value): their control characters are shown, never acted on, as the table's cells are.
  const lines = [summaryLine(revision), ...(revision.status?.rollout ? [rolloutLine(revision.status.rollout)] : [])];
  env.stdout.write(lines.map((line) => `${shownLine(line)}\n`).join(""));
  if (tenants.length > 0)
    env.stdout.write(formatted({ rows: tenants, columns: TENANT_COLUMNS, document: {}, names: [] }, "table"));
  return EXIT.ok;
}

/** The door's fleet reads, or a CliError saying they are the server's. */
async function fleetOf(env: CommandEnv): Promise<FleetReads> {
  const door = await env.door();
  if (door.fleet) return door.fleet;
  throw new CliError(
    "platform revisions are previewed by a kubespaces server: sign in to one first (kubespaces login --server URL)",
    EXIT.invalid,
  );
}

/** The revision in one line: its phase, the server's message, and the changed fields. */
function summaryLine(revision: RevisionView): string {
  const status = revision.status;
  if (!status) return `platform revision ${revision.name}: not previewed yet (no replica has written its status)`;
  const fields = status.summary?.fields.length ? `; changed fields: ${status.summary.fields.join(", ")}` : "";
  return `platform revision ${revision.name}: ${status.phase}, ${status.message}${fields}`;
}

/** How the rollout stands in one line: its phase, its wave, and the server's message (what an admin may do next). */
function rolloutLine(rollout: RevisionRollout): string {
  const wave = rollout.wave === undefined ? "" : ` (wave ${rollout.wave} of ${rollout.waves})`;
  return `rollout: ${rollout.phase}${wave}, ${rollout.message}`;
}

const REVISION_COLUMNS: readonly Column<RevisionView>[] = [
  { heading: "NAME", value: (r) => r.name },
  { heading: "PHASE", value: (r) => r.status?.phase },
  { heading: "TENANTS", value: (r) => r.status?.summary && String(r.status.summary.tenants) },
  { heading: "CHANGING", value: (r) => r.status?.summary && String(r.status.summary.changing) },
  { heading: "FAILED", value: (r) => r.status?.summary && String(r.status.summary.failed) },
  { heading: "ROLLOUT", value: (r) => r.status?.rollout?.phase },
  { heading: "CREATED", value: (r) => r.createdAt },
];

const TENANT_COLUMNS: readonly Column<RevisionTenant>[] = [
  { heading: "TENANT", value: (t) => t.name },
  { heading: "GENERATION", value: (t) => String(t.generation) },
  { heading: "OUTCOME", value: (t) => t.outcome },
  // The generation of the tenant's request it was brought up on the revision with, once it was.
  { heading: "APPLIED", value: (t) => t.appliedGeneration?.toString() },
  { heading: "CHANGES", value: (t) => (t.plan ? planSummary(t.plan) : t.reason) },
];
