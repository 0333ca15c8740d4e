/**
 * `kubespaces version`: the command's version, the versions the package pins, and the server it
 * goes through, whose version the API does not tell (so it is said to be unknown), in-process.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { CommandEnv, OutputStream } from "../../provider/cli/commandEnv";
import { EXIT } from "../../provider/cli/exitCodes";
import { writeLoginSettings } from "../../provider/cli/loginSettings";
import { runCli } from "../../provider/cli/runCli";
import { VCLUSTER_CHART_VERSION } from "../../provider/model/vclusterChart";
import { temporaryFolderEach } from "./support/temporaryFolder";

class Captured implements OutputStream {
  text = "";
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

const home = temporaryFolderEach("kubespaces-version-");
const savedHome = process.env.KUBESPACES_HOME;
beforeEach(() => {
  process.env.KUBESPACES_HOME = home();
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.KUBESPACES_HOME;
  else process.env.KUBESPACES_HOME = savedHome;
});

const { dependencies } = JSON.parse(readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};
const PINS = {
  pulumi: dependencies["@pulumi/pulumi"],
  kubernetesProvider: dependencies["@pulumi/kubernetes"],
  vclusterChart: VCLUSTER_CHART_VERSION,
};

/** Runs `kubespaces ...args`; the door is never opened. */
async function kubespaces(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Captured();
  const stderr = new Captured();
  const env: CommandEnv = {
    stdout,
    stderr,
    door: () => {
      throw new Error("version opened a door");
    },
  };
  const code = await runCli("1.2.3-test", ["node", "kubespaces", ...args], env);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe("kubespaces version", () => {
  it("prints the command's version and the versions the package pins; local mode has no server", async () => {
    const run = await kubespaces("version");
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(run.stdout).toBe(
      [
        "Client Version: 1.2.3-test",
        `Pulumi SDK: ${PINS.pulumi}`,
        `Kubernetes provider: ${PINS.kubernetesProvider}`,
        `vCluster chart: ${PINS.vclusterChart}`,
        "Server: none (local mode: the tenants' stacks run from this machine)",
        "",
      ].join("\n"),
    );
    expect(JSON.parse((await kubespaces("version", "-o", "json")).stdout)).toEqual({
      clientVersion: "1.2.3-test",
      pins: PINS,
    });
  });

  it("names the server of a server login, its version unknown: the API does not tell it", async () => {
    writeLoginSettings({ server: "https://kubespaces.example.com" });
    const run = await kubespaces("version");
    expect(run.stdout).toContain(
      "Server: https://kubespaces.example.com, version unknown (its API does not tell it)\n",
    );
    expect(parse((await kubespaces("version", "-o", "yaml")).stdout)).toEqual({
      clientVersion: "1.2.3-test",
      pins: PINS,
      server: { url: "https://kubespaces.example.com", version: null },
    });
  });

  it("takes -o json or yaml only", async () => {
    const run = await kubespaces("version", "-o", "table");
    expect(run.code).toBe(EXIT.invalid);
    expect(run.stderr).toContain("Allowed choices are json, yaml");
  });
});
