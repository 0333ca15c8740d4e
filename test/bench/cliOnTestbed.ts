/**
 * `npm run bench:cli`: the `kubespaces` binary on the local test bed, as a user runs it, each figure
 * next to a baseline measured in the same run:
 * - `create`, `delete` and `create --preview` of one tenant when 0, 5 and 10 other tenants already
 *   exist (a stack per tenant: the ratio to the 0-tenant time should stay near 1; aim at most 1.1
 *   for 10). The other tenants' control planes run on the same cores, so create and delete also
 *   show a busier host; the preview starts no control plane;
 * - two creates of different tenants started together, against one create alone (aim at most 1.3);
 * - the start-up of `kubespaces --help` and `kubespaces tenant list -o json`, against `node -e 0`
 *   (aim: `--help` under 300 ms on a quiet machine).
 * The tenants are real: the real vCluster chart and control plane the test bed runs.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { kubespaces, newCliUser, startKubespaces, type CliUser, KUBESPACES_BIN } from "../e2e/support/kubespacesCli";
import { testbed } from "../e2e/support/testbed";
import { timed } from "./timed";

const OTHERS = (process.env.BENCH_CLI_OTHERS ?? "0,5,10").split(",").map(Number);
const STARTUP_RUNS = Number(process.env.BENCH_CLI_STARTUP_RUNS ?? 10);
const REQUEST = ["--cpu", "3", "--memory", "4Gi"];

/** Runs a command to its end; fails the bench when it fails. */
async function must(user: CliUser, ...args: string[]): Promise<void> {
  const run = await kubespaces(user, ...args);
  if (run.code !== 0) throw new Error(`kubespaces ${args.join(" ")} exited ${run.code}:\n${run.stderr}`);
}

/** The median of `runs` timings of a synchronous process start, in ms. */
function startupMs(command: string, args: readonly string[], env: NodeJS.ProcessEnv, runs = STARTUP_RUNS): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const run = spawnSync(command, args, { env, stdio: "ignore" });
    if (run.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${run.status}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

/** Brings the count of other tenants to `count`, two creates at a time. */
async function growTo(user: CliUser, existing: string[], count: number): Promise<void> {
  while (existing.length < count) {
    const batch = Array.from(
      { length: Math.min(2, count - existing.length) },
      (_, i) => `bench-other-${existing.length + i}`,
    );
    await Promise.all(batch.map((name) => must(user, "tenant", "create", name, ...REQUEST)));
    existing.push(...batch);
  }
}

const ratio = (value: number, base: number): string => `${(value / base).toFixed(2)}x`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

async function main(): Promise<void> {
  testbed("up");
  const user = newCliUser();
  await must(user, "login", "--user", "bench@example.com");
  const others: string[] = [];
  const lines: string[] = [];
  try {
    const startEnv = { ...user.env };
    const node = startupMs(process.execPath, ["-e", "0"], startEnv);
    const help = startupMs(KUBESPACES_BIN, ["--help"], startEnv);
    const list = startupMs(KUBESPACES_BIN, ["tenant", "list", "-o", "json"], startEnv);
    lines.push(
      `start-up (median of ${STARTUP_RUNS}): node -e 0 ${node.toFixed(0)}ms; --help ${help.toFixed(0)}ms (${ratio(help, node)}); tenant list -o json ${list.toFixed(0)}ms (${ratio(list, node)})`,
    );

    // One create, preview and delete first, unmeasured: the first run of a home pays for its
    // workspace and the engine's first start, which no later run does.
    await must(user, "tenant", "create", "bench-warm", ...REQUEST, "--preview");
    await must(user, "tenant", "create", "bench-warm", ...REQUEST);
    await must(user, "tenant", "delete", "bench-warm");
    const base: { create?: number; delete?: number; preview?: number } = {};
    for (const count of OTHERS) {
      await growTo(user, others, count);
      // The preview runs the engine over the tenant's stack and starts no virtual cluster: it shows
      // the stack's own cost apart from a host busy with the other tenants' control planes.
      const previewMs = await timed(() => must(user, "tenant", "create", "bench-one", ...REQUEST, "--preview"));
      const createMs = await timed(() => must(user, "tenant", "create", "bench-one", ...REQUEST));
      const deleteMs = await timed(() => must(user, "tenant", "delete", "bench-one"));
      base.create ??= createMs;
      base.delete ??= deleteMs;
      base.preview ??= previewMs;
      lines.push(
        `${String(count).padStart(2)} other tenants: create ${seconds(createMs)} (${ratio(createMs, base.create)}), delete ${seconds(deleteMs)} (${ratio(deleteMs, base.delete)}), preview ${seconds(previewMs)} (${ratio(previewMs, base.preview)})`,
      );
      process.stderr.write(`${lines.at(-1)}\n`);
    }

    const aloneMs = await timed(() => must(user, "tenant", "create", "bench-alone", ...REQUEST));
    const togetherMs = await timed(async () => {
      const runs = ["bench-pair-a", "bench-pair-b"].map(
        (name) => startKubespaces(user, ["tenant", "create", name, ...REQUEST]).finished,
      );
      for (const run of await Promise.all(runs))
        if (run.code !== 0) throw new Error(`a create of the pair failed:\n${run.stderr}`);
    });
    lines.push(
      `two creates started together: ${seconds(togetherMs)} against one alone ${seconds(aloneMs)} (${ratio(togetherMs, aloneMs)})`,
    );
    for (const name of ["bench-alone", "bench-pair-a", "bench-pair-b"]) others.push(name);
  } finally {
    for (let i = 0; i < others.length; i += 2)
      await Promise.all(others.slice(i, i + 2).map((name) => kubespaces(user, "tenant", "delete", name)));
    rmSync(path.dirname(user.home), { recursive: true, force: true });
  }
  process.stdout.write(
    `kubespaces on the local test bed (${os.cpus().length} cores)\n${lines.map((l) => `  ${l}`).join("\n")}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:cli failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
