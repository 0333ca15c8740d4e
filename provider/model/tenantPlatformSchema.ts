/**
 * The platform's policy: what only the platform team decides, once, for every tenant it serves.
 * A team's request (tenantRequestSchema.ts) can only ask within it. It travels with the Tenant's
 * arguments as `platform`, so that every language sets it the same way; the self-service doors
 * (Tenant files, the CLI) accept requests only and add the platform's own policy.
 */
import { z } from "zod";
import { namedType } from "../util/namedType";
import { DEFAULT_API_SERVER_CIDRS, DEFAULT_API_SERVER_PORTS, DEFAULT_INTERNET_EXCEPT_CIDRS } from "./networkDefaults";
import {
  cpuAndMemory,
  DNS_SUBDOMAIN,
  dnsLabel,
  objectCountFields,
  podSecurityLevel,
  quantity,
  requiredText,
} from "./schemaParts";
import { VCLUSTER_CHART_VERSION } from "./vclusterChart";

/** Where tenant namespaces are made, by default: `<prefix><name>`. */
export const DEFAULT_NAMESPACE_PREFIX = "kubespaces-tenant-";
/** The shared Gateway's namespace, by default. */
export const DEFAULT_GATEWAY_NAMESPACE = "kubespaces-gateway";

const gatewayRef = z
  .strictObject({
    name: dnsLabel("Name of the shared Gateway.").default("shared"),
    namespace: dnsLabel(
      "Namespace of the shared Gateway; the TLSRoute, apps listener and certificate live here.",
    ).default(DEFAULT_GATEWAY_NAMESPACE),
    sectionName: dnsLabel(
      "Listener of the Gateway with `protocol: TLS` and `tls.mode: Passthrough` that the API TLSRoute attaches to.",
    ).default("tls-passthrough"),
  })
  .describe("The shared Gateway that carries tenant traffic.");

const issuerRef = z
  .strictObject({
    name: requiredText("Name of the cert-manager issuer."),
    kind: z
      .enum(["ClusterIssuer", "Issuer"], { error: "must be one of: ClusterIssuer, Issuer" })
      .default("ClusterIssuer")
      .describe("Kind of the issuer; an `Issuer` must live in the gateway namespace."),
    group: z.string().default("cert-manager.io").describe("API group of the issuer."),
  })
  .describe("The cert-manager issuer that signs the apps certificate.");

const accessSubject = z
  .strictObject({
    kind: z
      .enum(["ServiceAccount", "User", "Group"], { error: "must be one of: ServiceAccount, User, Group" })
      .describe("The subject's kind."),
    name: requiredText("The subject's name."),
    namespace: dnsLabel("The ServiceAccount's namespace; only for a ServiceAccount.").optional(),
  })
  .refine((subject) => (subject.kind === "ServiceAccount") === (subject.namespace !== undefined), {
    error: "namespace is required for a ServiceAccount and only for one",
    path: ["namespace"],
  })
  .describe("Who the role is bound to.");

/**
 * A ClusterRole bound in each tenant namespace; its presence decides whether the RoleBinding
 * exists, so it must be plain when the Tenant is constructed.
 */
export const namespaceAccessSchema = z
  .strictObject({
    clusterRole: dnsLabel("The ClusterRole bound in the namespace."),
    subject: accessSubject,
  })
  .describe(
    "A ClusterRole bound in each tenant namespace to one subject: the RoleBinding is made right after the namespace, before anything in it, and goes with the namespace. This is how kubespaces server holds its rights in tenant namespaces only (ClusterRole `kubespaces-server-tenant`, see docs/policy.md); the server sets it to its own identity. Unset: no RoleBinding.",
  );

/** Gateway API exposure; its presence and `tlsRouteVersion` decide which Gateway children exist. */
export const exposureSchema = z
  .strictObject({
    baseDomain: z
      .string({ error: "is required when exposure is set" })
      .max(200, { error: "must be at most 200 characters" })
      .regex(DNS_SUBDOMAIN, { error: "must be a DNS name such as example.com", abort: true })
      // A single label is a top-level domain (com) or a host's own name (localhost): no one can
      // delegate names below it to the gateway, so tenants' hostnames would never resolve.
      .refine((domain) => domain.includes("."), {
        error:
          "must have at least two labels, such as example.com or apps.example.com, not a single label like localhost or com",
      })
      .describe(
        "Domain under which tenants are published: the API at `<name>.api.<baseDomain>`, apps at `*.<name>.apps.<baseDomain>`.",
      ),
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
  .describe("Publish every tenant's API (TLS passthrough) and apps (TLS terminated) through Gateway API.");

const chart = z
  .strictObject({
    repository: z.string().default("https://charts.loft.sh").describe("Helm repository (the pinned chart mirror)."),
    name: requiredText("Chart name in the repository.").default("vcluster"),
    version: requiredText("Pinned chart version.").default(VCLUSTER_CHART_VERSION),
    localPath: requiredText(
      "Path to a chart on disk; when set, `repository`, `name` and `version` are not used.",
    ).optional(),
  })
  .describe("Where the vCluster chart comes from: its templates run with the stack's credentials.");

const cidr = z
  .string()
  .regex(/^[0-9a-fA-F.:]+\/\d{1,3}$/, { error: "must be a CIDR such as 10.0.0.0/8 or fc00::/7" })
  .describe("A CIDR.");

const network = z
  .strictObject({
    apiServerCidrs: z
      .array(cidr)
      .min(1, { error: "must name at least one range" })
      .default(DEFAULT_API_SERVER_CIDRS)
      .describe(
        "Where the host API server's endpoints are (the addresses behind the `kubernetes` Service: NetworkPolicies match a connection after the Service's translation). Only the vCluster control plane may reach them, on `apiServerPorts`. The default, the private ranges, is everywhere an endpoint may be; name yours (`kubectl get endpointslices -n default -l kubernetes.io/service-name=kubernetes`) to keep the control plane off every other private address on those ports.",
      ),
    apiServerPorts: z
      .array(z.int().min(1).max(65535))
      .min(1)
      .default(DEFAULT_API_SERVER_PORTS)
      .describe("Ports the host API server's endpoints listen on."),
    internetExceptCidrs: z
      .array(cidr)
      .default(DEFAULT_INTERNET_EXCEPT_CIDRS)
      .describe(
        "What tenants may not reach on the internet rule: the cluster's, private, link-local and metadata ranges.",
      ),
    gatewayPodLabels: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        "Labels of the gateway's pods, when only they (not every pod of the gateway namespace) may reach tenants.",
      ),
  })
  .describe("The tenants' NetworkPolicy: what their pods may reach, and who may reach them.");

const podSecurity = z
  .strictObject({
    // Restricted, as vCluster's own isolation mode: baseline admits pods that run as root, escalate
    // privileges or add capabilities such as SETPCAP into the host namespace.
    default: podSecurityLevel(
      "Level of a tenant that asks for none. `restricted` admits only pods that run as non-root, drop every capability and may not escalate privileges; `baseline` lets them run as root.",
    ).default("restricted"),
    allowed: z
      .array(podSecurityLevel("A level."))
      .min(1, { error: "must allow at least one level" })
      .default(["baseline", "restricted"])
      .describe("Levels a tenant may ask for."),
  })
  .describe("Pod Security Admission levels of tenant namespaces.");

/**
 * NodePort and LoadBalancer Services open ports on every node of the host, which no NetworkPolicy
 * fences and which tenants would contend for: none unless the platform raises the ceilings. (The
 * quota's `services.nodeports` counts the node ports of LoadBalancer Services too.)
 */
const NO_NODE_PORTS = { servicesNodePorts: 0, servicesLoadBalancers: 0 };

/**
 * Object counts of a tenant that sets none: every kind the vCluster creates on the host is capped,
 * well above what the vCluster itself takes (vclusterFootprint.ts checks that a count holds it).
 */
const DEFAULT_OBJECT_COUNTS = {
  pods: 50,
  services: 20,
  persistentVolumeClaims: 20,
  secrets: 100,
  configMaps: 100,
  ...NO_NODE_PORTS,
};

const quota = z
  .strictObject({
    // Named `default`, not `defaults`: the Go SDK gives every input type a `Defaults()` method.
    default: z
      .strictObject({
        cpu: quantity("CPU of a tenant that asks for none.").default("4"),
        memory: quantity("Memory of a tenant that asks for none.").default("8Gi"),
        storage: quantity("Storage of a tenant that asks for none.").default("20Gi"),
        ephemeralStorage: quantity(
          "Ephemeral storage of a tenant that asks for none. It must hold the vCluster's own limits while a rolling update runs: 10Gi for each control plane (the chart's limit; two at once when it keeps no volume) and CoreDNS's, twice; the default leaves 8Gi beside the most that takes (24Gi).",
        ).default("32Gi"),
        ...objectCountFields(
          (resource) => `${resource} of a tenant that sets no count; at most the ceiling, when one is set.`,
          DEFAULT_OBJECT_COUNTS,
        ),
      })
      .prefault({})
      .describe("What a tenant gets when its request leaves a field out."),
    ceilings: z
      .strictObject({
        cpu: quantity("Most CPU a tenant may ask for.").optional(),
        memory: quantity("Most memory a tenant may ask for.").optional(),
        storage: quantity("Most storage a tenant may ask for.").optional(),
        ephemeralStorage: quantity("Most ephemeral storage a tenant may ask for.").optional(),
        ...objectCountFields(
          (resource) => `Most ${resource} a tenant may ask for; a ceiling also applies when the request sets no count.`,
          NO_NODE_PORTS,
        ),
      })
      .prefault({})
      .describe("The most a tenant may ask for; unset means no ceiling."),
  })
  .describe("Quota defaults and ceilings.");

/** The platform's policy: set by the platform team, never by a team's request. */
/** How many hours before its expiry a tenant's status warns, unless the platform says otherwise. */
export const DEFAULT_EXPIRY_WARN_HOURS = 24;

const expiry = z
  .strictObject({
    maxLifetimeHours: z
      .int()
      .min(1, { error: "must be at least 1" })
      .optional()
      .describe(
        "The furthest ahead a request's `expiresAt` may be, in hours from the time it is checked; unset means no cap. Extending a tenant is checked the same way.",
      ),
    requiredFor: z
      .strictObject({
        owners: z
          .array(z.string().min(1))
          .default([])
          .describe("Owners whose tenants must set `expiresAt`; `*` means every owner."),
        groups: z
          .array(z.string().min(1))
          .default([])
          .describe(
            "Groups of the identity provider whose members' requests must set `expiresAt` (checked by the server's doors, which know the requester's groups).",
          ),
      })
      .prefault({})
      .describe("Who must give their tenants an expiry."),
    warnHours: z
      .int()
      .min(0, { error: "must be at least 0" })
      .default(DEFAULT_EXPIRY_WARN_HOURS)
      .describe("How long before `expiresAt` the tenant's status warns that it expires (condition `Expiring`)."),
  })
  .describe("Tenants that expire: the cap on `expiresAt`, who must set it, and when the warning starts.");

export const tenantPlatformSchema = namedType(
  "TenantPlatform",
  "The platform's policy: chart, namespaces, exposure, isolation, quota defaults and ceilings, and host access. Set by the platform team.",
  z.strictObject({
    namespacePrefix: z
      .string()
      .max(40, { error: "must be at most 40 characters" })
      .regex(/^[a-z0-9]([-a-z0-9]*)$/, {
        error: "must be lower-case letters, digits and '-', starting with a letter or digit",
      })
      .default(DEFAULT_NAMESPACE_PREFIX)
      .describe("Host namespaces are `<namespacePrefix><name>`."),
    chart: chart.prefault({}),
    helmTimeoutSeconds: z
      .int()
      .min(60, { error: "must be at least 60" })
      .default(900)
      .describe("How long Helm may take to install or upgrade a release."),
    readinessTimeoutSeconds: z
      .int()
      .min(1, { error: "must be at least 1" })
      .max(3600, { error: "must be at most 3600" })
      .default(600)
      .describe("How long `pulumi up` waits for a virtual cluster to be ready."),
    // Plain: they decide which children exist and their types.
    exposure: exposureSchema.optional().meta({ plain: true }),
    networkPolicy: z
      .boolean()
      .default(true)
      .meta({ plain: true })
      .describe(
        "Create NetworkPolicies that admit ingress only from the tenant's namespaces (labelled `kubespaces.io/tenant=<name>`) and the gateway namespace, and egress only to cluster DNS, the tenant's namespaces and the internet (not the cluster's, private or link-local ranges, so not the nodes' metadata endpoints), and for the vCluster control plane alone the host API server (`network.apiServerCidrs`).",
      ),
    network: network.prefault({}),
    podSecurity: podSecurity.prefault({}),
    quota: quota.prefault({}),
    expiry: expiry.prefault({}),
    controlPlaneDefaults: z
      .strictObject({
        limits: cpuAndMemory("Limits of the control-plane container.", "1", "2Gi"),
        requests: cpuAndMemory("Requests of the control-plane container.", "200m", "256Mi"),
      })
      .prefault({})
      .describe("Resources of a tenant's control plane when its request sets none."),
    // Plain: it decides whether the RoleBinding exists.
    namespaceAccess: namespaceAccessSchema.optional().meta({ plain: true }),
    allowNamespaceMoves: z
      .boolean()
      .default(false)
      .describe(
        "Let an update move tenants to another namespace (a new `namespacePrefix`). A move replaces the namespace, and deleting the old one deletes everything in it, the virtual clusters' data included; without this switch the update stops before the move.",
      ),
    allowUnsafeOverrides: z
      .boolean()
      .default(false)
      .describe(
        "Let requests' `vcluster.valuesOverrides` touch paths outside the self-service allowlist. Only for requests the platform team writes itself.",
      ),
    hostKubeconfig: requiredText(
      "Kubeconfig of the host cluster, kept secret. The host check, the readiness wait and the cleanup read the cluster with it; when no `provider` is given, the component also creates its Kubernetes provider from it. Defaults to the ambient kubeconfig (`KUBECONFIG` or `~/.kube/config`), as the Kubernetes provider does. It may run `exec` credential plugins: that is why only the platform sets it.",
    )
      .optional()
      .meta({ secret: true }),
  }),
);

/** The platform's policy as written: optional fields may be left out. */
export type TenantPlatformInput = z.input<typeof tenantPlatformSchema>;
/** The platform's policy with every default filled in. */
export type TenantPlatform = z.output<typeof tenantPlatformSchema>;
