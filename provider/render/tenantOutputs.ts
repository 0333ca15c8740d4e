/** The Tenant's outputs that follow from its spec alone (the kubeconfig and status come from the readiness wait). */
import { kubeconfigSecretName, KUBECONFIG_SECRET_KEY } from "../model/names";
import type { TenantOutputs } from "../model/tenantOutputsSchema";
import type { TenantSpec } from "../model/tenantSpec";
import { kubeconfigServerUrl } from "./vclusterValues";

/** The outputs known before the virtual cluster is ready. */
export type RenderedOutputs = Pick<TenantOutputs, "namespace" | "apiServerUrl" | "appsDomain" | "kubeconfigSecretRef">;

/** Renders the outputs known from the spec. */
export function renderOutputs(spec: TenantSpec): RenderedOutputs {
  return {
    namespace: spec.namespace,
    apiServerUrl: kubeconfigServerUrl(spec),
    ...(spec.endpoints && { appsDomain: spec.endpoints.appsDomain }),
    kubeconfigSecretRef: {
      namespace: spec.namespace,
      name: kubeconfigSecretName(spec.releaseName),
      key: KUBECONFIG_SECRET_KEY,
    },
  };
}
