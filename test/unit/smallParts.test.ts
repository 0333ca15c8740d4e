/** The small pure helpers: quantities, the overrides guard, kubeconfig rewriting, names, progress lines, field paths. */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { isFiniteQuantity, isQuantity, quantityValue } from "../../provider/model/quantity";
import { leafPaths, unsafeOverridePaths } from "../../provider/model/overridesGuard";
import { tenantKubeconfig } from "../../provider/lifecycle/readiness/tenantKubeconfig";
import { vclusterMarker } from "../../provider/lifecycle/cleanup/vclusterMarker";
import { missingKindsMessage, requiredKinds } from "../../provider/lifecycle/crdPreflight";
import { objectSlots } from "../../provider/render/renderTenant";
import { progressLine, progressMessage } from "../../provider/contracts/progressLine";
import { readableFieldPaths } from "../../provider/util/zodFields";
import { thrownBy } from "./support/thrown";

describe("quantities", () => {
  it.each(["1", "500m", "1.5Gi", "2e3", "+1k", ".5", "100Mi", "1E"])("accepts %s", (q) =>
    expect(isQuantity(q)).toBe(true),
  );
  it.each(["", "1 Gi", "16GB", "Gi", "one", "1.2.3", "1mi"])("rejects %j", (q) => expect(isQuantity(q)).toBe(false));
  it("compares across suffixes", () => {
    expect(quantityValue("500m")).toBe(0.5);
    expect(quantityValue("1Gi")).toBe(1024 ** 3);
    expect(quantityValue("2e3")).toBe(2000);
    expect(quantityValue("1G")).toBeLessThan(quantityValue("1Gi"));
  });
  // The grammar bounds neither the digits nor the exponent; a number holds neither beyond ~1.8e308.
  it.each([
    ["an exponent of 999", "1e999"],
    ["400 digits", "9".repeat(400)],
    ["300 digits and a binary suffix", `${"9".repeat(300)}Ei`],
  ])("knows a quantity with %s has no finite value", (_, q) => {
    expect(isQuantity(q)).toBe(true);
    expect(isFiniteQuantity(q)).toBe(false);
  });
  it.each([
    ["0e999", 0],
    ["1e-3", 0.001],
    ["1.5e3", 1500],
    ["1e308", 1e308],
  ])("reads %s as one number (%d)", (q, value) => {
    expect(quantityValue(q)).toBe(value);
    expect(isFiniteQuantity(q)).toBe(true);
  });
});

describe("overrides guard", () => {
  it("lists leaf paths; lists and empty maps are leaves", () => {
    expect(leafPaths({ a: { b: [1], c: { d: 1 } }, e: {} })).toEqual(["a.b", "a.c.d", "e"]);
  });
  it("allows a path below an allowlisted one and refuses a sibling", () => {
    expect(unsafeOverridePaths({ x: { y: { z: 1 } }, x2: 1 }, ["x.y"])).toEqual(["x2"]);
    expect(unsafeOverridePaths({ xy: 1 }, ["x"])).toEqual(["xy"]);
  });
});

describe("tenantKubeconfig", () => {
  const written = `apiVersion: v1
kind: Config
clusters:
- name: my-vcluster
  cluster: {server: "https://localhost:8443", certificate-authority-data: Q0E=}
users:
- name: my-vcluster
  user: {client-certificate-data: Q0VSVA==, client-key-data: S0VZ}
contexts:
- name: my-vcluster
  context: {cluster: my-vcluster, user: my-vcluster}
current-context: my-vcluster
`;

  it("points at the given server and names everything after the tenant", () => {
    const doc = parse(tenantKubeconfig(written, "team-atlas", "https://team-atlas.api.example.com:443"));
    expect(doc.clusters).toEqual([
      {
        name: "team-atlas",
        cluster: { server: "https://team-atlas.api.example.com:443", "certificate-authority-data": "Q0E=" },
      },
    ]);
    expect(doc.users).toEqual([
      { name: "team-atlas", user: { "client-certificate-data": "Q0VSVA==", "client-key-data": "S0VZ" } },
    ]);
    expect(doc.contexts).toEqual([{ name: "team-atlas", context: { cluster: "team-atlas", user: "team-atlas" } }]);
    expect(doc["current-context"]).toBe("team-atlas");
  });

  it("refuses a kubeconfig without a usable context", () => {
    expect(() => tenantKubeconfig("apiVersion: v1\nkind: Config\n", "t", "https://x")).toThrow("no current context");
  });
});

describe("vclusterMarker", () => {
  it("joins namespace, x and release", () => expect(vclusterMarker("ns", "rel")).toBe("ns-x-rel"));
  it("shortens long values to 63 characters with a hash", () => {
    const marker = vclusterMarker("kubespaces-tenant-" + "a".repeat(40), "a".repeat(40));
    expect(marker).toHaveLength(63);
    expect(marker).toMatch(/^kubespaces-tenant-a+-[0-9a-f]{10}$/);
  });
});

describe("CRD preflight", () => {
  it("needs the TLSRoute version the tenant renders", () => {
    const kinds = requiredKinds(
      objectSlots({ tlsRouteVersion: "v1alpha2", networkPolicy: true }).filter((slot) => slot.fromCrd),
    );
    expect(kinds.map((k) => `${k.apiVersion}/${k.kind} ${k.crd}`).sort()).toEqual([
      "cert-manager.io/v1/Certificate certificates.cert-manager.io",
      "gateway.networking.k8s.io/v1/ListenerSet listenersets.gateway.networking.k8s.io",
      "gateway.networking.k8s.io/v1/ReferenceGrant referencegrants.gateway.networking.k8s.io",
      "gateway.networking.k8s.io/v1alpha2/TLSRoute tlsroutes.gateway.networking.k8s.io",
    ]);
  });
  it("names each absent kind and its CRD", () => {
    const listenerAndCertificate = objectSlots({ tlsRouteVersion: "v1", networkPolicy: true }).filter((slot) =>
      ["ListenerSet", "Certificate"].includes(slot.kind),
    );
    const message = missingKindsMessage("team-atlas", requiredKinds(listenerAndCertificate));
    expect(message).toContain("ListenerSet gateway.networking.k8s.io/v1 (CRD listenersets.gateway.networking.k8s.io)");
    expect(message).toContain("Certificate cert-manager.io/v1 (CRD certificates.cert-manager.io)");
  });
});

describe("secret text in errors", () => {
  it("does not quote the kubeconfig the vCluster wrote when it is malformed", () => {
    const error = thrownBy(() =>
      tenantKubeconfig("users:\n- user: {client-key-data: S0VZLXNlY3JldA==\n", "team-atlas", "https://x:443"),
    );
    expect(error.message).toContain("the kubeconfig the vCluster wrote is not valid YAML");
    expect(error.message).not.toContain("S0VZLXNlY3JldA==");
  });
});

describe("progress lines", () => {
  it("reads back the message it wrote, colons and line breaks included", () => {
    const message = "waiting for the API server: 3/10\nstill waiting";
    expect(progressLine("team-atlas", message)).toBe(`kubespaces: tenant team-atlas: ${message}`);
    expect(progressMessage(progressLine("team-atlas", message))).toBe(message);
  });
  it.each([
    "kubespaces: tenant : no name",
    "kubespaces: tenant team:no space",
    "tenant team: not ours",
    "kubespaces: other",
  ])("reads no message from %j", (text) => expect(progressMessage(text)).toBeUndefined());
});

describe("readableFieldPaths", () => {
  it("names an object of one field by the path to that field, through defaults and optionals", () => {
    const schema = z.strictObject({
      owner: z.string(),
      isolation: z.strictObject({ podSecurity: z.string().optional() }).prefault({}),
      nested: z.strictObject({ only: z.strictObject({ leaf: z.number() }).optional() }).default({}),
      resources: z.strictObject({ cpu: z.string(), memory: z.string() }),
    });
    expect(readableFieldPaths(schema)).toEqual(["owner", "isolation.podSecurity", "nested.only.leaf", "resources"]);
  });
});
