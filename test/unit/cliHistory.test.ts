/**
 * `kubespaces tenant history` and `tenant rollback`, in-process through the command's parser, over
 * a door whose tenant operations are a stand-in of what the service or the server's API answers.
 */
import { describe, expect, it } from "vitest";
import type { CommandEnv, OutputStream } from "../../provider/cli/commandEnv";
import { EXIT } from "../../provider/cli/exitCodes";
import { runCli } from "../../provider/cli/runCli";
import type { TenantsDoor } from "../../provider/cli/tenantsDoor";
import type { TenantView } from "../../provider/tenantResource/tenantReplies";
import type { StackUpdate } from "../../provider/tenants/ports";

class Captured implements OutputStream {
  text = "";
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

const ALICE = "alice@example.com";
const updates: StackUpdate[] = [
  {
    version: 2,
    kind: "update",
    startedAt: "2026-12-05T02:00:00.000Z",
    endedAt: "2026-12-05T02:00:20.000Z",
    result: "succeeded",
    changes: { update: 2, same: 9 },
    record: { generation: 2, platformRevision: "tighter", actor: "system:kubespaces-server:r1" },
    request: { owner: ALICE, resources: { cpu: "4", memory: "8Gi" } },
  },
  {
    version: 1,
    kind: "update",
    startedAt: "2026-12-05T01:00:00.000Z",
    result: "succeeded",
    changes: { create: 11 },
    record: { generation: 1, actor: ALICE },
    request: { owner: ALICE, resources: { cpu: "3", memory: "4Gi" } },
  },
];

/** Runs `kubespaces ...args` over a door with `rollback` and `setSleep` (a server's) or without (local mode). */
async function kubespaces(
  rollback: TenantsDoor["rollback"],
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return kubespacesWith({ rollback }, ...args);
}

/** Runs `kubespaces ...args` over a door with `abilities`. */
async function kubespacesWith(abilities: Partial<TenantsDoor>, ...args: string[]) {
  const stdout = new Captured();
  const stderr = new Captured();
  const tenants = { history: async () => updates };
  const actor = { owner: ALICE, groups: [], isAdmin: false };
  const door = { tenants, actor, ...abilities } as unknown as TenantsDoor;
  const env: CommandEnv = { stdout, stderr, door: async () => door };
  const code = await runCli("0.0.0-test", ["node", "kubespaces", ...args], env);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe("kubespaces tenant history", () => {
  it("lists the updates, newest first: version, result, generation, revision, who, and what changed", async () => {
    const run = await kubespaces(undefined, "tenant", "history", "atlas");
    expect(run.code).toBe(EXIT.ok);
    const [header, ...rows] = run.stdout.trim().split("\n");
    expect(header.split(/\s+/)).toEqual([
      "VERSION",
      "KIND",
      "RESULT",
      "STARTED",
      "GENERATION",
      "REVISION",
      "BY",
      "CHANGES",
    ]);
    expect(rows.map((row) => row.split(/\s{2,}/))).toEqual([
      [
        "2",
        "update",
        "succeeded",
        "2026-12-05T02:00:00.000Z",
        "2",
        "tighter",
        "system:kubespaces-server:r1",
        "2 update",
      ],
      ["1", "update", "succeeded", "2026-12-05T01:00:00.000Z", "1", "-", ALICE, "11 create"],
    ]);
  });

  it("prints every update with its request as YAML", async () => {
    const run = await kubespaces(undefined, "tenant", "history", "atlas", "-o", "yaml");
    expect(run.stdout).toContain('cpu: "3"');
    expect(run.stdout).toContain("platformRevision: tighter");
  });
});

describe("kubespaces tenant rollback", () => {
  const rolled: TenantView = {
    apiVersion: "kubespaces.io/v1alpha1",
    kind: "Tenant",
    metadata: { name: "atlas", generation: 3 },
    spec: updates[1].request!,
    status: { phase: "Ready", conditions: [], message: "ready" },
  } as TenantView;

  it("asks the server for the earlier update's request, and says how to follow the change", async () => {
    const asked: unknown[] = [];
    const run = await kubespaces(
      async (name, version) => (asked.push([name, version]), rolled),
      "tenant",
      "rollback",
      "atlas",
      "--to",
      "1",
    );
    expect(run.code).toBe(EXIT.ok);
    expect(asked).toEqual([["atlas", 1]]);
    expect(run.stderr).toContain("tenant atlas: generation 3 asks again for the request of update 1");
    expect(run.stderr).toContain("kubespaces tenant get atlas --wait");
  });

  it("refuses a version that is not one, and local mode, saying what to do instead", async () => {
    const bad = await kubespaces(async () => rolled, "tenant", "rollback", "atlas", "--to", "latest");
    expect(bad.code).toBe(EXIT.invalid);
    expect(bad.stderr).toContain("--to must be an update's VERSION from `kubespaces tenant history atlas`");
    const local = await kubespaces(undefined, "tenant", "rollback", "atlas", "--to", "1");
    expect(local.code).toBe(EXIT.invalid);
    expect(local.stderr).toContain("only a kubespaces server does");
  });
});

describe("kubespaces tenant sleep and wake", () => {
  const changed = (sleep: boolean, generation: number): TenantView =>
    ({
      apiVersion: "kubespaces.io/v1alpha1",
      kind: "Tenant",
      metadata: { name: "atlas", generation },
      spec: { ...updates[0].request!, sleep },
      status: { phase: "Ready", conditions: [], message: "ready" },
    }) as TenantView;

  it("--wait=false: ask the server to change the tenant's sleep, and say what the tenant is brought to and how to follow it", async () => {
    const asked: unknown[] = [];
    const setSleep = async (name: string, asleep: boolean) => (asked.push([name, asleep]), changed(asleep, 4));
    const slept = await kubespacesWith({ setSleep }, "tenant", "sleep", "atlas", "--wait=false");
    expect(slept.code).toBe(EXIT.ok);
    expect(slept.stderr).toContain(
      "tenant atlas: generation 4 asks for sleep: true; the server brings it to Sleeping. Follow it with: kubespaces tenant get atlas --wait",
    );
    const woken = await kubespacesWith({ setSleep }, "tenant", "wake", "atlas", "-o", "json", "--no-wait");
    expect(woken.code).toBe(EXIT.ok);
    expect(woken.stderr).toContain("asks for sleep: false; the server brings it to Ready");
    expect(JSON.parse(woken.stdout).spec.sleep).toBe(false);
    expect(asked).toEqual([
      ["atlas", true],
      ["atlas", false],
    ]);
  });

  it("are refused in local mode, saying where sleep is set instead", async () => {
    const local = await kubespacesWith({}, "tenant", "sleep", "atlas");
    expect(local.code).toBe(EXIT.invalid);
    expect(local.stderr).toContain("only a kubespaces server does");
    expect(local.stderr).toContain("a Pulumi program sets the Tenant's `sleep` input instead");
  });
});

describe("kubespaces tenant snapshot and restore", () => {
  const shown = {
    apiVersion: "kubespaces.io/v1alpha1",
    kind: "Tenant",
    metadata: { name: "atlas", generation: 2 },
    spec: updates[0].request!,
    status: { phase: "Ready", conditions: [], message: "ready" },
  } as unknown as TenantView;

  it("ask the server, and say where the outcome shows (restore with --wait false)", async () => {
    const asked: unknown[] = [];
    const snapshots = {
      take: async (name: string) => (asked.push(["take", name]), shown),
      restore: async (name: string, snapshot: string) => (asked.push(["restore", name, snapshot]), shown),
    };
    const taken = await kubespacesWith({ snapshots }, "tenant", "snapshot", "atlas");
    expect(taken.code).toBe(EXIT.ok);
    expect(taken.stderr).toContain("tenant atlas: a snapshot was asked for; the server lists it in status.snapshots");
    const restored = await kubespacesWith(
      { snapshots },
      "tenant",
      "restore",
      "atlas",
      "--from",
      "atlas-1",
      "--wait",
      "false",
    );
    expect(restored.code).toBe(EXIT.ok);
    expect(restored.stderr).toContain("tenant atlas: a restore from atlas-1 was asked for");
    expect(asked).toEqual([
      ["take", "atlas"],
      ["restore", "atlas", "atlas-1"],
    ]);
  });

  it("need a server, and restore needs --from", async () => {
    const local = await kubespacesWith({}, "tenant", "snapshot", "atlas");
    expect(local.code).toBe(EXIT.invalid);
    expect(local.stderr).toContain("needs a kubespaces server");
    const missing = await kubespacesWith({}, "tenant", "restore", "atlas");
    expect(missing.code).toBe(EXIT.invalid);
    expect(missing.stderr).toContain("--from <snapshot>");
  });
});
