/**
 * Which processes are one test bed's (test/testbed/testbedProcesses.ts), as `testbed.sh down` stops
 * them and `testbed.sh leftovers` names them: over process tables written as a machine would show
 * them during an end-to-end run, a /proc folder written as files, and a stop against processes
 * that end on TERM, on KILL, or not at all, with time that only advances when the stop waits.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  leftoversReport,
  readProcesses,
  stopProcesses,
  testbedProcesses,
  type ProcessInfo,
  type TestbedPlace,
} from "../testbed/testbedProcesses";
import { temporaryFolderEach } from "./support/temporaryFolder";

const REPO = "/work/checkout";
const RUN_DIR = `${REPO}/.testbed`;
const OTHER_RUN_DIR = "/tmp/kubespaces-other-cluster-x1";
const CACHE = "/root/.cache/kubespaces/bin";
const PLACE: TestbedPlace = { runDirs: [RUN_DIR], binCache: CACHE, testbedSrc: `${REPO}/test/testbed` };
const MARK = `KUBESPACES_TESTBED_DIR=${RUN_DIR}`;
const NODE_PATH = "PATH=/usr/bin:/bin";

/** A process of the table; `environ` defaults to a plain shell's. */
const proc = (pid: number, ppid: number, argv: string[], more: Partial<ProcessInfo> = {}): ProcessInfo => ({
  pid,
  ppid,
  argv,
  environ: [NODE_PATH],
  ...more,
});

/**
 * A machine during the last test file: this test bed's components, a control plane, a server a
 * test left with its Dex and an engine's plugins, a user's shell that sourced the env file, another
 * test bed's components from the same cache, and the vitest run whose teardown asks.
 */
const MACHINE: readonly ProcessInfo[] = [
  proc(1, 0, ["/sbin/init"]),
  proc(100, 1, ["bash"], { environ: [MARK], cwd: REPO }),
  proc(200, 100, ["node", `${REPO}/node_modules/.bin/vitest`, "run", "--project", "e2e"], {
    environ: [MARK],
    cwd: REPO,
  }),
  proc(201, 200, ["bash", `${REPO}/test/testbed/testbed.sh`, "down"], { environ: [MARK], cwd: REPO }),
  proc(202, 201, ["node", `${REPO}/node_modules/.bin/tsx`, `${REPO}/test/testbed/testbedProcesses.ts`, "stop"], {
    environ: [MARK],
  }),
  proc(203, 202, ["node", "--require", "tsx", `${REPO}/test/testbed/testbedProcesses.ts`, "stop"], { environ: [MARK] }),
  // This test bed's components, each started in the run dir with the mark.
  proc(300, 1, [`${CACHE}/etcd-v3.6.16/etcd`, `--data-dir=${RUN_DIR}/etcd-data`], {
    exe: `${CACHE}/etcd-v3.6.16/etcd`,
    cwd: RUN_DIR,
    environ: [MARK],
  }),
  proc(301, 1, ["node", `${REPO}/test/testbed/forward.mjs`, `unix:${RUN_DIR}/gateway/host-api.sock=tcp:127.0.0.1:1`], {
    exe: "/usr/bin/node",
    cwd: RUN_DIR,
  }),
  proc(302, 1, ["node", `${REPO}/node_modules/.bin/tsx`, `${REPO}/test/testbed/vclusterRunner.ts`], {
    exe: "/usr/bin/node",
    cwd: RUN_DIR,
    environ: [MARK],
  }),
  // A control plane: its runner, the namespaces' unshare, and the vCluster inside (no mark: env -i, chroot).
  proc(310, 302, ["bash", `${REPO}/test/testbed/testbed.sh`, "run-vcluster-pod", "ns", "pod-0"], {
    cwd: RUN_DIR,
    environ: [MARK],
  }),
  proc(
    311,
    310,
    ["unshare", "--pid", "bash", `${REPO}/test/testbed/lib/vclusterRoot.sh`, `${RUN_DIR}/vclusters/ns/pod-0`],
    {
      cwd: RUN_DIR,
    },
  ),
  proc(312, 311, ["/vcluster", "start"], { environ: [] }),
  // A server a test left (the worker that started it is gone), its Dex, its engine and a dynamic provider.
  proc(400, 1, ["node", `${REPO}/node_modules/.bin/kubespaces`, "server", "--id", "portal"], {
    cwd: REPO,
    environ: [MARK, "KUBESPACES_HOME=/tmp/kubespaces-cli-1/home"],
  }),
  proc(401, 400, [`${CACHE}/dex-v2.45.1/dex`, "serve", "/tmp/kubespaces-cli-1/home/server/dex/portal/dex.yaml"], {
    exe: `${CACHE}/dex-v2.45.1/dex`,
    cwd: REPO,
  }),
  proc(402, 400, ["pulumi", "up", "--stack", "team-a"], { exe: `${CACHE}/pulumi-v3.248.0/pulumi`, environ: [MARK] }),
  proc(403, 402, ["/bin/sh", `${REPO}/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs`], { environ: [MARK] }),
  proc(404, 403, ["node", `${REPO}/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js`], { environ: [MARK] }),
  // A user's shell that sourced the env file, and what it runs: not the test bed's.
  proc(500, 1, ["bash"], { environ: [MARK], cwd: RUN_DIR }),
  proc(501, 500, ["tail", "-f", `${RUN_DIR}/logs/etcd.log`], { environ: [MARK], cwd: RUN_DIR }),
  // Another test bed on the same cache and checkout (otherCluster.test.ts's), and its stray plugin.
  proc(600, 1, [`${CACHE}/etcd-v3.6.16/etcd`, `--data-dir=${OTHER_RUN_DIR}/etcd-data`], {
    exe: `${CACHE}/etcd-v3.6.16/etcd`,
    cwd: OTHER_RUN_DIR,
    environ: [`KUBESPACES_TESTBED_DIR=${OTHER_RUN_DIR}`],
  }),
  proc(601, 1, [`${CACHE}/pulumi-resource-kubernetes-v4.25.0/pulumi-resource-kubernetes`], {
    exe: `${CACHE}/pulumi-resource-kubernetes-v4.25.0/pulumi-resource-kubernetes`,
    environ: [`KUBESPACES_TESTBED_DIR=${OTHER_RUN_DIR}`],
  }),
];

const pids = (processes: readonly ProcessInfo[]) => processes.map((p) => p.pid);

describe("the test bed's processes", () => {
  it("are its components, control planes, and what its tests left with all below them, nothing else", () => {
    expect(pids(testbedProcesses(MACHINE, PLACE, 203))).toEqual([
      300, 301, 302, 310, 311, 312, 400, 401, 402, 403, 404,
    ]);
  });

  it("are another test bed's for its own run dir, on the same cache and checkout", () => {
    const other = { ...PLACE, runDirs: [OTHER_RUN_DIR] };
    expect(pids(testbedProcesses(MACHINE, other, 203))).toEqual([600, 601]);
  });

  it("never include the process that asks or one above it", () => {
    // `kubespaces` itself asking (it runs `testbed.sh`): the server it is stays.
    const asking = proc(405, 400, ["bash", `${REPO}/test/testbed/testbed.sh`, "leftovers"], { environ: [MARK] });
    expect(pids(testbedProcesses([...MACHINE, asking], PLACE, 405))).not.toContain(400);
  });
});

describe("reading /proc", () => {
  const folder = temporaryFolderEach("kubespaces-proc-");

  /** Writes process `pid` under the fake /proc root as the kernel shows it. */
  function writeProcess(
    root: string,
    pid: number,
    stat: string,
    argv: string[],
    links: { exe?: string; cwd?: string },
  ) {
    const dir = path.join(root, String(pid));
    mkdirSync(dir);
    writeFileSync(path.join(dir, "stat"), stat);
    writeFileSync(path.join(dir, "cmdline"), argv.map((a) => `${a}\0`).join(""));
    writeFileSync(path.join(dir, "environ"), `${MARK}\0HOME=/root\0`);
    if (links.exe) symlinkSync(links.exe, path.join(dir, "exe"));
    if (links.cwd) symlinkSync(links.cwd, path.join(dir, "cwd"));
  }

  it("reads each running process's parent, command line, executable, directory and environment, zombies left out", () => {
    const root = folder();
    writeProcess(root, 42, "42 (dex (serve) x) S 7 42 42 0 -1", [`${CACHE}/dex/dex`, "serve", "dex.yaml"], {
      exe: `${CACHE}/dex/dex (deleted)`,
      cwd: RUN_DIR,
    });
    writeProcess(root, 43, "43 (node) Z 42 42 42 0 -1", [], {});
    mkdirSync(path.join(root, "self"));
    expect(readProcesses(root)).toEqual([
      {
        pid: 42,
        ppid: 7,
        argv: [`${CACHE}/dex/dex`, "serve", "dex.yaml"],
        exe: `${CACHE}/dex/dex`,
        cwd: RUN_DIR,
        environ: [MARK, "HOME=/root"],
      },
    ]);
  });
});

describe("stopping them", () => {
  /** Processes that end on `endsOn` (or never), on a clock that moves only when the stop pauses. */
  function machine(endsOn: Record<number, "SIGTERM" | "SIGKILL" | "never">, startsLater: number[] = []) {
    const running = new Set(
      Object.keys(endsOn)
        .map(Number)
        .filter((pid) => !startsLater.includes(pid)),
    );
    const sent: string[] = [];
    let now = 0;
    return {
      sent,
      ports: {
        scan: () => {
          if (now === 400) for (const pid of startsLater) running.add(pid);
          return [...running].map((pid) => proc(pid, 1, [`p${pid}`]));
        },
        kill: (pid: number, signal: "SIGTERM" | "SIGKILL") => {
          sent.push(`${signal} ${pid}@${now}`);
          if (endsOn[pid] === signal || (signal === "SIGKILL" && endsOn[pid] === "SIGTERM")) running.delete(pid);
        },
        pause: async (ms: number) => {
          now += ms;
        },
      },
    };
  }
  const timing = { termGraceMs: 1_000, killGraceMs: 500, pollMs: 200 };

  it("TERMs each, KILLs what ignored TERM after the grace period, and names what ignored both", async () => {
    const { sent, ports } = machine({ 10: "SIGTERM", 11: "SIGKILL", 12: "never" });
    const left = await stopProcesses(ports, timing);
    expect(pids(left)).toEqual([12]);
    expect(sent).toEqual(["SIGTERM 10@0", "SIGTERM 11@0", "SIGTERM 12@0", "SIGKILL 11@1000", "SIGKILL 12@1000"]);
  });

  it("TERMs one that starts while it waits (a control plane its runner restarted)", async () => {
    const { sent, ports } = machine({ 10: "SIGKILL", 20: "SIGTERM" }, [20]);
    expect(await stopProcesses(ports, timing)).toEqual([]);
    expect(sent).toEqual(["SIGTERM 10@0", "SIGTERM 20@400", "SIGKILL 10@1000"]);
  });

  it("is done as soon as none is left, and sends nothing when none runs", async () => {
    const ending = machine({ 10: "SIGTERM" });
    expect(await stopProcesses(ending.ports, timing)).toEqual([]);
    expect(ending.sent).toEqual(["SIGTERM 10@0"]);
    const idle = machine({});
    expect(await stopProcesses(idle.ports, timing)).toEqual([]);
    expect(idle.sent).toEqual([]);
  });
});

describe("the leftovers report", () => {
  it("fails naming each process with its command line, or says none runs", () => {
    const left = [proc(401, 1, [`${CACHE}/dex-v2.45.1/dex`, "serve", "dex.yaml"])];
    expect(leftoversReport(left, RUN_DIR)).toEqual({
      text: `1 process(es) of the test bed in ${RUN_DIR} still run:\n  401 ${CACHE}/dex-v2.45.1/dex serve dex.yaml\n`,
      code: 1,
    });
    expect(leftoversReport([], RUN_DIR)).toEqual({ text: `no process of the test bed in ${RUN_DIR} runs\n`, code: 0 });
  });
});
