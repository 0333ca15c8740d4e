/** What `kubespaces login` records, and the platform policy file it takes. */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CliError, EXIT, exitCodeOfProblem } from "../../provider/cli/exitCodes";
import { parsePlatformPolicy } from "../../provider/model/platformPolicyValue";
import { ProblemError } from "../../provider/util/problemError";
import {
  currentUser,
  readLoginSettings,
  projectOf,
  writeLoginSettings,
  type LoginSettings,
} from "../../provider/cli/loginSettings";
import { thrownBy } from "./support/thrown";
import { temporaryFolderEach } from "./support/temporaryFolder";

const home = temporaryFolderEach("kubespaces-home-");
const savedHome = process.env.KUBESPACES_HOME;
const settingsFile = () => path.join(home(), "settings.json");

beforeEach(() => {
  process.env.KUBESPACES_HOME = home();
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.KUBESPACES_HOME;
  else process.env.KUBESPACES_HOME = savedHome;
});

/** The CliError `action` throws. */
function refusal(action: () => unknown): CliError {
  const error = thrownBy(action);
  expect(error).toBeInstanceOf(CliError);
  return error as CliError;
}

const full: LoginSettings = {
  backendUrl: "s3://tenants-state",
  kubeconfig: "/etc/kubespaces/host.kubeconfig",
  context: "host-admin",
  project: "prod-tenants",
  user: "alice@example.com",
  platform: { namespacePrefix: "teams-", quota: { ceilings: { cpu: "16" } } },
};

describe("login settings", () => {
  it("are empty before the first login", () => {
    expect(readLoginSettings()).toEqual({});
  });

  it("round-trip, in an owner-only file replaced in one step", () => {
    writeLoginSettings(full);
    expect(readLoginSettings()).toEqual(full);
    expect(statSync(settingsFile()).mode & 0o777).toBe(0o600);
    writeLoginSettings({ user: "bob@example.com" });
    expect(readLoginSettings()).toEqual({ user: "bob@example.com" });
    expect(readdirSync(home())).toEqual(["settings.json"]);
  });

  it.each<[string, LoginSettings, string]>([
    [
      "a backend that is no URL, by its flag",
      { backendUrl: "tenants-state" },
      "login refused: --backend: must be a URL such as file:///path, s3://bucket or https://api.pulumi.com",
    ],
    [
      "a project name with a space, by its flag",
      { project: "my tenants" },
      "login refused: --project: must be a Pulumi project name",
    ],
    [
      "a project name that is a path (..), by its flag",
      { project: ".." },
      "login refused: --project: must be a Pulumi project name",
    ],
    [
      "a project name with a slash, by its flag",
      { project: "a/b" },
      "login refused: --project: must be a Pulumi project name",
    ],
    [
      "an unknown field",
      { ...full, colour: "blue" } as LoginSettings,
      'login refused: (top): unknown field(s) "colour"',
    ],
  ])("refuse %s with exit code 2, writing nothing", (_, settings, message) => {
    const error = refusal(() => writeLoginSettings(settings));
    expect(error.code).toBe(EXIT.invalid);
    expect(error.message.startsWith(message)).toBe(true);
    expect(existsSync(settingsFile())).toBe(false);
  });

  it("keep the recorded login when a new one is refused", () => {
    writeLoginSettings(full);
    const before = readFileSync(settingsFile(), "utf8");
    refusal(() => writeLoginSettings({ ...full, backendUrl: "nope" }));
    expect(readFileSync(settingsFile(), "utf8")).toBe(before);
  });

  it("refuse a recorded file that is not a login, pointing at --reset", () => {
    writeFileSync(settingsFile(), JSON.stringify({ backendUrl: 7 }));
    const error = refusal(() => readLoginSettings());
    expect(error.code).toBe(EXIT.invalid);
    expect(error.message).toContain(`${settingsFile()} is not a valid login: backendUrl:`);
    expect(error.message).toContain("kubespaces login --reset");
  });

  it("name the project kubespaces-self-service and the user as given, by default and when set", () => {
    expect(projectOf({})).toBe("kubespaces-self-service");
    expect(projectOf({ project: "prod" })).toBe("prod");
    expect(currentUser({ user: "carol@example.com" })).toBe("carol@example.com");
  });
});

describe("parsePlatformPolicy", () => {
  it.each<[string, unknown, unknown]>([
    ["a policy", full.platform, full.platform],
    ["an empty policy file (null)", null, {}],
    ["no policy (undefined)", undefined, {}],
  ])("takes %s", (_, value, policy) => {
    expect(parsePlatformPolicy("policy.yaml", value)).toEqual(policy);
  });

  it.each<[string, unknown, string]>([
    [
      "an unknown field",
      { namespacePrefix: "teams-", tenantColour: "blue" },
      'policy.yaml is not a valid platform policy: (top): unknown field(s) "tenantColour"',
    ],
    [
      "a bad value, naming the field",
      { quota: { ceilings: { cpu: "lots" } } },
      "policy.yaml is not a valid platform policy: quota.ceilings.cpu:",
    ],
    [
      "a policy that is no mapping",
      "namespacePrefix: teams-",
      "policy.yaml is not a valid platform policy: (top): must be an object",
    ],
    [
      "hostKubeconfig, which the login's context sets",
      { hostKubeconfig: "apiVersion: v1\nkind: Config\n" },
      "policy.yaml: hostKubeconfig does not belong in a policy file; `kubespaces login --context` names the host cluster",
    ],
  ])("refuses %s with exit code 2", (_, value, message) => {
    const error = thrownBy(() => parsePlatformPolicy("policy.yaml", value)) as ProblemError;
    expect(error).toBeInstanceOf(ProblemError);
    expect(exitCodeOfProblem(error.kind)).toBe(EXIT.invalid);
    expect(error.message.startsWith(message)).toBe(true);
  });

  it("gives a policy the login records", () => {
    writeLoginSettings({ platform: parsePlatformPolicy("empty.yaml", null) as Record<string, unknown> });
    expect(readLoginSettings()).toEqual({ platform: {} });
  });
});
