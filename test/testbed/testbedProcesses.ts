/**
 * The processes of one test bed (one run dir) on this machine, as /proc shows them: what
 * `testbed.sh down` stops once its components are stopped, and what `testbed.sh leftovers` names
 * when any still runs.
 *
 * A process is the test bed's when it is of a kind the test bed or its tests run (a tool of the
 * binary cache, a Pulumi plugin or program, the vCluster runner, a forwarder, a control plane's
 * runner, the checkout's `kubespaces` command, the browser tests' Chromium) and it names this run
 * dir: in its command line, as its working directory, or as KUBESPACES_TESTBED_DIR in its
 * environment (components get it from `up`, everything the end-to-end tier starts from its global
 * setup). Every process below such a process is the test bed's too (a server's Dex, an engine's
 * plugins, a control plane's processes). Kind and run dir together: another test bed's processes
 * run the same tools from the same cache, and a shell that sourced the env file names the run dir
 * without being the test bed's. The process that asks, and those above it, are never counted.
 *
 *   tsx testbedProcesses.ts list RUN_DIR BIN_CACHE   print each; exit 1 when any runs
 *   tsx testbedProcesses.ts stop RUN_DIR BIN_CACHE   TERM each, KILL what is left after a grace
 *                                                    period, then exit as `list` does
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";

/** One process, as /proc shows it. */
export interface ProcessInfo {
  /** Its id. */
  readonly pid: number;
  /** Its parent's id. */
  readonly ppid: number;
  /** Its command line; empty for a kernel thread. */
  readonly argv: readonly string[];
  /** The path of its executable, when it can be read. */
  readonly exe?: string;
  /** Its working directory, when it can be read. */
  readonly cwd?: string;
  /** Its environment, `NAME=value` each. */
  readonly environ: readonly string[];
}

/** What makes a process one test bed's. */
export interface TestbedPlace {
  /** The run dir, as given and as its real path. */
  readonly runDirs: readonly string[];
  /** The real path of the binary cache, where the test bed's tools are. */
  readonly binCache: string;
  /** This checkout's test/testbed. */
  readonly testbedSrc: string;
}

const TESTBED_SRC = __dirname;

/** The test bed's own scripts that run as long-lived processes. */
const TESTBED_SCRIPTS = ["vclusterRunner.ts", "forward.mjs", "lib/vclusterRoot.sh"];

/** A Pulumi plugin (`pulumi-resource-kubernetes`, the Node.js dynamic provider, a language host) or program runner. */
const PULUMI_PLUGIN = /(^|\/)pulumi-(resource|language|analyzer)-[^/]*$|\/@pulumi\/pulumi\/cmd\//;

/** The `kubespaces` command (its npm bin link or the built file it links to). */
const KUBESPACES_COMMAND = /(^|\/)(kubespaces|bin\/cli\/main\.js)$/;

/** A headless Chromium or Chrome, as Playwright runs it. */
const BROWSER = /^(chromium|chrome)/;

const isUnder = (file: string, dir: string): boolean => file === dir || file.startsWith(`${dir}/`);

/** Whether `p` is of a kind the test bed or its tests run. */
export function isTestbedKind(p: ProcessInfo, place: TestbedPlace): boolean {
  if (p.exe && isUnder(p.exe, place.binCache)) return true;
  if (p.exe && BROWSER.test(path.basename(p.exe))) return true;
  const scripts = TESTBED_SCRIPTS.map((script) => path.join(place.testbedSrc, script));
  const testbedSh = path.join(place.testbedSrc, "testbed.sh");
  return p.argv.some(
    (arg, i) =>
      PULUMI_PLUGIN.test(arg) ||
      scripts.includes(arg) ||
      (arg === testbedSh && p.argv[i + 1] === "run-vcluster-pod") ||
      (i < 2 && KUBESPACES_COMMAND.test(arg)),
  );
}

/** Whether `p` names the run dir: in its command line, as its working directory, or as KUBESPACES_TESTBED_DIR. */
export function namesRunDir(p: ProcessInfo, place: TestbedPlace): boolean {
  return place.runDirs.some(
    (dir) =>
      p.argv.some((arg) => arg === dir || arg.includes(`${dir}/`) || arg.endsWith(`=${dir}`)) ||
      (p.cwd !== undefined && isUnder(p.cwd, dir)) ||
      p.environ.includes(`KUBESPACES_TESTBED_DIR=${dir}`),
  );
}

/** `pid` and the processes above it. */
function selfAndAbove(pid: number, byPid: ReadonlyMap<number, ProcessInfo>): Set<number> {
  const chain = new Set<number>();
  for (let at: number | undefined = pid; at !== undefined && at > 0 && !chain.has(at); at = byPid.get(at)?.ppid)
    chain.add(at);
  return chain;
}

/** The test bed's processes among `all`, never `self` or one above it. */
export function testbedProcesses(all: readonly ProcessInfo[], place: TestbedPlace, self: number): ProcessInfo[] {
  const byPid = new Map(all.map((p) => [p.pid, p]));
  const spared = selfAndAbove(self, byPid);
  const chosen = new Set(
    all.filter((p) => !spared.has(p.pid) && isTestbedKind(p, place) && namesRunDir(p, place)).map((p) => p.pid),
  );
  // Below a chosen process: a list in pid order may name a child before its parent, so until nothing is added.
  for (let added = true; added;) {
    added = false;
    for (const p of all)
      if (!chosen.has(p.pid) && !spared.has(p.pid) && chosen.has(p.ppid)) {
        chosen.add(p.pid);
        added = true;
      }
  }
  return all.filter((p) => chosen.has(p.pid));
}

const readText = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
};
const readLink = (file: string): string | undefined => {
  try {
    return readlinkSync(file);
  } catch {
    return undefined;
  }
};
const nulSeparated = (text: string | undefined): string[] => (text ?? "").split("\0").filter((s) => s !== "");

/** Every process under `procRoot` that runs (zombies left out: they have ended); one that ends while it is read may lack parts. */
export function readProcesses(procRoot = "/proc"): ProcessInfo[] {
  const processes: ProcessInfo[] = [];
  for (const entry of readdirSync(procRoot)) {
    if (!/^\d+$/.test(entry)) continue;
    const dir = path.join(procRoot, entry);
    const stat = readText(path.join(dir, "stat"));
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read after the last ')'.
    const [state, ppid] = stat?.slice(stat.lastIndexOf(")") + 2).split(" ") ?? [];
    if (state === undefined || state === "Z" || state === "X") continue;
    const exe = readLink(path.join(dir, "exe"));
    const cwd = readLink(path.join(dir, "cwd"));
    processes.push({
      pid: Number(entry),
      ppid: Number(ppid),
      argv: nulSeparated(readText(path.join(dir, "cmdline"))),
      ...(exe !== undefined && { exe: exe.replace(/ \(deleted\)$/, "") }),
      ...(cwd !== undefined && { cwd }),
      environ: nulSeparated(readText(path.join(dir, "environ"))),
    });
  }
  return processes;
}

/** How `stopProcesses` acts on the machine. */
export interface StopPorts {
  /** The test bed's processes now. */
  readonly scan: () => ProcessInfo[];
  /** Sends `signal` to `pid`; a process that has gone by then is no error. */
  readonly kill: (pid: number, signal: "SIGTERM" | "SIGKILL") => void;
  /** Resolves after `ms`. */
  readonly pause: (ms: number) => Promise<void>;
}

/** How long processes get to end after TERM, then after KILL, and how often they are looked for meanwhile. */
export interface StopTiming {
  /** How long after TERM before KILL. */
  readonly termGraceMs: number;
  /** How long after KILL before what is left is named. */
  readonly killGraceMs: number;
  /** How often the processes are looked for meanwhile. */
  readonly pollMs: number;
}

/** The test bed's: its components get as long in `stop_component`. */
export const STOP_TIMING: StopTiming = { termGraceMs: 10_000, killGraceMs: 5_000, pollMs: 200 };

/**
 * TERM every process `scan` finds (and every one it finds later, such as a control plane its runner
 * restarted), KILL those still there after the grace period; resolves to what is left after that.
 */
export async function stopProcesses(ports: StopPorts, timing: StopTiming = STOP_TIMING): Promise<ProcessInfo[]> {
  const signalled = new Map<number, "SIGTERM" | "SIGKILL">();
  const sendAll = (processes: readonly ProcessInfo[], signal: "SIGTERM" | "SIGKILL") => {
    for (const p of processes) {
      if (signalled.get(p.pid) === signal || signalled.get(p.pid) === "SIGKILL") continue;
      signalled.set(p.pid, signal);
      ports.kill(p.pid, signal);
    }
  };
  const waitGone = async (graceMs: number, signal: "SIGTERM" | "SIGKILL") => {
    for (let waited = 0; ; waited += timing.pollMs) {
      const left = ports.scan();
      sendAll(left, signal);
      if (left.length === 0 || waited >= graceMs) return left;
      await ports.pause(timing.pollMs);
    }
  };
  const afterTerm = await waitGone(timing.termGraceMs, "SIGTERM");
  if (afterTerm.length === 0) return [];
  sendAll(afterTerm, "SIGKILL");
  return waitGone(timing.killGraceMs, "SIGKILL");
}

/** One process for people: its pid and command line (shortened). */
export function processLine(p: ProcessInfo): string {
  const command = p.argv.length > 0 ? p.argv.join(" ") : (p.exe ?? "?");
  return `${p.pid} ${command.length > 200 ? `${command.slice(0, 200)}...` : command}`;
}

/** What `list` prints and the exit code: 0 when nothing runs, 1 naming each process that does. */
export function leftoversReport(left: readonly ProcessInfo[], runDir: string): { text: string; code: number } {
  if (left.length === 0) return { text: `no process of the test bed in ${runDir} runs\n`, code: 0 };
  const lines = left.map((p) => `  ${processLine(p)}`).join("\n");
  return {
    text: `${left.length} process(es) of the test bed in ${runDir} still run:\n${lines}\n`,
    code: 1,
  };
}

const realOrGiven = (dir: string): string => {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
};

async function main(argv: readonly string[]): Promise<number> {
  const [verb, runDir, binCache] = argv;
  if ((verb !== "list" && verb !== "stop") || !runDir || !binCache) {
    process.stderr.write("usage: testbedProcesses.ts list|stop RUN_DIR BIN_CACHE\n");
    return 2;
  }
  const place: TestbedPlace = {
    runDirs: [...new Set([path.resolve(runDir), realOrGiven(runDir)])],
    binCache: realOrGiven(binCache),
    testbedSrc: TESTBED_SRC,
  };
  const scan = () => testbedProcesses(readProcesses(), place, process.pid);
  let left: ProcessInfo[];
  if (verb === "stop") {
    const found = scan();
    if (found.length > 0)
      process.stderr.write(
        `stopping what the tests or the test bed left:\n${found.map((p) => `  ${processLine(p)}`).join("\n")}\n`,
      );
    left = await stopProcesses({
      scan,
      kill: (pid, signal) => {
        try {
          process.kill(pid, signal);
        } catch {
          // gone already
        }
      },
      pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
  } else left = scan();
  const report = leftoversReport(left, runDir);
  process.stderr.write(report.text);
  return report.code;
}

if (require.main === module) void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
