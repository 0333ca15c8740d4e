/**
 * What the host check, the access check, the readiness wait and the teardown cleanup need to know
 * about a tenant, derived here like every other rendered value. The component adds only what comes
 * from Pulumi (PULUMI_SUPPLIED_INPUTS, contracts/lifecycleInputs.ts).
 */
import type { AccessCheckInputs } from "../contracts/accessCheckSchema";
import type { CleanupInputs } from "../contracts/cleanupSchema";
import type { HostCheckInputs } from "../contracts/hostCheckSchema";
import type { PulumiSuppliedInput } from "../contracts/lifecycleInputs";
import type { ReadinessInputs } from "../contracts/readinessSchema";
import { appsCertificateSecretName } from "../model/names";
import type { TenantSpec } from "../model/tenantSpec";
import { NAMESPACE_ACCESS_NAME } from "./namespaceAccess";
import { kubeconfigServerUrl } from "./vclusterValues";

/** The readiness resource's inputs that follow from the spec. */
export type RenderedReadiness = Omit<ReadinessInputs, PulumiSuppliedInput>;

/** The cleanup resource's inputs that follow from the spec. */
export type RenderedCleanup = Omit<CleanupInputs, PulumiSuppliedInput>;

/** The host check's inputs that follow from the spec. */
export type RenderedHostCheck = Omit<HostCheckInputs, PulumiSuppliedInput>;

/** The access check's inputs that follow from the spec. */
export type RenderedAccessCheck = Omit<AccessCheckInputs, PulumiSuppliedInput>;

/** Renders whose access the access check waits for: the namespace's access binding's. */
export function renderAccessCheck(spec: TenantSpec): RenderedAccessCheck {
  return { tenantName: spec.name, namespace: spec.namespace, roleBinding: NAMESPACE_ACCESS_NAME };
}

/** Renders what the host check looks at. */
export function renderHostCheck(spec: TenantSpec): RenderedHostCheck {
  return { tenantName: spec.name, namespace: spec.namespace, allowNamespaceMove: spec.allowNamespaceMove };
}

/** Renders the readiness wait's target and limits. */
export function renderReadiness(spec: TenantSpec): RenderedReadiness {
  return {
    tenantName: spec.name,
    namespace: spec.namespace,
    releaseName: spec.releaseName,
    serverUrl: kubeconfigServerUrl(spec),
    timeoutSeconds: spec.readiness.timeoutSeconds,
    ...(spec.asleep && { asleep: true }),
  };
}

/** Renders where the tenant's leftovers are. */
export function renderCleanup(spec: TenantSpec): RenderedCleanup {
  const certificateSecret = spec.exposure && {
    namespace: spec.exposure.gateway.namespace,
    name: appsCertificateSecretName(spec.name),
  };
  return {
    tenantName: spec.name,
    namespace: spec.namespace,
    releaseName: spec.releaseName,
    ...(certificateSecret && { certificateSecret }),
  };
}
