/**
 * `kubespaces fleet preview`, in-process through the command's parser, over a door whose fleet reads
 * are a stand-in of the server's API answers: what an admin sees of the revisions and of what one
 * would do to each tenant, and the refusal in local mode.
 */
import { describe, expect, it } from "vitest";
import type { CommandEnv, OutputStream } from "../../provider/cli/commandEnv";
import { EXIT } from "../../provider/cli/exitCodes";
import { runCli } from "../../provider/cli/runCli";
import type { FleetReads, TenantsDoor } from "../../provider/cli/tenantsDoor";
import { revisionTenantOf, withPreviews } from "../../provider/server/revisions/fleetPreview";
import type { RevisionView } from "../../provider/tenantResource/platformRevisionStatus";

const NOW = new Date("2026-12-05T00:00:00Z");
const QUOTA = "kubernetes:core/v1:ResourceQuota";

class Captured implements OutputStream {
  text = "";
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

const previewed = withPreviews(
  undefined,
  [
    revisionTenantOf("team-small", 2, { steps: [{ op: "update", type: QUOTA, name: "quota", diffs: ["spec"] }] }, NOW),
    revisionTenantOf("team-large", 1, { failure: "resources.cpu: 6 is above the platform's ceiling" }, NOW),
  ],
  new Set(["team-small", "team-large"]),
);

const tighter: RevisionView = {
  name: "tighter",
  createdAt: "2026-12-05T00:00:00Z",
  platform: { quota: { ceilings: { cpu: "4" } } },
  status: {
    ...previewed,
    tenants: previewed.tenants!.map((t) => (t.name === "team-small" ? { ...t, appliedGeneration: 2 } : t)),
    rollout: {
      phase: "Halted",
      wave: 2,
      waves: 2,
      applied: 1,
      halt: { tenant: "team-large", reason: "its preview failed", at: "2026-12-05T01:00:00.000Z" },
      message: "halted in wave 2: tenant team-large: its preview failed",
    },
  },
};

/** Runs `kubespaces ...args` with a door whose only part these commands use is `fleet` (none: local mode). */
async function kubespaces(fleet: FleetReads | undefined, ...args: string[]) {
  const stdout = new Captured();
  const stderr = new Captured();
  // The fleet commands read nothing else of the door.
  const door = { fleet } as unknown as TenantsDoor;
  const env: CommandEnv = { stdout, stderr, door: async () => door };
  const code = await runCli("0.0.0-test", ["node", "kubespaces", ...args], env);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const server: FleetReads = {
  revisions: async () => [tighter, { name: "unseen", platform: {} }],
  revision: async (name) => {
    if (name !== "tighter") throw new Error(`platform revision ${name} not found`);
    return tighter;
  },
};

describe("kubespaces fleet preview", () => {
  it("lists the revisions as kubectl does, a revision not previewed yet with dashes", async () => {
    const run = await kubespaces(server, "fleet", "preview");
    expect(run.code).toBe(EXIT.ok);
    const [header, ...rows] = run.stdout
      .trim()
      .split("\n")
      .map((line) => line.split(/\s+/));
    expect(header).toEqual(["NAME", "PHASE", "TENANTS", "CHANGING", "FAILED", "ROLLOUT", "CREATED"]);
    expect(rows).toEqual([
      ["tighter", "Previewed", "2", "1", "1", "Halted", "2026-12-05T00:00:00Z"],
      ["unseen", "-", "-", "-", "-", "-", "-"],
    ]);
  });

  it("shows what a revision would do to each tenant, why a tenant's preview failed, and how the rollout stands", async () => {
    const run = await kubespaces(server, "fleet", "preview", "tighter");
    expect(run.code).toBe(EXIT.ok);
    const [summary, rollout, header, ...rows] = run.stdout.trim().split("\n");
    expect(summary).toBe(
      `platform revision tighter: Previewed, previewed on every tenant (2): 1 would change, 0 would not, 1 failed; changed fields: ${QUOTA} spec`,
    );
    expect(rollout).toBe("rollout: Halted (wave 2 of 2), halted in wave 2: tenant team-large: its preview failed");
    expect(header.split(/\s+/)).toEqual(["TENANT", "GENERATION", "OUTCOME", "APPLIED", "CHANGES"]);
    expect(rows.map((row) => row.split(/\s+/).slice(0, 4))).toEqual([
      ["team-large", "1", "Failed", "-"],
      ["team-small", "2", "Changes", "2"],
    ]);
    expect(rows[0]).toContain("resources.cpu: 6 is above the platform's ceiling");
    expect(rows[1]).toContain("0 to create, 1 to update, 0 to replace, 0 to delete");
  });

  it("escapes the control characters of what others wrote: the rollout's message and a tenant's failure", async () => {
    // A halted rollout quotes the failing tenant's refusal, which quotes that tenant's own value.
    const clipboard = "\u001b]52;c;ZXZpbA==\u0007";
    const failure = `resources.cpu: "\u001b[2J${clipboard}" is no quantity`;
    const hostile: RevisionView = {
      ...tighter,
      status: {
        ...tighter.status!,
        tenants: [revisionTenantOf("team-large", 1, { failure }, NOW)],
        rollout: { ...tighter.status!.rollout!, message: `halted in wave 2: tenant team-large: ${failure}` },
      },
    };
    const run = await kubespaces({ ...server, revision: async () => hostile }, "fleet", "preview", "tighter");
    expect(run.code).toBe(EXIT.ok);
    expect([run.stdout.includes("\u001b"), run.stdout.includes("\u0007")]).toEqual([false, false]);
    const [, rollout, , row] = run.stdout.trim().split("\n");
    expect(rollout).toContain('tenant team-large: resources.cpu: "\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07" is no quantity');
    expect(row).toContain('"\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07" is no quantity');
  });

  it("prints the whole revision as JSON", async () => {
    const run = await kubespaces(server, "fleet", "preview", "tighter", "-o", "json");
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON.stringify(tighter)));
  });

  it("is refused in local mode, saying to sign in to a server", async () => {
    const run = await kubespaces(undefined, "fleet", "preview");
    expect(run.code).toBe(EXIT.invalid);
    expect(run.stderr).toContain("platform revisions are previewed by a kubespaces server: sign in to one first");
  });
});
