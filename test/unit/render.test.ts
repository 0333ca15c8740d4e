/** Rendering is pure: exact objects for representative tenants. */
import { describe, expect, it } from "vitest";
import { renderTenant, validateTenant } from "../../provider/index";

const labels = { "kubespaces.io/tenant": "team-atlas", "app.kubernetes.io/managed-by": "kubespaces-pulumi" };
const minimal = () => renderTenant(validateTenant("team-atlas", { owner: "alice@example.com" }));
const exposed = () =>
  renderTenant(
    validateTenant("team-atlas", {
      owner: "alice@example.com",
      resources: { cpu: "8", memory: "16Gi", storage: "50Gi", pods: 40 },
      exposure: { baseDomain: "kubespaces.example.com", issuerRef: { name: "letsencrypt" } },
    }),
  );

describe("renderTenant for a minimal tenant", () => {
  it("renders the labelled, annotated namespace with pod security", () => {
    expect(minimal().namespace).toEqual({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: "kubespaces-tenant-team-atlas",
        labels: {
          ...labels,
          "pod-security.kubernetes.io/enforce": "baseline",
          "pod-security.kubernetes.io/warn": "baseline",
          "pod-security.kubernetes.io/audit": "baseline",
        },
        annotations: { "kubespaces.io/owner": "alice@example.com" },
      },
    });
  });

  it("turns cpu and memory into requests and limits, storage into requests", () => {
    expect(minimal().resourceQuota).toEqual({
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: "kubespaces-quota", namespace: "kubespaces-tenant-team-atlas", labels },
      spec: {
        hard: {
          "requests.cpu": "4",
          "limits.cpu": "4",
          "requests.memory": "8Gi",
          "limits.memory": "8Gi",
          "requests.storage": "20Gi",
        },
      },
    });
  });

  it("gives containers the default limits and requests", () => {
    expect(minimal().limitRange.spec).toEqual({
      limits: [{ type: "Container", default: { cpu: "1", memory: "1Gi" }, defaultRequest: { cpu: "100m", memory: "128Mi" } }],
    });
  });

  it("admits ingress only from the tenant's namespaces and DNS", () => {
    expect(minimal().networkPolicy).toEqual({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "kubespaces-isolation", namespace: "kubespaces-tenant-team-atlas", labels },
      spec: {
        podSelector: {},
        policyTypes: ["Ingress"],
        ingress: [
          {
            from: [
              { namespaceSelector: { matchLabels: { "kubespaces.io/tenant": "team-atlas" } } },
              {
                namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } },
                podSelector: { matchLabels: { "k8s-app": "kube-dns" } },
              },
            ],
          },
        ],
      },
    });
  });

  it("has no Gateway objects and points the kubeconfig at the in-cluster Service", () => {
    const rendered = minimal();
    expect(rendered.exposure).toBeUndefined();
    expect(rendered.helmRelease).toMatchObject({
      name: "team-atlas",
      namespace: "kubespaces-tenant-team-atlas",
      chart: "vcluster",
      repository: "https://charts.loft.sh",
      version: "0.36.1",
      timeoutSeconds: 900,
    });
    expect(rendered.helmRelease.values).toMatchObject({
      exportKubeConfig: { server: "https://team-atlas.kubespaces-tenant-team-atlas.svc:443", context: "team-atlas" },
    });
  });

  it("leaves the NetworkPolicy out when isolation is off", () => {
    const rendered = renderTenant(validateTenant("team-atlas", { owner: "a", isolation: { networkPolicy: false } }));
    expect(rendered.networkPolicy).toBeUndefined();
  });

  it("uses a chosen namespace and a restricted pod security level", () => {
    const rendered = renderTenant(
      validateTenant("team-atlas", { owner: "a", targetNamespace: "atlas", isolation: { podSecurity: "restricted" } }),
    );
    expect(rendered.namespace.metadata.name).toBe("atlas");
    expect(rendered.namespace.metadata.labels["pod-security.kubernetes.io/enforce"]).toBe("restricted");
    expect(rendered.resourceQuota.metadata.namespace).toBe("atlas");
  });
});

describe("renderTenant for an exposed tenant", () => {
  it("adds object counts to the quota", () => {
    expect(exposed().resourceQuota.spec?.hard).toEqual({
      "requests.cpu": "8",
      "limits.cpu": "8",
      "requests.memory": "16Gi",
      "limits.memory": "16Gi",
      "requests.storage": "50Gi",
      pods: "40",
    });
  });

  it("routes the API hostname through the passthrough listener to the vCluster Service", () => {
    expect(exposed().exposure?.apiRoute).toEqual({
      apiVersion: "gateway.networking.k8s.io/v1",
      kind: "TLSRoute",
      metadata: { name: "kubespaces-team-atlas-api", namespace: "kubespaces-gateway", labels },
      spec: {
        parentRefs: [
          { group: "gateway.networking.k8s.io", kind: "Gateway", name: "shared", namespace: "kubespaces-gateway", sectionName: "tls-passthrough" },
        ],
        hostnames: ["team-atlas.api.kubespaces.example.com"],
        rules: [
          {
            backendRefs: [
              { group: "", kind: "Service", name: "team-atlas", namespace: "kubespaces-tenant-team-atlas", port: 443 },
            ],
          },
        ],
      },
    });
  });

  it("grants TLSRoutes from the gateway namespace exactly the vCluster Service", () => {
    expect(exposed().exposure?.apiReferenceGrant).toEqual({
      apiVersion: "gateway.networking.k8s.io/v1",
      kind: "ReferenceGrant",
      metadata: { name: "kubespaces-team-atlas-api", namespace: "kubespaces-tenant-team-atlas", labels },
      spec: {
        from: [{ group: "gateway.networking.k8s.io", kind: "TLSRoute", namespace: "kubespaces-gateway" }],
        to: [{ group: "", kind: "Service", name: "team-atlas" }],
      },
    });
  });

  it("adds an apps listener for the tenant's wildcard, admitting only the tenant's routes", () => {
    expect(exposed().exposure?.appsListenerSet).toEqual({
      apiVersion: "gateway.networking.k8s.io/v1",
      kind: "ListenerSet",
      metadata: { name: "kubespaces-team-atlas-apps", namespace: "kubespaces-gateway", labels },
      spec: {
        parentRef: { group: "gateway.networking.k8s.io", kind: "Gateway", name: "shared", namespace: "kubespaces-gateway" },
        listeners: [
          {
            name: "apps",
            hostname: "*.team-atlas.apps.kubespaces.example.com",
            protocol: "HTTPS",
            port: 443,
            tls: { mode: "Terminate", certificateRefs: [{ group: "", kind: "Secret", name: "kubespaces-team-atlas-apps-tls" }] },
            allowedRoutes: { namespaces: { from: "Selector", selector: { matchLabels: { "kubespaces.io/tenant": "team-atlas" } } } },
          },
        ],
      },
    });
  });

  it("requests a certificate whose Secret carries the tenant label", () => {
    expect(exposed().exposure?.appsCertificate).toEqual({
      apiVersion: "cert-manager.io/v1",
      kind: "Certificate",
      metadata: { name: "kubespaces-team-atlas-apps", namespace: "kubespaces-gateway", labels },
      spec: {
        secretName: "kubespaces-team-atlas-apps-tls",
        secretTemplate: { labels },
        dnsNames: ["*.team-atlas.apps.kubespaces.example.com"],
        issuerRef: { name: "letsencrypt", kind: "ClusterIssuer", group: "cert-manager.io" },
      },
    });
  });

  it("admits ingress from the gateway namespace", () => {
    const peers = (exposed().networkPolicy?.spec as any).ingress[0].from;
    expect(peers).toContainEqual({ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kubespaces-gateway" } } });
  });

  it("selects the v1alpha2 TLSRoute for Gateway API 1.4 and older", () => {
    const spec = validateTenant("team-atlas", {
      owner: "a",
      exposure: { baseDomain: "example.com", issuerRef: { name: "le" }, tlsRouteVersion: "v1alpha2" },
    });
    expect(renderTenant(spec).exposure?.apiRoute.apiVersion).toBe("gateway.networking.k8s.io/v1alpha2");
  });
});
