/**
 * What every language's end-to-end run asserts about a tenant on the host, written once: the
 * TypeScript lifecycle suite and the Python suite both call these.
 */
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { expect } from "vitest";
import { eventually, hostClients, objectsLabelledFor, readOrUndefined } from "./hostCluster";
import { vclusterEndpoint } from "./testbed";

/** Every kind a tenant may leave labelled objects of, namespaced or not. */
export const LABELLED_KINDS = [
  { apiVersion: "v1", kind: "Namespace" },
  { apiVersion: "v1", kind: "ResourceQuota" },
  { apiVersion: "v1", kind: "LimitRange" },
  { apiVersion: "v1", kind: "Secret" },
  { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy" },
  { apiVersion: "gateway.networking.k8s.io/v1", kind: "TLSRoute" },
  { apiVersion: "gateway.networking.k8s.io/v1", kind: "ReferenceGrant" },
  { apiVersion: "gateway.networking.k8s.io/v1", kind: "ListenerSet" },
  { apiVersion: "cert-manager.io/v1", kind: "Certificate" },
  // cert-manager gives a Certificate's requests its labels (and the Certificate as their owner).
  { apiVersion: "cert-manager.io/v1", kind: "CertificateRequest" },
];

/** The host namespace of a tenant with the default namespace. */
export const tenantNamespace = (tenant: string): string => `kubespaces-tenant-${tenant}`;

/** The tenant's namespace, quota and kubeconfig Secret exist as declared, and its workload runs. */
export async function expectTenantOnHost(tenant: string, owner: string, hard: Record<string, string>): Promise<void> {
  const { core } = hostClients();
  const namespace = tenantNamespace(tenant);
  const ns = await core.readNamespace({ name: namespace });
  expect(ns.metadata?.labels).toMatchObject({
    "kubespaces.io/tenant": tenant,
    "pod-security.kubernetes.io/enforce": "restricted",
  });
  expect(ns.metadata?.annotations?.["kubespaces.io/owner"]).toBe(owner);
  const quota = await core.readNamespacedResourceQuota({ name: "kubespaces-quota", namespace });
  expect(quota.spec?.hard).toEqual(hard);
  const secret = await core.readNamespacedSecret({ name: `vc-${tenant}`, namespace });
  expect(Object.keys(secret.data ?? {})).toEqual(
    expect.arrayContaining(["config", "certificate-authority", "client-certificate", "client-key", "token"]),
  );
  // Written by the running vCluster itself: labelled, and owned by the release's Service, as it does.
  expect(secret.metadata?.labels).toMatchObject({ app: "vcluster", "vcluster-name": tenant });
  expect(secret.metadata?.ownerReferences?.map((o) => `${o.kind}/${o.name}`)).toEqual([`Service/${tenant}`]);
  const workload = await readWorkload(tenant);
  expect(workload.status?.readyReplicas).toBe(1);
}

/** The release's workload: the chart renders a StatefulSet with persistence on, a Deployment with it off. */
export async function readWorkload(tenant: string) {
  const { apps } = hostClients();
  const namespace = tenantNamespace(tenant);
  return (
    (await readOrUndefined(() => apps.readNamespacedStatefulSet({ name: tenant, namespace }))) ??
    (await apps.readNamespacedDeployment({ name: tenant, namespace }))
  );
}

/** The status output of a ready tenant, as the operator reports it. */
export function expectReadyStatus(status: unknown): void {
  expect(status).toMatchObject({
    phase: "Ready",
    conditions: [{ type: "Ready", status: "True", reason: "Provisioned" }],
  });
}

/**
 * The handed-back kubeconfig as a user reaches the virtual cluster through a port-forward: the
 * server is the control plane's loopback port on this machine (the public name does not resolve
 * on the test bed), and TLS still checks the name the kubeconfig carries.
 */
export function forwardedKubeconfig(kubeconfig: string, tenant: string): KubeConfig {
  const handedBack = new KubeConfig();
  handedBack.loadFromString(kubeconfig);
  const cluster = handedBack.getCurrentCluster()!;
  const serverName = new URL(cluster.server).hostname;
  handedBack.clusters = [
    { ...cluster, server: vclusterEndpoint(tenantNamespace(tenant), tenant), tlsServerName: serverName },
  ];
  return handedBack;
}

/**
 * The handed-back kubeconfig names the tenant, points at `server`, and opens the tenant's own
 * virtual cluster: its namespaces are listed, the host's are not there.
 */
export async function expectWorkingKubeconfig(kubeconfig: string, tenant: string, server: string): Promise<void> {
  const handedBack = new KubeConfig();
  handedBack.loadFromString(kubeconfig);
  expect(handedBack.getCurrentContext()).toBe(tenant);
  expect(handedBack.getCurrentCluster()?.server).toBe(server);
  const namespaces = await forwardedKubeconfig(kubeconfig, tenant).makeApiClient(CoreV1Api).listNamespace();
  const names = namespaces.items.map((n) => n.metadata?.name);
  expect(names).toEqual(expect.arrayContaining(["default", "kube-system"]));
  expect(names).not.toContain(tenantNamespace(tenant));
  expect(names).not.toContain("kubespaces-gateway");
}

/** Stored state holds secrets only as ciphertext: no private key, no kubeconfig bytes. */
export function expectNoPlaintextKubeconfig(storedState: string, kubeconfig: string): void {
  const handedBack = new KubeConfig();
  handedBack.loadFromString(kubeconfig);
  const key = handedBack.getCurrentUser()?.keyData;
  expect(key).toBeTruthy();
  expect(storedState).toContain("ciphertext");
  expect(storedState).not.toContain("client-key-data");
  expect(storedState).not.toContain(key as string);
}

/** After teardown: the namespace is gone and nothing labelled for the tenant is left anywhere. */
export async function expectNothingLeft(tenant: string): Promise<void> {
  const { core } = hostClients();
  const name = tenantNamespace(tenant);
  await eventually(
    async () => (await readOrUndefined(() => core.readNamespace({ name }))) === undefined,
    120_000,
    `namespace ${name} to be gone`,
  );
  expect(await objectsLabelledFor(tenant, LABELLED_KINDS)).toEqual([]);
  const releaseSecrets = await core.listSecretForAllNamespaces({ labelSelector: `owner=helm,name=${tenant}` });
  expect(releaseSecrets.items).toEqual([]);
}
