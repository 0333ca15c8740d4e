/**
 * A team's request: what the KubeSpaces operator's Tenant spec lets a team ask for. Every
 * self-service door (Tenant files, the CLI) accepts exactly this and nothing more; what a request
 * leaves out, and the most it may ask for, come from the platform's policy.
 */
import { z } from "zod";
import { objectCountFields, podSecurityLevel, quantity, requiredText } from "./schemaParts";

const resources = z
  .strictObject({
    cpu: quantity(
      "CPU for the whole tenant; becomes both `requests.cpu` and `limits.cpu` of the ResourceQuota. Defaults to `platform.quota.default.cpu`.",
    ).optional(),
    memory: quantity(
      "Memory for the whole tenant; becomes both `requests.memory` and `limits.memory` of the ResourceQuota. Defaults to `platform.quota.default.memory`.",
    ).optional(),
    storage: quantity(
      "Persistent storage for the whole tenant; becomes `requests.storage` of the ResourceQuota. Defaults to `platform.quota.default.storage`.",
    ).optional(),
    ephemeralStorage: quantity(
      "Ephemeral storage for the whole tenant (containers' writable layers, logs, emptyDir volumes); becomes both `requests.ephemeral-storage` and `limits.ephemeral-storage` of the ResourceQuota. Defaults to `platform.quota.default.ephemeralStorage`.",
    ).optional(),
    ...objectCountFields(
      (resource) =>
        `Maximum number of ${resource} in the tenant namespace. Defaults to the platform's default for it (\`platform.quota.default\`), at most its ceiling.`,
    ),
  })
  .describe(
    "What the tenant may use on the host, enforced by a ResourceQuota on its namespace, within the platform's ceilings.",
  );

/** CPU, memory and ephemeral storage of a container, with defaults. */
const containerResources = (description: string, cpu: string, memory: string, ephemeralStorage: string) =>
  z
    .strictObject({
      cpu: quantity("CPU.").default(cpu),
      memory: quantity("Memory.").default(memory),
      ephemeralStorage: quantity("Ephemeral storage (`ephemeral-storage`).").default(ephemeralStorage),
    })
    .prefault({})
    .describe(description);

const limitRange = z
  .strictObject({
    defaultLimit: containerResources("Limits given to containers that declare none.", "1", "1Gi", "2Gi"),
    defaultRequest: containerResources("Requests given to containers that declare none.", "100m", "128Mi", "256Mi"),
  })
  .describe(
    "Container defaults in the tenant namespace, so pods that declare no limits (the vCluster's own included) still schedule under a quota that sets limits: the quota refuses a pod any of whose containers, init containers included, lacks a request or limit it caps.",
  );

const isolation = z
  .strictObject({
    podSecurity: podSecurityLevel(
      "Pod Security Admission level enforced on the tenant namespace; one the platform allows. Defaults to `platform.podSecurity.default`.",
    ).optional(),
  })
  .describe("How the tenant namespace is fenced off on the host, within the platform's policy.");

const vcluster = z
  .strictObject({
    kubernetesVersion: z
      .string()
      .regex(/^v?\d+\.\d+\.\d+$/, { error: "must be a Kubernetes version such as v1.36.0" })
      .default("v1.36.0")
      .describe("Kubernetes version of the virtual cluster (the `controlPlane.distro.k8s.image.tag` of the chart)."),
    controlPlaneResources: z
      .strictObject({
        limits: z
          .strictObject({ cpu: quantity("CPU.").optional(), memory: quantity("Memory.").optional() })
          .prefault({})
          .describe("Limits of the control-plane container."),
        requests: z
          .strictObject({ cpu: quantity("CPU.").optional(), memory: quantity("Memory.").optional() })
          .prefault({})
          .describe("Requests of the control-plane container."),
      })
      .prefault({})
      .describe(
        "Resources of the vCluster control plane, within the quota; defaults to `platform.controlPlaneDefaults`. It always gets a CPU limit so that it schedules under the quota.",
      ),
    valuesOverrides: z
      .record(z.string(), z.unknown())
      .default({})
      .describe(
        "Chart values merged over the component's values with Helm semantics: maps merge, lists replace, overrides win, `null` removes a key. Only the self-service allowlist, unless the platform sets `allowUnsafeOverrides`.",
      ),
  })
  .describe("The tenant's own control plane.");

/** Fields of a team's request. */
export const tenantRequestShape = {
  owner: requiredText("Who owns the tenant; recorded as annotation `kubespaces.io/owner` on the namespace.", 253),
  resources: resources.prefault({}),
  limitRange: limitRange.prefault({}),
  isolation: isolation.prefault({}),
  vcluster: vcluster.prefault({}),
  sleep: z
    .boolean()
    .default(false)
    .describe(
      "Put the tenant to sleep: its control plane and the workloads it synced to the host are scaled to zero, which frees the host's memory and the tenant's quota. Its data, its objects and its kubeconfig stay; setting it back to false wakes the tenant with them.",
    ),
  expiresAt: z.iso
    .datetime({ offset: true, error: "must be an RFC 3339 time such as 2027-01-31T18:00:00Z" })
    .optional()
    .describe(
      "When the tenant expires (RFC 3339). `kubespaces server` warns in the tenant's status before (`platform.expiry.warnHours`) and deletes it at that time, through the same teardown as any delete. At most `platform.expiry.maxLifetimeHours` ahead; required where `platform.expiry.requiredFor` says.",
    ),
};

/** A team's request, as the self-service doors accept it: nothing of the platform's. */
export const tenantRequestSchema = z
  .strictObject(tenantRequestShape)
  .describe("A team's request for a virtual cluster.");

/** A request as written: optional fields may be left out. */
export type TenantRequestInput = z.input<typeof tenantRequestSchema>;
/** A request with its own defaults filled in (the platform's come later). */
export type TenantRequest = z.output<typeof tenantRequestSchema>;
