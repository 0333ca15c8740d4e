/**
 * `--wait` (on by default; `--wait=false`, `--no-wait`) and `--timeout` of the commands that change
 * a tenant (create, delete, sleep, wake, restore), in-process through the command's parser, over a
 * door whose operations are stand-ins that follow until told to stop, as both doors do. The clock
 * is vitest's: a deadline passes when the test moves it, never by sleeping.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CommandEnv, OutputStream } from "../../provider/cli/commandEnv";
import { EXIT } from "../../provider/cli/exitCodes";
import { runCli } from "../../provider/cli/runCli";
import type { FollowOptions, ShownTenant, TenantsDoor } from "../../provider/cli/tenantsDoor";
import type { TenantView } from "../../provider/tenantResource/tenantReplies";
import type { OperationOptions } from "../../provider/tenants/tenantsService";
import { InterruptedError } from "../../provider/tenants/tenantsErrors";

class Captured implements OutputStream {
  text = "";
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

const ALICE = "alice@example.com";
const SERVER = "https://kubespaces.example.com";

/** Tenant atlas as a server shows it. */
const atlas = (phase: string, generation = 2, observedGeneration = generation, more = {}): TenantView =>
  ({
    apiVersion: "kubespaces.io/v1alpha1",
    kind: "Tenant",
    metadata: { name: "atlas", generation },
    spec: { owner: ALICE },
    status: {
      phase,
      conditions: [{ type: "Ready", status: "Unknown", reason: phase === "Failed" ? "QuotaFailed" : phase }],
      message: `atlas is ${phase}`,
      observedGeneration,
      ...more,
    },
  }) as unknown as TenantView;

/** A promise that rejects as the doors' operations do once `signal` aborts (the follow stopped). */
const untilStopped = (signal: AbortSignal | undefined): Promise<never> =>
  new Promise((_, reject) =>
    signal?.addEventListener("abort", () => reject(new InterruptedError("atlas", "stopped following tenant atlas")), {
      once: true,
    }),
  );

/** What the stand-in operations were asked, and the options they got. */
let asked: unknown[];
let operation: OperationOptions | FollowOptions | undefined;
/** Resolves once an operation that follows has started. */
let following: Promise<void>;
let started: () => void;

beforeEach(() => {
  asked = [];
  operation = undefined;
  following = new Promise((resolve) => (started = resolve));
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A server's door whose operations follow until stopped, or as `abilities` say (`server: undefined`: local mode's). */
function door(abilities: Partial<TenantsDoor> = {}): TenantsDoor {
  const hang = (options: OperationOptions | FollowOptions | undefined) => {
    operation = options;
    started();
    return untilStopped(options?.signal);
  };
  return {
    actor: { owner: ALICE, groups: [], isAdmin: false },
    onInterrupt: "interrupted",
    server: SERVER,
    tenants: {
      get: async () => atlas("Provisioning"),
      check: (_name: string, request: unknown) => request,
      create: async (_n: string, _r: unknown, _a: unknown, options?: OperationOptions) => hang(options),
      delete: async (_n: string, _a: unknown, options?: OperationOptions) => hang(options),
    },
    follow: (_name: string, _until: unknown, options: FollowOptions) => hang(options),
    asks: {
      create: async (name: string, request: unknown) => (asked.push(["create", name, request]), atlas("Pending")),
      delete: async (name: string) => (asked.push(["delete", name]), atlas("Deleting")),
    },
    setSleep: async (name: string, asleep: boolean) => (asked.push(["sleep", name, asleep]), atlas("Ready", 3, 2)),
    snapshots: {
      take: async () => atlas("Ready"),
      restore: async (name: string, snapshot: string) => (asked.push(["restore", name, snapshot]), atlas("Ready")),
    },
    ...abilities,
  } as unknown as TenantsDoor;
}

/** Starts `kubespaces ...args` over `theDoor`. */
function kubespaces(theDoor: TenantsDoor, ...args: string[]) {
  const stdout = new Captured();
  const stderr = new Captured();
  const env: CommandEnv = { stdout, stderr, door: async () => theDoor };
  const finished = runCli("0.0.0-test", ["node", "kubespaces", ...args], env);
  return { stdout, stderr, finished };
}

/** Moves the clock past `ms` once the command follows, and returns how it ended. */
async function pastDeadline(run: ReturnType<typeof kubespaces>, ms: number) {
  await following;
  vi.advanceTimersByTime(ms - 1);
  expect(operation?.signal?.aborted).toBe(false);
  vi.advanceTimersByTime(1);
  return { code: await run.finished, stdout: run.stdout.text, stderr: run.stderr.text };
}

describe("--timeout", () => {
  it("create through a server: past it, exit 1, saying the server goes on and how to follow it", async () => {
    const run = kubespaces(door(), "tenant", "create", "atlas", "--cpu", "4", "--timeout", "10m");
    const ended = await pastDeadline(run, 10 * 60_000);
    expect(ended.code).toBe(EXIT.error);
    expect(ended.stderr).toContain(
      `kubespaces: tenant atlas is not Ready after 10m (--timeout); the server ${SERVER} goes on with it: follow it with \`kubespaces tenant get atlas -w\`\n`,
    );
  });

  it("create in local mode: past it, the run is stopped as a Ctrl-C stops it, the engine told too, and exit 1", async () => {
    const run = kubespaces(
      door({ server: undefined }),
      "tenant",
      "create",
      "atlas",
      "--cpu",
      "4",
      "--timeout",
      "1h30m",
    );
    const ended = await pastDeadline(run, 90 * 60_000);
    expect(ended.code).toBe(EXIT.error);
    expect((operation as OperationOptions).engineSignal?.aborted).toBe(true);
    expect(ended.stderr).toContain(
      "kubespaces: tenant atlas is not Ready after 1h30m (--timeout): its run was stopped as a Ctrl-C stops it (the engine finished the steps in flight and saved the state); its request is kept: `kubespaces tenant create atlas` finishes it\n",
    );
  });

  it("delete: past it, exit 1, saying how to follow the teardown", async () => {
    const run = kubespaces(door(), "tenant", "delete", "atlas", "--timeout", "90s");
    const ended = await pastDeadline(run, 90_000);
    expect(ended.code).toBe(EXIT.error);
    expect(ended.stderr).toContain(
      "kubespaces: the teardown of tenant atlas has not finished after 1m30s (--timeout); the server",
    );
    expect(ended.stderr).toContain("follow it with `kubespaces tenant get atlas -w`");
  });

  it.each([
    ["sleep", ["tenant", "sleep", "atlas"], "tenant atlas is not Sleeping after 5m"],
    ["wake", ["tenant", "wake", "atlas"], "tenant atlas is not Ready after 5m"],
    [
      "restore",
      ["tenant", "restore", "atlas", "--from", "atlas-1"],
      "tenant atlas is not restored from atlas-1 after 5m",
    ],
  ])("%s: past it, exit 1, saying how to follow the change", async (_, args, message) => {
    const run = kubespaces(door(), ...args, "--timeout", "5m");
    const ended = await pastDeadline(run, 5 * 60_000);
    expect(ended.code).toBe(EXIT.error);
    expect(ended.stderr).toContain(`kubespaces: ${message} (--timeout); the server ${SERVER} goes on with it`);
  });

  it.each([["0s"], ["soon"], ["10"], [""]])("refuses %j, and beside --wait=false", async (value) => {
    const run = await kubespaces(door(), "tenant", "create", "atlas", "--cpu", "4", "--timeout", value).finished;
    expect(run).toBe(EXIT.invalid);
    const both = kubespaces(door(), "tenant", "delete", "atlas", "--wait=false", "--timeout", "5m");
    expect(await both.finished).toBe(EXIT.invalid);
    expect(both.stderr.text).toContain("--timeout bounds a wait: give it without --wait=false");
    expect(asked).toEqual([]);
  });
});

describe("the waits of sleep, wake and restore", () => {
  /** A follow that shows `states` one by one, and returns the first that `until` takes. */
  const followThrough =
    (...states: TenantView[]) =>
    async (_name: string, until: (tenant: ShownTenant) => boolean, options: FollowOptions) => {
      operation = options;
      for (const state of states) if (until(state)) return state;
      throw new Error("the follow ran out of states");
    };

  it("sleep follows the tenant until its new generation is Sleeping, and prints it then", async () => {
    const follow = followThrough(atlas("Ready", 3, 2), atlas("Provisioning", 3, 2), atlas("Sleeping", 3, 3));
    const run = kubespaces(door({ follow }), "tenant", "sleep", "atlas");
    expect(await run.finished).toBe(EXIT.ok);
    expect(run.stdout.text).toMatch(/^NAME\s+PHASE\s+API\natlas\s+Sleeping\s+-\n$/);
    expect(run.stderr.text).toContain("generation 3 asks for sleep: true; the server brings it to Sleeping\n");
    expect(asked).toEqual([["sleep", "atlas", true]]);
  });

  it("wake that ends Failed exits 3 with the reason, the tenant printed", async () => {
    const follow = followThrough(atlas("Provisioning", 3, 2), atlas("Failed", 3, 3));
    const run = kubespaces(door({ follow }), "tenant", "wake", "atlas");
    expect(await run.finished).toBe(EXIT.failed);
    expect(run.stdout.text).toMatch(/atlas\s+Failed/);
    expect(run.stderr.text).toContain("kubespaces: tenant atlas failed (QuotaFailed): atlas is Failed\n");
  });

  it("restore follows until the server served it (status.restoredFrom) and the tenant is settled", async () => {
    const follow = followThrough(
      atlas("Ready", 2, 2, { restoredFrom: "atlas-0" }),
      atlas("Sleeping", 2, 2, { restoredFrom: "atlas-0" }),
      atlas("Provisioning", 2, 2, { restoredFrom: "atlas-0" }),
      atlas("Ready", 2, 2, { restoredFrom: "atlas-1" }),
    );
    const run = kubespaces(door({ follow }), "tenant", "restore", "atlas", "--from", "atlas-1", "-o", "json");
    expect(await run.finished).toBe(EXIT.ok);
    expect(JSON.parse(run.stdout.text).status).toMatchObject({ phase: "Ready", restoredFrom: "atlas-1" });
    expect(run.stderr.text).toContain(
      "the server served the restore from atlas-1; whether it worked, its Events say (kubectl describe tenant atlas)",
    );
  });
});

describe("--wait=false", () => {
  it.each([["--wait=false"], ["--no-wait"]])(
    "%s: create through a server asks for the tenant and prints it as it stands, following nothing",
    async (flag) => {
      const run = kubespaces(door(), "tenant", "create", "atlas", "--cpu", "4", flag);
      expect(await run.finished).toBe(EXIT.ok);
      expect(asked).toEqual([["create", "atlas", { resources: { cpu: "4" } }]]);
      expect(operation).toBeUndefined();
      expect(run.stdout.text).toMatch(/atlas\s+Pending/);
      expect(run.stderr.text).toContain("follow it with `kubespaces tenant get atlas -w`");
    },
  );

  it("delete through a server asks for the teardown and returns", async () => {
    const run = kubespaces(door(), "tenant", "delete", "atlas", "--wait", "false");
    expect(await run.finished).toBe(EXIT.ok);
    expect(asked).toEqual([["delete", "atlas"]]);
    expect(run.stdout.text).toBe(`tenant atlas deletion asked of ${SERVER}\n`);
  });

  it("is refused in local mode, where nothing would go on with the run, and asks nothing", async () => {
    for (const verb of ["create", "delete"]) {
      const run = kubespaces(door({ asks: undefined, server: undefined }), "tenant", verb, "atlas", "--wait=false");
      expect(await run.finished).toBe(EXIT.invalid);
      expect(run.stderr.text).toContain(
        "--wait=false: here the command runs tenant atlas's stack itself, and nothing would go on with it once the command returned",
      );
    }
    expect(asked).toEqual([]);
  });

  it("takes true or false only", async () => {
    const run = kubespaces(door(), "tenant", "delete", "--wait", "atlas");
    expect(await run.finished).toBe(EXIT.invalid);
    expect(run.stderr.text).toContain("option '--wait [bool]' argument 'atlas' is invalid. must be true or false");
  });
});
