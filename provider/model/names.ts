/**
 * Every name the component derives from a tenant's name, in one place, so that rendering,
 * the lifecycle operations (host check, readiness, cleanup) and tests agree on them.
 */

/** The label every object of a tenant carries; network isolation and teardown checks key on it. */
export const TENANT_LABEL = "kubespaces.io/tenant";

/** The label, and its value, that every object a tenant's stack makes carries beside TENANT_LABEL. */
export const MANAGED_BY_LABEL = { key: "app.kubernetes.io/managed-by", value: "kubespaces-pulumi" } as const;

/** The namespace annotation that records the tenant's owner. */
export const OWNER_ANNOTATION = "kubespaces.io/owner";
/**
 * The namespace label that carries the owner for cost tools (OpenCost, Kubecost) that allocate by
 * namespace label: the owner in a label's alphabet (ownerLabelValue), since a label value cannot
 * hold `@`. OWNER_ANNOTATION keeps the owner exactly.
 */
export const OWNER_LABEL = "kubespaces.io/owner";

/** The longest label value Kubernetes accepts. */
const LABEL_VALUE_MAX = 63;

/**
 * `owner` as a label value: each character a label value cannot hold becomes `_` (`@` becomes
 * `_at_`, so an email stays readable), cut to 63 characters, and without a leading or trailing
 * character that is not a letter or digit. Distinct owners can meet in one value (a cut, or `_`
 * written for another character); the annotation tells them apart.
 */
export function ownerLabelValue(owner: string): string {
  const safe = owner.replaceAll("@", "_at_").replace(/[^A-Za-z0-9._-]/g, "_");
  return safe.slice(0, LABEL_VALUE_MAX).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "");
}

/**
 * The namespace annotation that records which stack created the tenant: the random owner id its
 * host check generated. Not the team (that is OWNER_ANNOTATION): two stacks can declare the same
 * tenant for the same team, and only the one whose id this is may use the namespace.
 */
export const OWNER_ID_ANNOTATION = "kubespaces.io/owner-id";

/** Helm release of the vCluster; the chart names its StatefulSet and Service after it. */
export const releaseName = (tenant: string): string => tenant;

/** Secret the running vCluster writes its kubeconfig to (key `config`). */
export const kubeconfigSecretName = (release: string): string => `vc-${release}`;

/** Key of the kubeconfig in the vCluster's Secret. */
export const KUBECONFIG_SECRET_KEY = "config";

/** Public hostname of the tenant's API server. */
export const apiHostname = (tenant: string, baseDomain: string): string => `${tenant}.api.${baseDomain}`;

/** Domain under which the tenant's apps are published (`*.<appsDomain>`). */
export const appsDomain = (tenant: string, baseDomain: string): string => `${tenant}.apps.${baseDomain}`;

/** Port of the vCluster Service (it forwards to the API server's 8443). */
export const VCLUSTER_SERVICE_PORT = 443;

/** In-cluster host name of the vCluster Service (its API certificate covers it). */
export const inClusterApiHost = (release: string, namespace: string): string => `${release}.${namespace}.svc`;

/** In-cluster URL of the vCluster Service. */
export const inClusterApiUrl = (release: string, namespace: string): string =>
  `https://${inClusterApiHost(release, namespace)}:${VCLUSTER_SERVICE_PORT}`;

/** Prefix of the objects a tenant owns in the shared gateway namespace. */
export const gatewayObjectName = (tenant: string, role: "api" | "apps"): string => `kubespaces-${tenant}-${role}`;

/** Secret cert-manager writes the apps certificate to, in the gateway namespace. */
export const appsCertificateSecretName = (tenant: string): string => `${gatewayObjectName(tenant, "apps")}-tls`;
