/**
 * The vCluster chart values the component sets, with the tenant's overrides merged over them.
 * Keys follow the pinned vCluster chart (`controlPlane.distro.k8s.image.tag`, `exportKubeConfig`,
 * `controlPlane.proxy.extraSANs`); the chart's own policies stay off because the component
 * creates the quota, LimitRange and NetworkPolicy itself.
 */
import { inClusterApiUrl } from "../model/names";
import type { TenantSpec } from "../model/tenantSpec";
import { mergeHelmValues, type Values } from "./helmMerge";

/** The URL the exported kubeconfig points at: public when exposed, else the in-cluster Service. */
export function kubeconfigServerUrl(spec: TenantSpec): string {
  return spec.endpoints?.apiServerUrl ?? inClusterApiUrl(spec.releaseName, spec.namespace);
}

/** Hostnames the vCluster API certificate must cover besides its defaults. */
export function apiCertificateSans(spec: TenantSpec): string[] {
  const inCluster = [
    `${spec.releaseName}.${spec.namespace}.svc`,
    `${spec.releaseName}.${spec.namespace}.svc.cluster.local`,
  ];
  return spec.endpoints ? [spec.endpoints.apiHostname, ...inCluster] : inCluster;
}

/** The non-root user vCluster's docs run the control plane as. */
const NON_ROOT_ID = 12345;

const NON_ROOT_USER = { runAsNonRoot: true, runAsUser: NON_ROOT_ID, runAsGroup: NON_ROOT_ID };
const RUNTIME_DEFAULT_SECCOMP = { type: "RuntimeDefault" };

/** A container security context that passes Pod Security "restricted". */
export const RESTRICTED_CONTAINER_SECURITY = {
  ...NON_ROOT_USER,
  allowPrivilegeEscalation: false,
  capabilities: { drop: ["ALL"] },
  seccompProfile: RUNTIME_DEFAULT_SECCOMP,
};

/** A pod security context that passes Pod Security "restricted". */
export const RESTRICTED_POD_SECURITY = {
  ...NON_ROOT_USER,
  fsGroup: NON_ROOT_ID,
  seccompProfile: RUNTIME_DEFAULT_SECCOMP,
};

/**
 * Security contexts under which the chart's pods pass Pod Security "restricted": the control plane
 * (the chart's default runs it as root), its distro init container, and the virtual cluster's
 * CoreDNS, which is synced into the same namespace.
 */
export function restrictedSecurityValues(): Values {
  const container = RESTRICTED_CONTAINER_SECURITY;
  const pod = RESTRICTED_POD_SECURITY;
  return {
    controlPlane: {
      distro: { k8s: { securityContext: container } },
      statefulSet: { security: { podSecurityContext: pod, containerSecurityContext: container } },
      coredns: { security: { podSecurityContext: pod, containerSecurityContext: container } },
    },
  };
}

/** The component's own values, before overrides. */
export function componentValues(spec: TenantSpec): Values {
  const values = baseValues(spec);
  return spec.isolation.podSecurity === "restricted" ? mergeHelmValues(values, restrictedSecurityValues()) : values;
}

function baseValues(spec: TenantSpec): Values {
  const { limits, requests } = spec.vcluster.controlPlaneResources;
  return {
    controlPlane: {
      distro: { k8s: { image: { tag: normalizedVersion(spec.vcluster.kubernetesVersion) } } },
      proxy: { extraSANs: apiCertificateSans(spec) },
      statefulSet: {
        // An explicit CPU limit: without it the pod is rejected under a limits.cpu quota (loft-sh/vcluster#1746).
        resources: {
          limits: { cpu: limits.cpu, memory: limits.memory },
          requests: { cpu: requests.cpu, memory: requests.memory },
        },
        // The chart retains the data PVC by default; a deleted tenant must not leave it behind.
        persistence: { volumeClaim: { retentionPolicy: "Delete" } },
      },
    },
    exportKubeConfig: { server: kubeconfigServerUrl(spec), context: spec.name },
    policies: {
      resourceQuota: { enabled: false },
      limitRange: { enabled: false },
      networkPolicy: { enabled: false },
    },
  };
}

/**
 * The values handed to Helm: the tenant's overrides merged over the component's values, and for a
 * sleeping tenant no control-plane replica, whatever the overrides ask (as `vcluster pause` scales
 * it; its data volume stays, since the chart keeps claims when it scales down).
 */
export function renderVclusterValues(spec: TenantSpec): Values {
  const values = mergeHelmValues(componentValues(spec), spec.vcluster.valuesOverrides);
  return spec.asleep
    ? mergeHelmValues(values, { controlPlane: { statefulSet: { highAvailability: { replicas: 0 } } } })
    : values;
}

function normalizedVersion(version: string): string {
  return version.startsWith("v") ? version : `v${version}`;
}
