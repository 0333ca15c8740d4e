/**
 * The server's own configuration: the platform's policy every Tenant is held to, and how the
 * reconciler runs. It comes from the platform (a file the server is started with), never from a
 * Tenant: nothing a team writes can change it.
 */
import { z } from "zod";
import type { TenantPlatformInput } from "../model/tenantPlatformSchema";
import { METRICS_PORT } from "../contracts/metricsEndpoint";
import { httpConfigSchema, listenAddress, signInConfigSchema } from "./auth/signInConfig";
import { snapshotsConfigSchema } from "./snapshots/snapshotStore";
import { ownerCapsSchema } from "../tenants/ownerCaps";

/** The configuration file's schema (the policy is checked with the policy's own schema, apart). */
export const serverConfigSchema = z
  .object({
    platform: z.record(z.string(), z.unknown()).optional().describe("The platform's policy (see docs/policy.md)."),
    adminGroup: z
      .string()
      .min(1)
      .default("kubespaces-admins")
      .describe("The identity provider's group whose members may request tenants for others and approve changes."),
    requireApproval: z
      .boolean()
      .default(false)
      .describe("Whether a changed Tenant waits, previewed, until an admin approves its generation."),
    namespace: z
      .string()
      .min(1)
      .default("kubespaces-system")
      .describe("The server's namespace on the host: its replicas' Leases and the tenants' claims live there."),
    leaseName: z
      .string()
      .min(1)
      .default("kubespaces-server")
      .describe(
        "What the replicas' Leases are named after: each replica's is `<leaseName>-replica-<identity>`, each tenant's claim `<leaseName>-tenant-<tenant>`, and both carry a label with this value.",
      ),
    concurrency: z.number().int().min(1).max(64).default(4).describe("How many tenants are reconciled at once."),
    /**
     * A bound of its own, since people ask for previews at will and each is an engine as an update's
     * (a few hundred MiB): a replica's memory holds `concurrency` plus this many (docs/self-service.md,
     * Sizing). How a preview past it waits, then is refused: people/previewPool.ts.
     */
    previewConcurrency: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(2)
      .describe(
        "How many previews people ask for (at the API and the portal) each replica runs at once, apart from `concurrency`; past it a preview waits a short time, then is answered 503 (busy, with a Retry-After).",
      ),
    resyncSeconds: z
      .number()
      .int()
      .min(0)
      .default(600)
      .describe(
        "How often every tenant is resynced, each at an offset of its own within the period: previewed after a refresh of the host, and brought up only when that plans a change (0: never; the drift watch still resyncs a tenant whose host objects changed).",
      ),
    leaseDurationSeconds: z
      .number()
      .int()
      .min(2)
      .default(15)
      .describe(
        "How long a replica's renewal of its Leases holds: a killed replica's tenants are taken up by the others after about this long. A replica that cannot renew a tenant's claim within two thirds of it stops reconciling that tenant.",
      ),
    metrics: z
      .boolean()
      .default(true)
      .describe(
        "Whether `/metrics` serves the server's Prometheus metrics on `metricsListen` (and what they count is counted).",
      ),
    // A listener of its own: a scrape never goes through the API's route, nor the public Gateway.
    metricsListen: listenAddress(
      `127.0.0.1:${METRICS_PORT}`,
      "The address `/metrics` is served on, apart from the API and portal (`http.listen`); only with `metrics`.",
    ),
    http: httpConfigSchema,
    signIn: signInConfigSchema.optional(),
    snapshots: snapshotsConfigSchema.optional(),
    caps: z
      .strictObject({ perOwner: ownerCapsSchema.optional() })
      .optional()
      .describe(
        "What one person may hold across all their tenants: refused at the API and the portal at once, and for a Tenant applied with kubectl when the server provisions a new generation (Failed, InvalidRequest).",
      ),
  })
  .strict();

/** The configuration as written. */
export type ServerConfigInput = z.input<typeof serverConfigSchema>;

/** The configuration with its defaults, the policy checked. */
export type ServerConfig = Omit<z.output<typeof serverConfigSchema>, "platform"> & {
  /** The platform's policy. */
  readonly platform: TenantPlatformInput;
};
