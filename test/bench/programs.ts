/**
 * The two programs the benchmark compares: N Tenants, and N hand-written copies of the same
 * Kubernetes objects registered as raw @pulumi/kubernetes resources (no validation, no component,
 * no readiness or cleanup resources).
 */
import * as k8s from "@pulumi/kubernetes";
import { Tenant } from "../../provider/index";
import { childRoles, objectSlots } from "../../provider/render/renderTenant";
import { VCLUSTER_CHART_VERSION } from "../../provider/model/vclusterChart";
import { quotaHard } from "../../provider/render/resourceQuota";

/** The structure of the benchmark's tenants: exposed, with a NetworkPolicy. */
const BENCH_STRUCTURE = { tlsRouteVersion: "v1", networkPolicy: true } as const;

/** How the programs run: under mocks (defaults) or on the test bed. */
export interface ProgramOptions {
  /** A local chart (the real chart the test bed packaged) instead of the pinned mirror. */
  readonly chartPath?: string;
  /** Check the host serves the exposure's kinds (needs a cluster). */
  readonly verifyCrds?: boolean;
  /** Annotations on the vCluster workload (the test bed reads its hold annotation). */
  readonly workloadAnnotations?: Record<string, string>;
}

// Nothing provisions volumes on the test bed.
const PERSISTENCE_OFF = { controlPlane: { statefulSet: { persistence: { volumeClaim: { enabled: false } } } } };

/** Registers `count` exposed tenants through the component; returns resources registered per tenant. */
export function declareTenants(count: number, options: ProgramOptions = {}): number {
  const exposure = {
    baseDomain: "kubespaces.example.com",
    issuerRef: { name: "letsencrypt" },
    verifyCrds: options.verifyCrds ?? false,
  };
  const annotations = options.workloadAnnotations ?? {};
  const onTestbed = options.chartPath !== undefined;
  const platform = { exposure, ...(onTestbed && { chart: { localPath: options.chartPath } }) };
  const vcluster = onTestbed
    ? {
        valuesOverrides: {
          controlPlane: { statefulSet: { ...PERSISTENCE_OFF.controlPlane.statefulSet, annotations } },
        },
      }
    : {};
  for (let i = 0; i < count; i++) new Tenant(`team-${i}`, { owner: `owner-${i}@example.com`, vcluster, platform });
  // The component itself and each of its children.
  return 1 + childRoles(BENCH_STRUCTURE).length;
}

/** Registers `count` tenants' objects by hand; returns resources registered per tenant. */
export function declareRawResources(count: number, options: ProgramOptions = {}): number {
  for (let i = 0; i < count; i++) declareRawTenant(`team-${i}`, options);
  // The same Kubernetes objects and the Helm release, without the component and its lifecycle resources.
  return objectSlots(BENCH_STRUCTURE).length + 1;
}

function declareRawTenant(name: string, options: ProgramOptions): void {
  const namespace = `kubespaces-tenant-${name}`;
  const labels = { "kubespaces.io/tenant": name, "app.kubernetes.io/managed-by": "kubespaces-pulumi" };
  const host = `${name}.api.kubespaces.example.com`;
  const apps = `${name}.apps.kubespaces.example.com`;
  const gatewayRef = {
    group: "gateway.networking.k8s.io",
    kind: "Gateway",
    name: "shared",
    namespace: "kubespaces-gateway",
  };
  const ns = new k8s.core.v1.Namespace(`${name}-namespace`, {
    metadata: {
      name: namespace,
      labels: {
        ...labels,
        "pod-security.kubernetes.io/enforce": "restricted",
        "pod-security.kubernetes.io/warn": "restricted",
        "pod-security.kubernetes.io/audit": "restricted",
      },
      annotations: { "kubespaces.io/owner": `${name}@example.com` },
    },
  });
  const meta = (n: string, nsName = namespace) => ({ name: n, namespace: nsName, labels });
  const quota = new k8s.core.v1.ResourceQuota(
    `${name}-quota`,
    {
      metadata: meta("kubespaces-quota"),
      // The request's default quota, in the render's one mapping of resources to quota keys.
      spec: {
        hard: quotaHard({
          cpu: "4",
          memory: "8Gi",
          storage: "20Gi",
          ephemeralStorage: "32Gi",
          pods: 50,
          services: 20,
          persistentVolumeClaims: 20,
          secrets: 100,
          configMaps: 100,
          servicesNodePorts: 0,
          servicesLoadBalancers: 0,
        }),
      },
    },
    { dependsOn: [ns] },
  );
  const limits = new k8s.core.v1.LimitRange(
    `${name}-limit-range`,
    {
      metadata: meta("kubespaces-defaults"),
      spec: {
        limits: [
          {
            type: "Container",
            default: { cpu: "1", memory: "1Gi", "ephemeral-storage": "2Gi" },
            defaultRequest: { cpu: "100m", memory: "128Mi", "ephemeral-storage": "256Mi" },
          },
        ],
      },
    },
    { dependsOn: [ns] },
  );
  const policy = new k8s.networking.v1.NetworkPolicy(
    `${name}-network-policy`,
    {
      metadata: meta("kubespaces-isolation"),
      spec: {
        podSelector: {},
        policyTypes: ["Ingress"],
        ingress: [
          {
            from: [
              { namespaceSelector: { matchLabels: { "kubespaces.io/tenant": name } } },
              { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kubespaces-gateway" } } },
              {
                namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } },
                podSelector: { matchLabels: { "k8s-app": "kube-dns" } },
              },
            ],
          },
        ],
      },
    },
    { dependsOn: [ns] },
  );
  const controlPlanePolicy = new k8s.networking.v1.NetworkPolicy(
    `${name}-control-plane-network-policy`,
    {
      metadata: meta("kubespaces-control-plane"),
      spec: {
        podSelector: { matchLabels: { app: "vcluster", release: name } },
        policyTypes: ["Egress"],
        egress: [{ to: [{ ipBlock: { cidr: "10.0.0.0/8" } }], ports: [{ protocol: "TCP", port: 6443 }] }],
      },
    },
    { dependsOn: [ns] },
  );
  const grant = new k8s.apiextensions.CustomResource(
    `${name}-api-reference-grant`,
    {
      apiVersion: "gateway.networking.k8s.io/v1",
      kind: "ReferenceGrant",
      metadata: meta(`kubespaces-${name}-api`),
      spec: {
        from: [{ group: "gateway.networking.k8s.io", kind: "TLSRoute", namespace: "kubespaces-gateway" }],
        to: [{ group: "", kind: "Service", name }],
      },
    },
    { dependsOn: [ns] },
  );
  new k8s.apiextensions.CustomResource(
    `${name}-api-route`,
    {
      apiVersion: "gateway.networking.k8s.io/v1",
      kind: "TLSRoute",
      metadata: meta(`kubespaces-${name}-api`, "kubespaces-gateway"),
      spec: {
        parentRefs: [{ ...gatewayRef, sectionName: "tls-passthrough" }],
        hostnames: [host],
        rules: [{ backendRefs: [{ group: "", kind: "Service", name, namespace, port: 443 }] }],
      },
    },
    { dependsOn: [grant] },
  );
  const certificate = new k8s.apiextensions.CustomResource(
    `${name}-apps-certificate`,
    {
      apiVersion: "cert-manager.io/v1",
      kind: "Certificate",
      metadata: meta(`kubespaces-${name}-apps`, "kubespaces-gateway"),
      spec: {
        secretName: `kubespaces-${name}-apps-tls`,
        secretTemplate: { labels },
        dnsNames: [`*.${apps}`],
        issuerRef: { name: "letsencrypt", kind: "ClusterIssuer", group: "cert-manager.io" },
      },
    },
    { dependsOn: [ns] },
  );
  new k8s.apiextensions.CustomResource(
    `${name}-apps-listener-set`,
    {
      apiVersion: "gateway.networking.k8s.io/v1",
      kind: "ListenerSet",
      metadata: meta(`kubespaces-${name}-apps`, "kubespaces-gateway"),
      spec: {
        parentRef: gatewayRef,
        listeners: [
          {
            name: "apps",
            hostname: `*.${apps}`,
            protocol: "HTTPS",
            port: 443,
            tls: {
              mode: "Terminate",
              certificateRefs: [{ group: "", kind: "Secret", name: `kubespaces-${name}-apps-tls` }],
            },
            allowedRoutes: {
              namespaces: { from: "Selector", selector: { matchLabels: { "kubespaces.io/tenant": name } } },
            },
          },
        ],
      },
    },
    { dependsOn: [certificate] },
  );
  new k8s.helm.v3.Release(
    `${name}-vcluster`,
    {
      name,
      namespace,
      ...(options.chartPath
        ? { chart: options.chartPath }
        : { chart: "vcluster", version: VCLUSTER_CHART_VERSION, repositoryOpts: { repo: "https://charts.loft.sh" } }),
      values: {
        controlPlane: {
          distro: { k8s: { image: { tag: "v1.36.0" } } },
          proxy: { extraSANs: [host, `${name}.${namespace}.svc`, `${name}.${namespace}.svc.cluster.local`] },
          statefulSet: {
            resources: { limits: { cpu: "1", memory: "2Gi" }, requests: { cpu: "200m", memory: "256Mi" } },
            persistence: { volumeClaim: { retentionPolicy: "Delete", ...(options.chartPath && { enabled: false }) } },
          },
        },
        exportKubeConfig: { server: `https://${host}:443`, context: name },
        policies: {
          resourceQuota: { enabled: false },
          limitRange: { enabled: false },
          networkPolicy: { enabled: false },
        },
      },
      timeout: 900,
      atomic: true,
      cleanupOnFail: true,
      createNamespace: false,
    },
    { dependsOn: [quota, limits, policy, controlPlanePolicy] },
  );
}
