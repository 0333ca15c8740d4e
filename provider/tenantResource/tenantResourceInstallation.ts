/**
 * Everything that makes Tenants a resource of the host cluster, as plain objects: the CRD, the
 * admission policies on owners, on the platform's ceilings and around the server's writes, and the RBAC of the server and of
 * requesters. The Pulumi component
 * registers them and `npm run generate` writes them as YAML for GitOps (`deploy/`), from the same
 * options.
 */
import type { InstallOptions } from "./installOptions";
import { PART_OF_KUBESPACES, type InstalledObject } from "./kubeObject";
import { ceilingAdmission } from "./ceilingAdmission";
import { ownerAdmission } from "./ownerAdmission";
import { requesterRole, serverRbac } from "./rbacObjects";
import { serverFence } from "./serverFence";
import { platformRevisionCrd } from "./platformRevisionCrd";
import { tenantCeilingsCrd } from "./tenantCeilingsCrd";
import { tenantCrd } from "./tenantCrd";

/** The installation by part, each part in creation order. */
export interface TenantResourceInstallation {
  /** The CRDs: Tenants, PlatformRevisions, and the TenantCeilings the server publishes. */
  readonly crd: readonly InstalledObject[];
  /** The ValidatingAdmissionPolicies (owners, ceilings, the server's fence) and their bindings. */
  readonly admission: readonly InstalledObject[];
  /** The server's namespace (when created), identity and roles, and the requesters' role. */
  readonly rbac: readonly InstalledObject[];
}

/** The installation for `options`. */
export function tenantResourceInstallation(options: InstallOptions): TenantResourceInstallation {
  const namespace: InstalledObject[] = options.createNamespace
    ? [
        {
          role: "namespace",
          object: {
            apiVersion: "v1",
            kind: "Namespace",
            metadata: { name: options.namespace, labels: PART_OF_KUBESPACES },
          },
        },
      ]
    : [];
  return {
    crd: [
      { role: "crd", object: tenantCrd(options.tenantNamespacePrefix) },
      { role: "platform-revision-crd", object: platformRevisionCrd() },
      { role: "tenant-ceilings-crd", object: tenantCeilingsCrd() },
    ],
    admission: [...ownerAdmission(options), ...ceilingAdmission(), ...serverFence(options)],
    rbac: [...namespace, ...serverRbac(options), requesterRole()],
  };
}
