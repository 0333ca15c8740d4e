/** `tenant delete` removing what `tenant kubeconfig --merge` added, and nothing else. */
import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  mergeIntoFile,
  removeMergedTenant,
  retargeted,
  type KubeconfigDocument,
} from "../../provider/kubeconfig/kubeconfigMerge";
import { tenantKubeconfig, userText } from "./support/kubeconfigFixtures";
import { temporaryFolderEach } from "./support/temporaryFolder";

/** The user's file with entries of their own named like the tenant (atlas): never kubespaces' to remove. */
const userTextWithAtlas = userText
  .replace(
    "  name: prod\ncontexts:\n",
    "  name: prod\n- cluster:\n    server: https://atlas.mine.example.com\n  name: atlas\ncontexts:\n",
  )
  .replace(
    "  name: prod\ncurrent-context:",
    "  name: prod\n- context:\n    cluster: atlas\n    user: prod\n  name: atlas\ncurrent-context:",
  );

const dir = temporaryFolderEach("kubespaces-kubeconfig-");
let file: string;
beforeEach(() => {
  file = path.join(dir(), "config");
});

const read = () => readFileSync(file, "utf8");

describe("removeMergedTenant", () => {
  it("removes only the entries kubespaces marked for the tenant, every other byte as it was", () => {
    writeFileSync(file, userTextWithAtlas);
    mergeIntoFile(file, retargeted(tenantKubeconfig, { contextName: "beta", tenant: "beta" }));
    const withBeta = read();
    mergeIntoFile(
      file,
      retargeted(tenantKubeconfig, { contextName: "team-atlas", tenant: "atlas", hostNamespace: "ns-atlas" }),
    );
    expect(read()).not.toBe(withBeta);

    const removed = removeMergedTenant(file, "atlas");
    expect(removed).toEqual({
      file,
      contexts: ["team-atlas"],
      clusters: ["kubespaces_atlas_ns-atlas"],
      users: ["kubespaces_atlas_ns-atlas"],
      currentContextCleared: false,
      backup: `${file}.kubespaces-backup`,
    });
    expect(read()).toBe(withBeta);
  });

  it("leaves a file that only kubespaces' merge changed as it was before the merge", () => {
    writeFileSync(file, userText);
    mergeIntoFile(file, retargeted(tenantKubeconfig, { contextName: "atlas" }));
    removeMergedTenant(file, "atlas");
    expect(read()).toBe(userText);
  });

  it("never removes an entry it did not write, even one named like the tenant", () => {
    writeFileSync(file, userTextWithAtlas);
    expect(removeMergedTenant(file, "atlas")).toEqual({
      file,
      contexts: [],
      clusters: [],
      users: [],
      currentContextCleared: false,
    });
    expect(read()).toBe(userTextWithAtlas);
    expect(readdirSync(dir())).toEqual(["config"]); // nothing written, no backup
  });

  it("clears the current context when it was the tenant's", () => {
    writeFileSync(file, userText.replace("current-context: prod\n", ""));
    mergeIntoFile(file, retargeted(tenantKubeconfig, { contextName: "atlas" }));
    expect((parse(read()) as KubeconfigDocument)["current-context"]).toBe("atlas");
    expect(removeMergedTenant(file, "atlas").currentContextCleared).toBe(true);
    const after = parse(read()) as KubeconfigDocument;
    expect(after["current-context"]).toBe("");
    expect(after.contexts?.map((c) => c.name)).toEqual(["prod"]);
  });

  it("with a host namespace, removes only the entries recorded for it", () => {
    writeFileSync(file, userText);
    mergeIntoFile(file, retargeted(tenantKubeconfig, { contextName: "atlas", hostNamespace: "ns-a" }));
    const merged = read();
    expect(removeMergedTenant(file, "atlas", { hostNamespace: "ns-b" }).contexts).toEqual([]);
    expect(read()).toBe(merged);
    expect(removeMergedTenant(file, "atlas", { hostNamespace: "ns-a" }).contexts).toEqual(["atlas"]);
    expect(read()).toBe(userText);
  });

  it("leaves an emptied list as an empty list", () => {
    writeFileSync(file, "apiVersion: v1\nkind: Config\ncurrent-context: prod\n");
    mergeIntoFile(file, retargeted(tenantKubeconfig, { contextName: "atlas" }));
    removeMergedTenant(file, "atlas");
    expect(parse(read())).toEqual({
      apiVersion: "v1",
      kind: "Config",
      "current-context": "prod",
      clusters: [],
      users: [],
      contexts: [],
    });
  });

  it("finds its entries after kubectl rewrote the file (keys sorted, lists not indented)", () => {
    const marker = "    extensions:\n    - extension:\n        tenant: atlas\n      name: kubespaces.io/tenant\n";
    const rewritten = userText
      .replace(
        "  name: prod\ncontexts:\n",
        `  name: prod\n- cluster:\n${marker}    server: https://atlas:443\n  name: kubespaces_atlas\ncontexts:\n`,
      )
      .replace(
        "  name: prod\ncurrent-context:",
        `  name: prod\n- context:\n    cluster: kubespaces_atlas\n${marker}    user: kubespaces_atlas\n  name: atlas\ncurrent-context:`,
      );
    writeFileSync(file, rewritten);
    expect(removeMergedTenant(file, "atlas")).toMatchObject({
      contexts: ["atlas"],
      clusters: ["kubespaces_atlas"],
      users: [],
    });
    expect(read()).toBe(userText);
  });

  it("creates nothing when there is no kubeconfig", () => {
    const missing = path.join(dir(), "kube", "config");
    expect(removeMergedTenant(missing, "atlas")).toEqual({
      file: missing,
      contexts: [],
      clusters: [],
      users: [],
      currentContextCleared: false,
    });
    expect(existsSync(path.dirname(missing))).toBe(false);
  });

  it("writes like the merge: mode 0600, and a link planted at the backup's name is replaced, not followed", () => {
    writeFileSync(file, userText);
    mergeIntoFile(file, retargeted(tenantKubeconfig, { contextName: "atlas" }));
    const merged = read();
    const victim = path.join(dir(), "theirs");
    writeFileSync(victim, "theirs\n");
    chmodSync(victim, 0o666);
    // The merge's backup, swapped by another user for a link to a file of theirs.
    const backup = `${file}.kubespaces-backup`;
    rmSync(backup);
    symlinkSync(victim, backup);
    removeMergedTenant(file, "atlas");
    expect(readFileSync(victim, "utf8")).toBe("theirs\n");
    expect(statSync(victim).mode & 0o777).toBe(0o666);
    expect(lstatSync(backup).isSymbolicLink()).toBe(false);
    expect(readFileSync(backup, "utf8")).toBe(merged);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
