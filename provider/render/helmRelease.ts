/** Everything the Helm release of the tenant's vCluster needs, as plain data. */
import type { TenantSpec } from "../model/tenantSpec";
import { HELM_MAX_HISTORY } from "../model/vclusterFootprint";
import type { Values } from "./helmMerge";
import { renderVclusterValues } from "./vclusterValues";

/** The vCluster release: chart source, target and values. */
export interface RenderedHelmRelease {
  /** Release name; the chart names its StatefulSet, Service and kubeconfig Secret after it. */
  readonly name: string;
  /** Namespace the release is installed in (the tenant namespace). */
  readonly namespace: string;
  /** Chart name, or a local chart path. */
  readonly chart: string;
  /** Helm repository URL; absent for a local chart. */
  readonly repository?: string;
  /** Pinned chart version; absent for a local chart. */
  readonly version?: string;
  /** Values passed to the chart. */
  readonly values: Values;
  /** Seconds Helm may take. */
  readonly timeoutSeconds: number;
  /** Revisions Helm keeps, each a Secret in the tenant namespace under its quota. */
  readonly maxHistory: number;
}

/** Renders the vCluster release. */
export function renderHelmRelease(spec: TenantSpec): RenderedHelmRelease {
  const { chart } = spec.vcluster;
  const source = chart.localPath
    ? { chart: chart.localPath }
    : { chart: chart.name, repository: chart.repository, version: chart.version };
  return {
    name: spec.releaseName,
    namespace: spec.namespace,
    ...source,
    values: renderVclusterValues(spec),
    timeoutSeconds: spec.vcluster.timeoutSeconds,
    maxHistory: HELM_MAX_HISTORY,
  };
}
