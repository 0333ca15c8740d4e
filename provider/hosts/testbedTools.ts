/**
 * A tool of the checkout's test bed (a binary built from its pinned Go module, see
 * test/testbed/README.md), for the local defaults that run one, like the local Dex. Built on first
 * use; only in a checkout of the repository, never in the npm package.
 */
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { promisify } from "node:util";
import { ProblemError } from "../util/problemError";
import { hasTestbed, TESTBED_SCRIPT } from "./testbedHost";

/**
 * The path of the test bed's binary of `tool` (a name `testbed.sh build` knows, e.g. `dex`),
 * building it first when it is not cached: its progress goes to stderr, and the signal stops it.
 */
export async function testbedTool(tool: string, signal?: AbortSignal): Promise<string> {
  if (!hasTestbed())
    throw new ProblemError(`no ${tool} here: it is built by the test bed of a kubespaces checkout`, "failed");
  const cached = await toolPath(tool);
  if (cached) return cached;
  await build(tool, signal);
  const built = await toolPath(tool);
  if (!built)
    throw new ProblemError(`testbed.sh build ${tool} left no ${tool} binary; its messages are above`, "failed");
  return built;
}

/** `testbed.sh tool-path TOOL`: the cached binary, or undefined when it is not built yet. */
async function toolPath(tool: string): Promise<string | undefined> {
  try {
    const { stdout } = await promisify(execFile)("bash", [TESTBED_SCRIPT, "tool-path", tool], { encoding: "utf8" });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** `testbed.sh build TOOL`, its progress on stderr as it happens. */
async function build(tool: string, signal: AbortSignal | undefined): Promise<void> {
  process.stderr.write(`building ${tool} from its pinned Go module (test/testbed/testbed.sh build ${tool})...\n`);
  const child = spawn("bash", [TESTBED_SCRIPT, "build", tool], {
    stdio: ["ignore", process.stderr, process.stderr],
    signal,
  });
  child.on("error", () => {}); // an abort rejects through `once` below
  try {
    const [code] = (await once(child, "close")) as [number | null];
    if (code !== 0) throw new ProblemError(`testbed.sh build ${tool} exited ${code}; its messages are above`, "failed");
  } catch (error) {
    if (signal?.aborted) throw new ProblemError(`interrupted while ${tool} was being built`, "interrupted");
    throw error;
  }
}
