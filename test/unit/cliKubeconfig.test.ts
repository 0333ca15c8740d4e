/** A tenant's kubeconfig for `kubespaces tenant kubeconfig`: renamed, retargeted, and merged into the user's file. */
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { CliError } from "../../provider/cli/exitCodes";
import { mergedKubeconfig, mergeIntoFile, retargeted, type KubeconfigDocument } from "../../provider/cli/kubeconfigMerge";
import { thrownBy } from "./support/thrown";

const TOKEN = "fake-token-5c1f0e9d7b";

/** A tenant's kubeconfig as the state records it: one context, its own names. */
const tenantKubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: vcluster_atlas
  cluster: {server: "https://atlas.api.example.com:443", certificate-authority-data: Q0E=}
users:
- name: vcluster_atlas_admin
  user: {client-certificate-data: Q0VSVA==, client-key-data: S0VZ}
contexts:
- name: vcluster_atlas
  context: {cluster: vcluster_atlas, user: vcluster_atlas_admin, namespace: default}
current-context: vcluster_atlas
`;

/** The user's own kubeconfig: another cluster, and an older entry of the tenant's context. */
const userKubeconfig: KubeconfigDocument = {
  apiVersion: "v1",
  kind: "Config",
  clusters: [
    { name: "prod", cluster: { server: "https://prod.example.com" } },
    { name: "atlas", cluster: { server: "https://old.example.com" } },
  ],
  users: [
    { name: "prod", user: { token: TOKEN } },
    { name: "atlas", user: { token: "old" } },
  ],
  contexts: [
    { name: "prod", context: { cluster: "prod", user: "prod" } },
    { name: "atlas", context: { cluster: "atlas", user: "atlas" } },
  ],
  "current-context": "prod",
  preferences: { colors: true },
};

describe("retargeted", () => {
  it("renames the context, its cluster and its user, keeping the credentials and the namespace", () => {
    expect(retargeted(tenantKubeconfig, { contextName: "atlas" })).toEqual({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "atlas", cluster: { server: "https://atlas.api.example.com:443", "certificate-authority-data": "Q0E=" } }],
      users: [{ name: "atlas", user: { "client-certificate-data": "Q0VSVA==", "client-key-data": "S0VZ" } }],
      contexts: [{ name: "atlas", context: { cluster: "atlas", user: "atlas", namespace: "default" } }],
      "current-context": "atlas",
    });
  });

  it("with a server, points there and still checks TLS against the original host name", () => {
    const doc = retargeted(tenantKubeconfig, { contextName: "atlas", server: "https://127.0.0.1:31443" });
    expect(doc.clusters).toEqual([
      { name: "atlas", cluster: { server: "https://127.0.0.1:31443", "tls-server-name": "atlas.api.example.com", "certificate-authority-data": "Q0E=" } },
    ]);
  });

  it("takes the current context when there are several", () => {
    const two = parse(tenantKubeconfig) as KubeconfigDocument;
    two.clusters!.push({ name: "other", cluster: { server: "https://other.example.com" } });
    two.users!.push({ name: "other", user: { token: "other" } });
    two.contexts!.unshift({ name: "other", context: { cluster: "other", user: "other" } });
    const doc = retargeted(stringify(two), { contextName: "atlas" });
    expect(doc.clusters?.[0].cluster).toEqual(expect.objectContaining({ server: "https://atlas.api.example.com:443" }));
  });

  it.each([
    ["no context", "apiVersion: v1\nkind: Config\n"],
    ["a context whose user is missing", tenantKubeconfig.replace("name: vcluster_atlas_admin", "name: someone-else")],
    ["a context whose cluster is missing", tenantKubeconfig.replace("- name: vcluster_atlas\n  cluster", "- name: elsewhere\n  cluster")],
  ])("refuses a kubeconfig with %s", (_, text) => {
    const error = thrownBy(() => retargeted(text, { contextName: "atlas" }));
    expect(error).toBeInstanceOf(CliError);
    expect(error.message).toBe("the tenant's kubeconfig has no complete context (cluster, user)");
  });
});

describe("mergedKubeconfig", () => {
  const addition = retargeted(tenantKubeconfig, { contextName: "atlas" });

  it("keeps the other entries and fields, and replaces the entries of the same names", () => {
    const merged = mergedKubeconfig(userKubeconfig, addition);
    expect(merged.clusters?.map((c) => c.name)).toEqual(["prod", "atlas"]);
    expect(merged.clusters?.find((c) => c.name === "atlas")?.cluster).toEqual(addition.clusters?.[0].cluster);
    expect(merged.users).toEqual([{ name: "prod", user: { token: TOKEN } }, addition.users?.[0]]);
    expect(merged.contexts).toEqual([userKubeconfig.contexts?.[0], addition.contexts?.[0]]);
    expect(merged.preferences).toEqual({ colors: true });
  });

  it.each<[string, KubeconfigDocument, string]>([
    ["keeps an existing current context", userKubeconfig, "prod"],
    ["sets it when the file has none", { ...userKubeconfig, "current-context": undefined }, "atlas"],
    ["sets it when the file's is empty", { ...userKubeconfig, "current-context": "" }, "atlas"],
    ["sets it in an empty file", {}, "atlas"],
  ])("%s", (_, target, current) => {
    expect(mergedKubeconfig(target, addition)["current-context"]).toBe(current);
  });

  it("makes an empty file a whole kubeconfig", () => {
    expect(mergedKubeconfig({}, addition)).toEqual(addition);
  });
});

describe("mergeIntoFile", () => {
  let dir: string;
  let file: string;
  const addition = retargeted(tenantKubeconfig, { contextName: "atlas" });
  const modeOf = (f: string) => statSync(f).mode & 0o777;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-kubeconfig-"));
    file = path.join(dir, "config");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes a new file with mode 0600 and no backup", () => {
    expect(mergeIntoFile(file, addition)).toBeUndefined();
    expect(parse(readFileSync(file, "utf8"))).toEqual(addition);
    expect(modeOf(file)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["config"]);
  });

  it("backs the old file up (mode 0600), keeps its other contexts and replaces the tenant's", () => {
    const before = stringify(userKubeconfig);
    writeFileSync(file, before, { mode: 0o644 });
    const backup = mergeIntoFile(file, addition);
    expect(backup).toBe(`${file}.kubespaces-backup`);
    expect(readFileSync(backup!, "utf8")).toBe(before);
    expect(modeOf(backup!)).toBe(0o600);
    expect(modeOf(file)).toBe(0o600);
    const merged = parse(readFileSync(file, "utf8")) as KubeconfigDocument;
    expect(merged.contexts?.map((c) => c.name)).toEqual(["prod", "atlas"]);
    expect(merged.users?.find((u) => u.name === "prod")?.user).toEqual({ token: TOKEN });
    expect(merged.clusters?.find((c) => c.name === "atlas")?.cluster).toEqual({ server: "https://atlas.api.example.com:443", "certificate-authority-data": "Q0E=" });
    expect(merged["current-context"]).toBe("prod");
    expect(readdirSync(dir).sort()).toEqual(["config", "config.kubespaces-backup"]);
  });

  it.each([
    ["an unclosed flow map", `users:\n- name: prod\n  user: {token: ${TOKEN}\n`],
    ["a misindented key", `users:\n- name: prod\n  user:\n    token: ${TOKEN}\n   other: 1\n`],
    ["an unclosed quote", `users:\n- name: prod\n  user:\n    token: "${TOKEN}\n`],
    ["a duplicate key", `token: ${TOKEN}\ntoken: ${TOKEN}\n`],
  ])("refuses a malformed file (%s) without quoting it, and changes nothing", (_, text) => {
    writeFileSync(file, text, { mode: 0o600 });
    const error = thrownBy(() => mergeIntoFile(file, addition));
    expect(error.message).toContain(`kubeconfig ${file} is not valid YAML`);
    expect(error.message).not.toContain(TOKEN);
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(existsSync(`${file}.kubespaces-backup`)).toBe(false);
  });
});

describe("mergeIntoFile in a folder another user can write", () => {
  let dir: string;
  let file: string;
  let victim: string;
  const addition = retargeted(tenantKubeconfig, { contextName: "atlas" });
  const before = stringify(userKubeconfig);
  const modeOf = (f: string) => statSync(f).mode & 0o777;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-kubeconfig-"));
    file = path.join(dir, "config");
    victim = path.join(dir, "theirs");
    writeFileSync(file, before, { mode: 0o600 });
    writeFileSync(victim, "theirs\n");
    chmodSync(victim, 0o666);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The victim file is as it was: no credentials copied in, its mode not changed. */
  const expectVictimUntouched = () => {
    expect(readFileSync(victim, "utf8")).toBe("theirs\n");
    expect(modeOf(victim)).toBe(0o666);
  };

  it("replaces a symbolic link planted at the backup's name instead of writing through it", () => {
    symlinkSync(victim, `${file}.kubespaces-backup`);
    const backup = mergeIntoFile(file, addition)!;
    expectVictimUntouched();
    expect(lstatSync(backup).isSymbolicLink()).toBe(false);
    expect(readFileSync(backup, "utf8")).toBe(before);
    expect(modeOf(backup)).toBe(0o600);
  });

  it("writes through no symbolic link planted at the old predictable temporary name", () => {
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    mergeIntoFile(file, addition);
    expectVictimUntouched();
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(parse(readFileSync(file, "utf8")).contexts.map((c: { name: string }) => c.name)).toContain("atlas");
  });

  it("does not make a file planted at the old predictable temporary name the kubeconfig", () => {
    writeFileSync(`${file}.${process.pid}.tmp`, "planted: true\n", { mode: 0o666 });
    mergeIntoFile(file, addition);
    expect(readFileSync(file, "utf8")).not.toContain("planted");
    expect(readFileSync(`${file}.${process.pid}.tmp`, "utf8")).toBe("planted: true\n");
  });

  it("refuses a link planted at the lock's name as a lock held, following it nowhere", () => {
    symlinkSync(victim, `${file}.lock`);
    expect(thrownBy(() => mergeIntoFile(file, addition)).message).toContain("is locked by another program");
    expectVictimUntouched();
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("follows the user's own link to the kubeconfig, resolved once: the link stays, its target is merged and backed up", () => {
    const dotfiles = path.join(dir, "dotfiles");
    mkdirSync(dotfiles);
    const target = path.join(dotfiles, "kubeconfig");
    writeFileSync(target, before, { mode: 0o600 });
    rmSync(file);
    symlinkSync(target, file);
    expect(mergeIntoFile(file, addition)).toBe(`${target}.kubespaces-backup`);
    expect(readlinkSync(file)).toBe(target);
    expect(parse(readFileSync(target, "utf8")).contexts.map((c: { name: string }) => c.name)).toEqual(["prod", "atlas"]);
  });

  it("creates the target of a dangling link the user made, keeping the link", () => {
    const target = path.join(dir, "later", "kubeconfig");
    rmSync(file);
    symlinkSync(target, file);
    expect(mergeIntoFile(file, addition)).toBeUndefined();
    expect(readlinkSync(file)).toBe(target);
    expect(parse(readFileSync(target, "utf8"))).toEqual(addition);
  });
});
