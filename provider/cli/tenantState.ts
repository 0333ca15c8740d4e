/**
 * The tenants the tenants stack's state holds: each `kubespaces:index:Tenant` component and the
 * outputs it registered (its namespace, API server URL, status and kubeconfig).
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { TENANT_TOKEN } from "../model/tokens";
import { urnName } from "./tenantEvents";

/** One deployed tenant, as the state records it. */
export interface DeployedTenant {
  /** The tenant's name. */
  readonly name: string;
  /** Its host namespace; this and the outputs below are absent when the update that created it stopped before it registered them. */
  readonly namespace?: string;
  /** Its API server URL. */
  readonly apiServerUrl?: string;
  /** `Ready` once its virtual cluster was seen ready. */
  readonly phase?: string;
  /** The status message. */
  readonly message?: string;
  /** Its kubeconfig (secret: only read for `kubespaces tenant kubeconfig`). */
  readonly kubeconfig?: string;
}

/** The marker key of a secret value in an exported deployment. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

/** `value` with secrets an export revealed (`--show-secrets`) turned back into their values. */
function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (SECRET_SIGNATURE in record) return "plaintext" in record ? revealed(JSON.parse(String(record.plaintext))) : undefined;
  return Object.fromEntries(Object.entries(record).map(([key, child]) => [key, revealed(child)]));
}

/** The Tenant components of a deployment, by name. */
export function deployedTenants(deployment: Deployment | undefined): Map<string, DeployedTenant> {
  const resources = ((deployment?.deployment as { resources?: unknown[] } | undefined)?.resources ?? []) as {
    urn: string;
    type: string;
    outputs?: Record<string, unknown>;
  }[];
  const tenants = new Map<string, DeployedTenant>();
  for (const resource of resources.filter((r) => r.type === TENANT_TOKEN)) {
    const name = urnName(resource.urn);
    const outputs = revealed(resource.outputs ?? {}) as { namespace?: string; apiServerUrl?: string; kubeconfig?: string; status?: { phase?: string; message?: string } };
    tenants.set(name, {
      name,
      namespace: outputs.namespace,
      apiServerUrl: outputs.apiServerUrl,
      phase: outputs.status?.phase,
      message: outputs.status?.message,
      kubeconfig: outputs.kubeconfig,
    });
  }
  return tenants;
}
