/**
 * The `kubespaces` command as a user runs it (its source, through tsx: the unit tier does not build):
 * help, exit codes, and the refusals that stop before any engine or cluster is touched, writing nothing.
 * Each run starts a Node process (a second or two), so the cases are few.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const MAIN = path.join(ROOT, "provider/cli/main.ts");

let home: string;
let manifests: string;

beforeAll(() => {
  home = mkdtempSync(path.join(os.tmpdir(), "kubespaces-home-"));
  manifests = mkdtempSync(path.join(os.tmpdir(), "kubespaces-manifests-"));
});
afterAll(() => {
  for (const dir of [home, manifests]) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `kubespaces ...args` with its home in the test's folder and no cluster in reach. */
function kubespaces(...args: string[]): Promise<Run> {
  const env = { ...process.env, KUBESPACES_HOME: home, KUBECONFIG: path.join(home, "no-kubeconfig"), NO_COLOR: "1" };
  return new Promise((resolve) => {
    execFile(TSX, [MAIN, ...args], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Every file under the command's home: a refusal writes none (no request, no journal, no settings). */
function filesInHome(): string[] {
  return readdirSync(home, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(home, path.join(entry.parentPath, entry.name)));
}

/** A manifest file holding `text`. */
function manifest(name: string, text: string): string {
  const file = path.join(manifests, name);
  writeFileSync(file, text);
  return file;
}

describe.concurrent("kubespaces", { timeout: 60_000 }, () => {
  it("--help exits 0 and lists the exit codes", async () => {
    const run = await kubespaces("--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: kubespaces");
    expect(run.stdout).toMatch(/Exit codes:\n {2}0 +done[^]*\n {2}2 +the request or the command line was refused[^]*\n {2}5 +the tenants stack stayed locked[^]*\n {2}130 +interrupted/);
  });

  it.each([
    ["an unknown command", ["tenant", "frobnicate"], "unknown command 'frobnicate'"],
    ["an unknown flag", ["tenant", "create", "ok-name", "--frobnicate"], "unknown option '--frobnicate'"],
  ])("refuses %s with exit code 2", async (_, args, message) => {
    const run = await kubespaces(...args);
    expect(run.stderr).toContain(message);
    expect(run.code).toBe(2);
    expect(filesInHome()).toEqual([]);
  });

  it.each<[string, () => string[], string[]]>([
    [
      "a name that is no DNS label, with the component's message",
      () => ["tenant", "create", "Bad_Name", "--owner", "a@b.c"],
      ['kubespaces:index:Tenant "Bad_Name" has an invalid input; nothing was created', "name: must be a DNS-1123 label"],
    ],
    ["a quantity that is none, naming the field", () => ["tenant", "create", "ok-name", "--memory", "lots"], ["resources.memory: must be a Kubernetes quantity"]],
    [
      "a manifest of another apiVersion",
      () => ["tenant", "create", "--file", manifest("v2.yaml", "apiVersion: kubespaces.io/v2\nkind: Tenant\nmetadata: {name: ok-name}\nspec: {owner: a@b.c}\n")],
      ["is not a Tenant manifest", "must be apiVersion kubespaces.io/v1alpha1, kind Tenant (got kubespaces.io/v2, Tenant)"],
    ],
    [
      "a manifest that sets the platform's policy",
      () => ["tenant", "create", "--file", manifest("platform.yaml", "apiVersion: kubespaces.io/v1alpha1\nkind: Tenant\nmetadata: {name: ok-name}\nspec:\n  owner: a@b.c\n  platform: {allowUnsafeOverrides: true}\n")],
      ['unknown field(s) "platform"', "the rest is the platform's policy"],
    ],
  ])("refuses %s with exit code 2, writing nothing", async (_, args, messages) => {
    const run = await kubespaces(...args());
    for (const message of messages) expect(run.stderr).toContain(message);
    expect(run.code).toBe(2);
    expect(filesInHome()).toEqual([]);
  });
});
