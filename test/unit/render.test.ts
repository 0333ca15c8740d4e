/** Rendering is pure: exact objects for representative tenants. */
import { describe, expect, it } from "vitest";
import { renderTenant, validateTenant, type ObjectRole, type RenderedTenant } from "../../provider/index";
import { structureOfSpec } from "../../provider/model/tenantStructure";
import { objectSlots } from "../../provider/render/renderTenant";
import { OWNER_ANNOTATION, OWNER_LABEL, ownerLabelValue } from "../../provider/model/names";
import { VCLUSTER_CHART_VERSION } from "../../provider/model/vclusterChart";
import { uncappedObjectKinds } from "../expected/multiTenancyObjectLimits";
import { PLATFORM_DEFAULT_QUOTA } from "../expected/platformDefaultQuota";

/** The rendered object of `role`; fails the test when there is none. */
function objectOf(rendered: RenderedTenant, role: ObjectRole) {
  const found = rendered.objects.find((object) => object.role === role);
  if (!found) throw new Error(`no ${role} was rendered`);
  return found.manifest;
}

const labels = { "kubespaces.io/tenant": "team-atlas", "app.kubernetes.io/managed-by": "kubespaces-pulumi" };

// The tenant's namespace and the platform's gateway namespace (the defaults), and the Gateway API version.
const TENANT_NAMESPACE = "kubespaces-tenant-team-atlas";
const GATEWAY_NAMESPACE = "kubespaces-gateway";
const GATEWAY_API_V1 = "gateway.networking.k8s.io/v1";

/** How a rendered object starts: its type, and its name in `namespace`, labelled for the tenant. */
const typeAndMetadata = (apiVersion: string, kind: string, namespace: string, name: string) => ({
  apiVersion,
  kind,
  metadata: { name, namespace, labels },
});

const minimal = () => renderTenant(validateTenant("team-atlas", { owner: "alice@example.com" }));
const exposed = () =>
  renderTenant(
    validateTenant("team-atlas", {
      owner: "alice@example.com",
      resources: { cpu: "8", memory: "16Gi", storage: "50Gi", pods: 40 },
      platform: { exposure: { baseDomain: "kubespaces.example.com", issuerRef: { name: "letsencrypt" } } },
    }),
  );

describe("renderTenant for a minimal tenant", () => {
  it("renders the labelled, annotated namespace with pod security restricted, the platform's default", () => {
    expect(objectOf(minimal(), "namespace")).toEqual({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: TENANT_NAMESPACE,
        labels: {
          ...labels,
          "kubespaces.io/owner": "alice_at_example.com",
          "pod-security.kubernetes.io/enforce": "restricted",
          "pod-security.kubernetes.io/warn": "restricted",
          "pod-security.kubernetes.io/audit": "restricted",
        },
        annotations: { "kubespaces.io/owner": "alice@example.com" },
      },
    });
  });

  it("turns cpu, memory and ephemeral storage into requests and limits, storage into requests, counts objects and allows no node ports", () => {
    expect(objectOf(minimal(), "quota")).toEqual({
      ...typeAndMetadata("v1", "ResourceQuota", TENANT_NAMESPACE, "kubespaces-quota"),
      spec: {
        hard: {
          "requests.cpu": "4",
          "limits.cpu": "4",
          "requests.memory": "8Gi",
          "limits.memory": "8Gi",
          "requests.storage": "20Gi",
          ...PLATFORM_DEFAULT_QUOTA,
        },
      },
    });
  });

  it("counts every object kind the multi-tenancy benchmarks' namespace object limits (MTB-PL1-CC-FNS-2) look for", () => {
    const hard = objectOf(minimal(), "quota").spec?.hard as Record<string, string>;
    expect(uncappedObjectKinds(hard)).toEqual([]);
  });

  it("gives containers the default limits and requests, ephemeral storage too (the quota refuses a pod without them)", () => {
    expect(objectOf(minimal(), "limit-range").spec).toEqual({
      limits: [
        {
          type: "Container",
          default: { cpu: "1", memory: "1Gi", "ephemeral-storage": "2Gi" },
          defaultRequest: { cpu: "100m", memory: "128Mi", "ephemeral-storage": "256Mi" },
        },
      ],
    });
  });

  it("fences the namespace both ways (the rules' meaning is tested in networkPolicy.test.ts)", () => {
    const policy = objectOf(minimal(), "network-policy");
    expect(policy).toMatchObject({
      ...typeAndMetadata("networking.k8s.io/v1", "NetworkPolicy", TENANT_NAMESPACE, "kubespaces-isolation"),
      spec: { podSelector: {}, policyTypes: ["Ingress", "Egress"] },
    });
  });

  it("has no Gateway objects and points the kubeconfig at the in-cluster Service", () => {
    const rendered = minimal();
    expect(rendered.objects.map((o) => o.role)).toEqual([
      "namespace",
      "quota",
      "limit-range",
      "network-policy",
      "control-plane-network-policy",
    ]);
    expect(rendered.helmRelease).toMatchObject({
      name: "team-atlas",
      namespace: TENANT_NAMESPACE,
      chart: "vcluster",
      repository: "https://charts.loft.sh",
      version: VCLUSTER_CHART_VERSION,
      timeoutSeconds: 900,
      maxHistory: 3,
    });
    expect(rendered.helmRelease.values).toMatchObject({
      exportKubeConfig: { server: "https://team-atlas.kubespaces-tenant-team-atlas.svc:443", context: "team-atlas" },
    });
  });

  it("leaves the NetworkPolicy out when isolation is off", () => {
    const rendered = renderTenant(validateTenant("team-atlas", { owner: "a", platform: { networkPolicy: false } }));
    expect(rendered.objects.map((o) => o.role)).not.toContain("network-policy");
    expect(rendered.objects.map((o) => o.role)).not.toContain("control-plane-network-policy");
  });

  it("uses the platform's namespace prefix and baseline, a level the platform still allows, when asked", () => {
    const rendered = renderTenant(
      validateTenant("team-atlas", {
        owner: "a",
        isolation: { podSecurity: "baseline" },
        platform: { namespacePrefix: "atlas-" },
      }),
    );
    expect(objectOf(rendered, "namespace").metadata.name).toBe("atlas-team-atlas");
    expect(objectOf(rendered, "namespace").metadata.labels["pod-security.kubernetes.io/enforce"]).toBe("baseline");
    expect(objectOf(rendered, "quota").metadata.namespace).toBe("atlas-team-atlas");
  });
});

describe("renderTenant with platform.namespaceAccess", () => {
  const withAccess = (subject: Record<string, string>) =>
    renderTenant(
      validateTenant("team-atlas", {
        owner: "a",
        platform: { namespaceAccess: { clusterRole: "kubespaces-server-tenant", subject } },
      }),
    );

  it("binds the ClusterRole in the tenant namespace alone, right after the namespace", () => {
    const rendered = withAccess({ kind: "ServiceAccount", name: "kubespaces-server", namespace: "kubespaces-system" });
    expect(rendered.objects.map((o) => o.role).slice(0, 2)).toEqual(["namespace", "namespace-access"]);
    expect(objectOf(rendered, "namespace-access")).toEqual({
      ...typeAndMetadata(
        "rbac.authorization.k8s.io/v1",
        "RoleBinding",
        TENANT_NAMESPACE,
        "kubespaces-namespace-access",
      ),
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "kubespaces-server-tenant" },
      subjects: [{ kind: "ServiceAccount", name: "kubespaces-server", namespace: "kubespaces-system" }],
    });
  });

  it("binds a user with the RBAC API group, and has no binding when the platform asks for none", () => {
    expect(objectOf(withAccess({ kind: "User", name: "kubespaces" }), "namespace-access").subjects).toEqual([
      { kind: "User", name: "kubespaces", apiGroup: "rbac.authorization.k8s.io" },
    ]);
    expect(minimal().objects.map((o) => o.role)).not.toContain("namespace-access");
  });

  it("refuses a ServiceAccount without its namespace, and a user with one, naming the field", () => {
    const access = (subject: Record<string, string>) => () =>
      validateTenant("team-atlas", { owner: "a", platform: { namespaceAccess: { clusterRole: "r", subject } } });
    expect(access({ kind: "ServiceAccount", name: "s" })).toThrow(
      /platform\.namespaceAccess\.subject\.namespace: namespace is required for a ServiceAccount and only for one/,
    );
    expect(access({ kind: "User", name: "u", namespace: "n" })).toThrow(/namespaceAccess\.subject\.namespace/);
  });
});

describe("renderTenant for an exposed tenant", () => {
  it("adds object counts to the quota", () => {
    expect(objectOf(exposed(), "quota").spec?.hard).toEqual({
      "requests.cpu": "8",
      "limits.cpu": "8",
      "requests.memory": "16Gi",
      "limits.memory": "16Gi",
      "requests.storage": "50Gi",
      ...PLATFORM_DEFAULT_QUOTA,
      pods: "40",
    });
  });

  it("routes the API hostname through the passthrough listener to the vCluster Service", () => {
    expect(objectOf(exposed(), "api-route")).toEqual({
      ...typeAndMetadata(GATEWAY_API_V1, "TLSRoute", GATEWAY_NAMESPACE, "kubespaces-team-atlas-api"),
      spec: {
        parentRefs: [
          {
            group: "gateway.networking.k8s.io",
            kind: "Gateway",
            name: "shared",
            namespace: GATEWAY_NAMESPACE,
            sectionName: "tls-passthrough",
          },
        ],
        hostnames: ["team-atlas.api.kubespaces.example.com"],
        rules: [
          {
            backendRefs: [{ group: "", kind: "Service", name: "team-atlas", namespace: TENANT_NAMESPACE, port: 443 }],
          },
        ],
      },
    });
  });

  it("grants TLSRoutes from the gateway namespace exactly the vCluster Service", () => {
    expect(objectOf(exposed(), "api-reference-grant")).toEqual({
      ...typeAndMetadata(GATEWAY_API_V1, "ReferenceGrant", TENANT_NAMESPACE, "kubespaces-team-atlas-api"),
      spec: {
        from: [{ group: "gateway.networking.k8s.io", kind: "TLSRoute", namespace: GATEWAY_NAMESPACE }],
        to: [{ group: "", kind: "Service", name: "team-atlas" }],
      },
    });
  });

  it("adds an apps listener for the tenant's wildcard, admitting only the tenant's routes", () => {
    expect(objectOf(exposed(), "apps-listener-set")).toEqual({
      ...typeAndMetadata(GATEWAY_API_V1, "ListenerSet", GATEWAY_NAMESPACE, "kubespaces-team-atlas-apps"),
      spec: {
        parentRef: {
          group: "gateway.networking.k8s.io",
          kind: "Gateway",
          name: "shared",
          namespace: GATEWAY_NAMESPACE,
        },
        listeners: [
          {
            name: "apps",
            hostname: "*.team-atlas.apps.kubespaces.example.com",
            protocol: "HTTPS",
            port: 443,
            tls: {
              mode: "Terminate",
              certificateRefs: [{ group: "", kind: "Secret", name: "kubespaces-team-atlas-apps-tls" }],
            },
            allowedRoutes: {
              namespaces: { from: "Selector", selector: { matchLabels: { "kubespaces.io/tenant": "team-atlas" } } },
            },
          },
        ],
      },
    });
  });

  it("requests a certificate whose Secret carries the tenant label", () => {
    expect(objectOf(exposed(), "apps-certificate")).toEqual({
      ...typeAndMetadata("cert-manager.io/v1", "Certificate", GATEWAY_NAMESPACE, "kubespaces-team-atlas-apps"),
      spec: {
        secretName: "kubespaces-team-atlas-apps-tls",
        secretTemplate: { labels },
        dnsNames: ["*.team-atlas.apps.kubespaces.example.com"],
        issuerRef: { name: "letsencrypt", kind: "ClusterIssuer", group: "cert-manager.io" },
      },
    });
  });

  it("admits ingress from the gateway namespace", () => {
    const peers = (objectOf(exposed(), "network-policy").spec as any).ingress[0].from;
    expect(peers).toContainEqual({
      namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": GATEWAY_NAMESPACE } },
    });
  });

  it("selects the v1alpha2 TLSRoute for Gateway API 1.4 and older", () => {
    const spec = validateTenant("team-atlas", {
      owner: "a",
      platform: { exposure: { baseDomain: "example.com", issuerRef: { name: "le" }, tlsRouteVersion: "v1alpha2" } },
    });
    expect(objectOf(renderTenant(spec), "api-route").apiVersion).toBe("gateway.networking.k8s.io/v1alpha2");
  });
});

describe("renderTenant derives every value the component registers", () => {
  it.each([
    ["minimal", { owner: "a" }],
    ["without isolation", { owner: "a", platform: { networkPolicy: false } }],
    [
      "exposed, v1alpha2 route",
      {
        owner: "a",
        platform: { exposure: { baseDomain: "example.com", issuerRef: { name: "le" }, tlsRouteVersion: "v1alpha2" } },
      },
    ],
  ])("renders exactly the slots of its structure, kinds included (%s)", (_case, args) => {
    const spec = validateTenant("team-atlas", args);
    const rendered = renderTenant(spec).objects.map(({ role, manifest }) => ({
      role,
      apiVersion: manifest.apiVersion,
      kind: manifest.kind,
    }));
    const slots = objectSlots(structureOfSpec(spec)).map(({ role, apiVersion, kind }) => ({ role, apiVersion, kind }));
    expect(rendered).toEqual(slots);
  });

  it("marks the Gateway API and cert-manager kinds as coming from CRDs, and only those", () => {
    const spec = validateTenant("team-atlas", {
      owner: "a",
      platform: { exposure: { baseDomain: "example.com", issuerRef: { name: "le" } } },
    });
    const fromCrd = objectSlots(structureOfSpec(spec)).filter((slot) => slot.fromCrd);
    expect(fromCrd.map((slot) => slot.kind).sort()).toEqual([
      "Certificate",
      "ListenerSet",
      "ReferenceGrant",
      "TLSRoute",
    ]);
  });

  it("renders the host check, readiness and cleanup arguments and the outputs of an exposed tenant", () => {
    const rendered = exposed();
    expect(rendered.hostCheck).toEqual({
      tenantName: "team-atlas",
      namespace: TENANT_NAMESPACE,
      allowNamespaceMove: false,
    });
    expect(rendered.readiness).toEqual({
      tenantName: "team-atlas",
      namespace: TENANT_NAMESPACE,
      releaseName: "team-atlas",
      serverUrl: "https://team-atlas.api.kubespaces.example.com:443",
      timeoutSeconds: 600,
    });
    expect(rendered.cleanup).toEqual({
      tenantName: "team-atlas",
      namespace: TENANT_NAMESPACE,
      releaseName: "team-atlas",
      certificateSecret: { namespace: GATEWAY_NAMESPACE, name: "kubespaces-team-atlas-apps-tls" },
    });
    expect(rendered.outputs).toEqual({
      namespace: TENANT_NAMESPACE,
      apiServerUrl: "https://team-atlas.api.kubespaces.example.com:443",
      appsDomain: "team-atlas.apps.kubespaces.example.com",
      kubeconfigSecretRef: { namespace: TENANT_NAMESPACE, name: "vc-team-atlas", key: "config" },
    });
  });

  it("has no certificate Secret to clean up and no apps domain when not exposed", () => {
    const rendered = minimal();
    expect(rendered.cleanup.certificateSecret).toBeUndefined();
    expect(rendered.outputs.appsDomain).toBeUndefined();
    expect(rendered.readiness.serverUrl).toBe("https://team-atlas.kubespaces-tenant-team-atlas.svc:443");
  });
});

describe("the namespace's owner label, for cost tools that allocate by label", () => {
  it.each([
    ["alice@example.com", "alice_at_example.com"],
    ["oidc:bob", "oidc_bob"],
    ["_team+ci@example.com_", "team_ci_at_example.com"],
    [`${"a".repeat(70)}@example.com`, "a".repeat(63)],
    [`${"a".repeat(59)}@x`, `${"a".repeat(59)}_at`],
  ])("writes %s as %s, a valid label value", (owner, label) => {
    expect(ownerLabelValue(owner)).toBe(label);
    expect(label).toMatch(/^([A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)?$/);
  });

  it("labels the namespace with it, and keeps the owner exactly in the annotation", () => {
    const namespace = objectOf(renderTenant(validateTenant("team-atlas", { owner: "oidc:bob" })), "namespace") as {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
    };
    expect(namespace.metadata.labels[OWNER_LABEL]).toBe("oidc_bob");
    expect(namespace.metadata.annotations[OWNER_ANNOTATION]).toBe("oidc:bob");
  });
});
