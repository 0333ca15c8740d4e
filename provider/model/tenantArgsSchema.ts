/**
 * The one definition of a Tenant's inputs: validation rules, defaults and descriptions.
 * The TypeScript `TenantArgs` types, schema.json and the README's reference table are generated
 * from it (`npm run generate`), so a description written here reaches every language.
 */
import { z } from "zod";
import { isQuantity, quantityValue } from "./quantity";

/** RFC 1123 label: what Kubernetes accepts as a namespace or Helm release name. */
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** RFC 1123 subdomain: dot-separated labels. */
export const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const quantity = (description: string) =>
  z
    .string()
    .refine(isQuantity, { error: "must be a Kubernetes quantity such as 500m, 2, 1.5Gi or 512Mi", abort: true })
    .refine((text) => quantityValue(text) > 0, { error: "must be greater than zero" })
    .describe(description);

const dnsLabel = (description: string) =>
  z
    .string()
    .max(63, { error: "must be at most 63 characters" })
    .regex(DNS_LABEL, { error: "must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit" })
    .describe(description);

const objectCount = (resource: string) =>
  z.int().nonnegative({ error: "must be a whole number >= 0" }).optional().describe(`Maximum number of ${resource} in the tenant namespace.`);

const tenantResources = z
  .strictObject({
    cpu: quantity("CPU for the whole tenant; becomes both `requests.cpu` and `limits.cpu` of the ResourceQuota.").default("4"),
    memory: quantity("Memory for the whole tenant; becomes both `requests.memory` and `limits.memory` of the ResourceQuota.").default("8Gi"),
    storage: quantity("Persistent storage for the whole tenant; becomes `requests.storage` of the ResourceQuota.").default("20Gi"),
    pods: objectCount("Pods"),
    services: objectCount("Services"),
    persistentVolumeClaims: objectCount("PersistentVolumeClaims"),
    secrets: objectCount("Secrets"),
    configMaps: objectCount("ConfigMaps"),
    servicesLoadBalancers: objectCount("Services of type LoadBalancer"),
    servicesNodePorts: objectCount("Services of type NodePort"),
  })
  .describe("What the tenant may use on the host, enforced by a ResourceQuota on its namespace.");

const cpuAndMemory = (description: string, cpu: string, memory: string) =>
  z
    .strictObject({
      cpu: quantity("CPU.").default(cpu),
      memory: quantity("Memory.").default(memory),
    })
    .prefault({})
    .describe(description);

const limitRange = z
  .strictObject({
    defaultLimit: cpuAndMemory("Limits given to containers that declare none.", "1", "1Gi"),
    defaultRequest: cpuAndMemory("Requests given to containers that declare none.", "100m", "128Mi"),
  })
  .describe(
    "Container defaults in the tenant namespace, so pods that declare no limits (the vCluster's own included) still schedule under a quota that sets limits.",
  );

/** How the tenant namespace is fenced off; `networkPolicy` decides whether a NetworkPolicy child exists. */
export const isolationSchema = z
  .strictObject({
    networkPolicy: z
      .boolean()
      .default(true)
      .meta({ plain: true })
      .describe(
        "Create a NetworkPolicy that admits ingress only from the tenant's namespaces (labelled `kubespaces.io/tenant=<name>`) and the gateway namespace, and egress only to cluster DNS, the tenant's namespaces, the host API server and the internet (not the cluster's, private or link-local ranges, so not the nodes' metadata endpoints).",
      ),
    podSecurity: z
      .enum(["baseline", "restricted"], { error: "must be one of: baseline, restricted" })
      .default("baseline")
      .describe("Pod Security Admission level enforced on the tenant namespace."),
  })
  .describe("How the tenant namespace is fenced off on the host.");

const gatewayRef = z
  .strictObject({
    name: dnsLabel("Name of the shared Gateway.").default("shared"),
    namespace: dnsLabel("Namespace of the shared Gateway; the TLSRoute, apps listener and certificate live here.").default(
      "kubespaces-gateway",
    ),
    sectionName: dnsLabel("Listener of the Gateway with `protocol: TLS` and `tls.mode: Passthrough` that the API TLSRoute attaches to.").default(
      "tls-passthrough",
    ),
  })
  .describe("The shared Gateway that carries tenant traffic.");

const issuerRef = z
  .strictObject({
    name: z.string().min(1, { error: "must not be empty" }).describe("Name of the cert-manager issuer."),
    kind: z
      .enum(["ClusterIssuer", "Issuer"], { error: "must be one of: ClusterIssuer, Issuer" })
      .default("ClusterIssuer")
      .describe("Kind of the issuer; an `Issuer` must live in the gateway namespace."),
    group: z.string().default("cert-manager.io").describe("API group of the issuer."),
  })
  .describe("The cert-manager issuer that signs the apps certificate.");

/** Gateway API exposure; its presence and `tlsRouteVersion` decide which Gateway children exist. */
export const exposureSchema = z
  .strictObject({
    baseDomain: z
      .string({ error: "is required when exposure is set" })
      .max(200, { error: "must be at most 200 characters" })
      .regex(DNS_SUBDOMAIN, { error: "must be a DNS name such as example.com" })
      .describe("Domain under which the tenant is published: the API at `<name>.api.<baseDomain>`, apps at `*.<name>.apps.<baseDomain>`."),
    gateway: gatewayRef.prefault({}),
    tlsRouteVersion: z
      .enum(["v1", "v1alpha2"], { error: "must be one of: v1, v1alpha2" })
      .default("v1")
      .meta({ plain: true })
      .describe("API version of the TLSRoute: `v1` for Gateway API 1.5 and later, `v1alpha2` for 1.4 and earlier."),
    issuerRef: issuerRef,
    verifyCrds: z
      .boolean()
      .default(true)
      .describe(
        "Check before creating anything that the host serves the Gateway API and cert-manager kinds the exposure needs, and fail naming the missing ones.",
      ),
  })
  .describe("Publish the tenant's API (TLS passthrough) and apps (TLS terminated) through Gateway API.");

const chart = z
  .strictObject({
    repository: z.string().default("https://charts.loft.sh").describe("Helm repository (the pinned chart mirror)."),
    name: z.string().min(1).default("vcluster").describe("Chart name in the repository."),
    version: z.string().min(1).default("0.36.1").describe("Pinned chart version."),
    localPath: z
      .string()
      .min(1)
      .optional()
      .describe("Path to a chart on disk; when set, `repository`, `name` and `version` are not used."),
  })
  .describe("Where the vCluster chart comes from.");

const vcluster = z
  .strictObject({
    chart: chart.prefault({}),
    kubernetesVersion: z
      .string()
      .regex(/^v?\d+\.\d+\.\d+$/, { error: "must be a Kubernetes version such as v1.36.0" })
      .default("v1.36.0")
      .describe("Kubernetes version of the virtual cluster (the `controlPlane.distro.k8s.image.tag` of the chart)."),
    controlPlaneResources: z
      .strictObject({
        limits: cpuAndMemory("Limits of the control-plane container.", "1", "2Gi"),
        requests: cpuAndMemory("Requests of the control-plane container.", "200m", "256Mi"),
      })
      .prefault({})
      .describe("Resources of the vCluster control plane; it always gets a CPU limit so that it schedules under the quota."),
    valuesOverrides: z
      .record(z.string(), z.unknown())
      .default({})
      .describe(
        "Chart values merged over the component's values with Helm semantics: maps merge, lists replace, overrides win, `null` removes a key. Only allowlisted paths unless `allowUnsafeOverrides`.",
      ),
    allowUnsafeOverrides: z
      .boolean()
      .default(false)
      .describe("Let `valuesOverrides` touch paths outside the self-service allowlist. For platform admins only."),
    timeoutSeconds: z
      .int()
      .min(60, { error: "must be at least 60" })
      .default(900)
      .describe("How long Helm may take to install or upgrade the release."),
  })
  .describe("The vCluster Helm release: the tenant's own control plane.");

const readiness = z
  .strictObject({
    timeoutSeconds: z
      .int()
      .min(1, { error: "must be at least 1" })
      .max(3600, { error: "must be at most 3600" })
      .default(600)
      .describe("How long `pulumi up` waits for the virtual cluster to be ready."),
  })
  .describe("The wait for the virtual cluster.");

/** The Tenant's inputs as plain values (after any Outputs have resolved). */
export const tenantArgsSchema = z
  .strictObject({
    owner: z
      .string({ error: "is required" })
      .min(1, { error: "must not be empty" })
      .max(253, { error: "must be at most 253 characters" })
      .describe("Who owns the tenant; recorded as annotation `kubespaces.io/owner` on the namespace."),
    resources: tenantResources.prefault({}),
    targetNamespace: dnsLabel("Host namespace of the tenant.").optional().describe(
      "Host namespace of the tenant; defaults to `kubespaces-tenant-<name>`.",
    ),
    limitRange: limitRange.prefault({}),
    // Plain: they decide which children exist and their types.
    isolation: isolationSchema.prefault({}).meta({ plain: true }),
    exposure: exposureSchema.optional().meta({ plain: true }),
    vcluster: vcluster.prefault({}),
    // Titled: the plain name TenantReadiness belongs to the readiness resource.
    readiness: readiness.prefault({}).meta({ title: "TenantReadinessOptions" }),
    hostKubeconfig: z
      .string()
      .min(1, { error: "must not be empty" })
      .optional()
      .meta({ secret: true })
      .describe(
        "Kubeconfig of the host cluster, kept secret. The readiness wait reads the cluster with it; when no `provider` is given, the component also creates its Kubernetes provider from it. Defaults to the ambient kubeconfig (`KUBECONFIG` or `~/.kube/config`), as the Kubernetes provider does.",
      ),
  })
  .describe("A team's virtual cluster on the shared host cluster.");

/** Tenant inputs as a user writes them: optional fields may be left out. */
export type TenantArgsInput = z.input<typeof tenantArgsSchema>;
/** Tenant inputs with every default filled in. */
export type TenantArgsComplete = z.output<typeof tenantArgsSchema>;
