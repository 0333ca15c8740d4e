/**
 * The LOCAL DEFAULT identity provider of `kubespaces server`: Dex, built by the checkout's test
 * bed, started on loopback with the configuration of localDexConfig.ts (static users with
 * published passwords), for trying the portal and `kubespaces login` on one machine. An external
 * issuer replaces it by configuration.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { ProblemError } from "../../util/problemError";
import {
  CLI_CLIENT_ID,
  LOCAL_DEX_NOTICE,
  LOCAL_DEX_USERS,
  localDexConfigYaml,
  localDexIssuer,
  PORTAL_CLIENT_ID,
  PORTAL_SECRET_ENV,
} from "./localDexConfig";
import { testbedTool } from "../../hosts/testbedTools";

/** How to start the local Dex. */
export interface LocalDexOptions {
  /** The folder for its config file (`dex.yaml`), log (`dex.log`) and sqlite database (`dex.sqlite`); made if missing. */
  readonly dir: string;
  /** Where Dex may send the portal's browser back to, e.g. `http://127.0.0.1:<serverPort>/auth/callback`. */
  readonly portalRedirectUris: readonly string[];
  /**
   * The loopback port to listen on.
   * @default a free one
   */
  readonly port?: number;
  /**
   * Dex's storage: `sqlite` keeps signing keys and refresh tokens in `dir` across restarts.
   * @default "sqlite"
   */
  readonly storage?: "sqlite" | "memory";
  /**
   * The dex binary.
   * @default the test bed's (`testbed.sh tool-path dex`), built first when missing
   */
  readonly binary?: string;
  /** Stops Dex when aborted (and stops a start under way). */
  readonly signal?: AbortSignal;
  /**
   * Where its progress lines go (the notice that it is the local default among them).
   * @default stderr
   */
  readonly say?: (line: string) => void;
  /**
   * How long Dex may take to answer its discovery document.
   * @default 30000
   */
  readonly readyTimeoutMs?: number;
}

/** A running local Dex. */
export interface LocalDex {
  /** Its issuer URL, `http://127.0.0.1:<port>/dex`. */
  readonly issuer: string;
  /** The portal's confidential client; the secret is made anew at each start and never printed. */
  readonly portalClient: { readonly id: string; readonly secret: string };
  /** The command's public client (device flow). */
  readonly cliClient: { readonly id: string };
  /** Its static users and their published, local-only passwords. */
  readonly users: readonly { readonly email: string; readonly password: string; readonly groups: readonly string[] }[];
  /** Its log file. */
  readonly logFile: string;
  /** Stops Dex (SIGTERM, then SIGKILL after 5 s); resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts the local Dex and resolves once its discovery document answers. */
export async function startLocalDex(options: LocalDexOptions): Promise<LocalDex> {
  if (options.signal?.aborted) throw new ProblemError("interrupted before the local Dex started", "interrupted");
  const binary = options.binary ?? (await testbedTool("dex", options.signal));
  const port = await portFor(options.port);
  const issuer = localDexIssuer(port);
  const secret = randomBytes(32).toString("base64url");
  const files = writeConfig(options, port);
  const child = spawnDex(binary, files, secret);
  const stop = supervise(child, options.signal);
  try {
    await waitUntilServing(issuer, child, files, options);
  } catch (error) {
    await stop();
    throw error;
  }
  announce(options.say ?? ((line) => process.stderr.write(`${line}\n`)), issuer, files.log);
  return {
    issuer,
    portalClient: { id: PORTAL_CLIENT_ID, secret },
    cliClient: { id: CLI_CLIENT_ID },
    users: LOCAL_DEX_USERS.map(({ email, password, groups }) => ({ email, password, groups })),
    logFile: files.log,
    stop,
  };
}

/** The port asked for, or a free one; either free right now. */
async function portFor(asked: number | undefined): Promise<number> {
  const port = asked ?? (await freeLoopbackPort());
  // Whatever else listens there would answer the discovery document in this Dex's place.
  if (!(await loopbackPortFree(port)))
    throw new ProblemError(
      `port ${port} on 127.0.0.1 is in use (a local Dex of an earlier start?): pick another`,
      "failed",
    );
  return port;
}

/** Stops Dex when the signal fires or this process exits; returns the stop function. */
function supervise(child: ChildProcess, signal: AbortSignal | undefined): () => Promise<void> {
  const stop = () => stopDex(child);
  const onAbort = () => void stop();
  signal?.addEventListener("abort", onAbort, { once: true });
  // Dex must not outlive this process when it ends without stopping it.
  const onExit = () => child.kill("SIGKILL");
  process.once("exit", onExit);
  child.once("exit", () => {
    signal?.removeEventListener("abort", onAbort);
    process.removeListener("exit", onExit);
  });
  return stop;
}

/** Says that the local default runs, and who can sign in to it (their passwords are published). */
function announce(say: (line: string) => void, issuer: string, log: string): void {
  say(LOCAL_DEX_NOTICE);
  say(`local Dex: issuer ${issuer} (log ${log})`);
  for (const user of LOCAL_DEX_USERS)
    say(`local Dex: user ${user.email}, password ${user.password} (local only), groups ${user.groups.join(", ")}`);
}

/** The files of one start. */
interface DexFiles {
  readonly config: string;
  readonly log: string;
}

function writeConfig(options: LocalDexOptions, port: number): DexFiles {
  mkdirSync(options.dir, { recursive: true });
  const dir = path.resolve(options.dir);
  const config = path.join(dir, "dex.yaml");
  const storageFile = (options.storage ?? "sqlite") === "sqlite" ? path.join(dir, "dex.sqlite") : undefined;
  writeFileSync(config, localDexConfigYaml({ port, portalRedirectUris: options.portalRedirectUris, storageFile }), {
    mode: 0o600,
  });
  return { config, log: path.join(dir, "dex.log") };
}

/** `dex serve CONFIG`, its output appended to the log; the portal's secret only in its environment. */
function spawnDex(binary: string, files: DexFiles, secret: string): ChildProcess {
  const log = openSync(files.log, "a");
  try {
    const child = spawn(binary, ["serve", files.config], {
      stdio: ["ignore", log, log],
      // Only what Dex needs: nothing of this process's environment changes how it runs. The test
      // bed's run dir, which Dex ignores, marks it as the test bed's for `testbed.sh down`.
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/",
        [PORTAL_SECRET_ENV]: secret,
        ...(process.env.KUBESPACES_TESTBED_DIR && { KUBESPACES_TESTBED_DIR: process.env.KUBESPACES_TESTBED_DIR }),
      },
    });
    child.on("error", () => {}); // a failed spawn shows as its exit, in waitUntilServing
    return child;
  } finally {
    closeSync(log);
  }
}

/** Polls until the discovery document answers, Dex ends, the time is up or the signal fires. */
async function waitUntilServing(issuer: string, child: ChildProcess, files: DexFiles, options: LocalDexOptions) {
  const url = `${issuer}/.well-known/openid-configuration`;
  const timeoutMs = options.readyTimeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let ended: string | undefined;
  child.once("exit", (code, signal) => (ended = `exited (${code ?? signal}) at start`));
  child.once("error", (error) => (ended = `could not be run: ${error.message}`));
  while (Date.now() < deadline) {
    if (options.signal?.aborted) throw new ProblemError("interrupted while the local Dex started", "interrupted");
    if (ended) throw new ProblemError(`the local Dex ${ended}: ${logTail(files.log)}`, "failed");
    if ((await answers(url)) && !ended) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new ProblemError(`the local Dex did not answer ${url} within ${timeoutMs} ms: ${logTail(files.log)}`, "failed");
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** The log's last lines, for an error (Dex logs no secrets: the portal's is only in its environment). */
function logTail(log: string): string {
  try {
    const text = readFileSync(log, "utf8").trimEnd();
    return text ? `${text.split("\n").slice(-5).join(" | ")} (log ${log})` : `its log ${log} is empty`;
  } catch {
    return `no log at ${log}`;
  }
}

async function stopDex(child: ChildProcess): Promise<void> {
  // No pid: it never ran. An exit code or signal: it has ended.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** A loopback port free right now (the OS picks it; Dex binds it a moment later). */
async function freeLoopbackPort(): Promise<number> {
  const port = await listenAndClose(0);
  if (port === undefined) throw new ProblemError("no free loopback port for the local Dex", "failed");
  return port;
}

const loopbackPortFree = async (port: number): Promise<boolean> => (await listenAndClose(port)) !== undefined;

/** Listens on 127.0.0.1:`port` and closes again: the port it had, or undefined when it could not listen. */
async function listenAndClose(port: number): Promise<number | undefined> {
  const server = createServer();
  server.listen(port, "127.0.0.1");
  try {
    await once(server, "listening");
  } catch {
    return undefined;
  }
  const address = server.address();
  server.close();
  await once(server, "close");
  return address !== null && typeof address !== "string" ? address.port : undefined;
}
