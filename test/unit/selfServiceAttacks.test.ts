/**
 * What a self-service team might send to escape its namespace or its quota, each refused before
 * anything is registered, naming the field and the rule. (Plain invalid inputs are in
 * invalidInputs.test.ts.)
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { Tenant, TenantValidationError } from "../../provider/index";
import { installMocks, settle, type Registered } from "./support/pulumiMocks";

let registered: Registered[] = [];
beforeEach(() => {
  registered = installMocks();
});
afterEach(settle);

const owner = "mallory@example.com";
const exposure = { baseDomain: "example.com", issuerRef: { name: "letsencrypt" }, verifyCrds: false };
const overrides = (valuesOverrides: Record<string, unknown>) => ({ owner, vcluster: { valuesOverrides } });
const outsideAllowlist = (path: string) => `vcluster.valuesOverrides: sets paths outside the self-service allowlist: ${path}`;

interface Attack {
  readonly attack: string;
  readonly name?: string;
  readonly args: Record<string, unknown>;
  /** Fragments the error must contain: the field and the rule. */
  readonly refused: readonly string[];
}

const attacks: readonly Attack[] = [
  // Host permissions and what is handed back.
  { attack: "a ClusterRole for the syncer", args: overrides({ rbac: { clusterRole: { enabled: true } } }), refused: [outsideAllowlist("rbac.clusterRole.enabled")] },
  { attack: "the exported kubeconfig pointed elsewhere", args: overrides({ exportKubeConfig: { server: "https://evil.example" } }), refused: [outsideAllowlist("exportKubeConfig.server")] },
  { attack: "extra names on the API certificate", args: overrides({ controlPlane: { proxy: { extraSANs: ["api.bank.example"] } } }), refused: [outsideAllowlist("controlPlane.proxy.extraSANs")] },
  { attack: "the chart's own quota switched on to replace ours", args: overrides({ policies: { resourceQuota: { enabled: true } } }), refused: [outsideAllowlist("policies.resourceQuota.enabled")] },
  { attack: "a plugin container", args: overrides({ plugins: { miner: { image: "evil/miner" } } }), refused: [outsideAllowlist("plugins.miner.image")] },
  { attack: "experimental deploy hooks", args: overrides({ experimental: { deploy: { host: { manifests: "kind: ClusterRoleBinding" } } } }), refused: [outsideAllowlist("experimental.deploy.host.manifests")] },
  // The backing store and the control plane's pods.
  { attack: "the backing store's image", args: overrides({ controlPlane: { backingStore: { etcd: { deploy: { statefulSet: { image: { repository: "evil/etcd" } } } } } } }), refused: [outsideAllowlist("controlPlane.backingStore.etcd.deploy.statefulSet.image.repository")] },
  { attack: "the distro's image", args: overrides({ controlPlane: { distro: { k8s: { image: { repository: "evil/k8s" } } } } }), refused: [outsideAllowlist("controlPlane.distro.k8s.image.repository")] },
  { attack: "free-form API server flags", args: overrides({ controlPlane: { distro: { k8s: { apiServer: { extraArgs: ["--anonymous-auth=true"] } } } } }), refused: [outsideAllowlist("controlPlane.distro.k8s.apiServer.extraArgs")] },
  { attack: "a privileged security context", args: overrides({ controlPlane: { statefulSet: { security: { containerSecurityContext: { privileged: true } } } } }), refused: [outsideAllowlist("controlPlane.statefulSet.security.containerSecurityContext.privileged")] },
  { attack: "a system priority class", args: overrides({ controlPlane: { statefulSet: { scheduling: { priorityClassName: "system-node-critical" } } } }), refused: [outsideAllowlist("controlPlane.statefulSet.scheduling.priorityClassName")] },
  { attack: "the CPU limit removed through overrides", args: overrides({ controlPlane: { statefulSet: { resources: { limits: { cpu: null } } } } }), refused: [outsideAllowlist("controlPlane.statefulSet.resources.limits.cpu")] },
  { attack: "pod labels that match another policy's selector", args: overrides({ controlPlane: { statefulSet: { pods: { labels: { role: "gateway" } } } } }), refused: [outsideAllowlist("controlPlane.statefulSet.pods.labels.role")] },
  { attack: "pod annotations", args: overrides({ controlPlane: { statefulSet: { pods: { annotations: { "iam.amazonaws.com/role": "admin" } } } } }), refused: [outsideAllowlist("controlPlane.statefulSet.pods.annotations.iam.amazonaws.com/role")] },
  // Syncing objects that reach past the namespace.
  { attack: "Ingress sync (hostname hijack)", args: overrides({ sync: { toHost: { ingresses: { enabled: true } } } }), refused: [outsideAllowlist("sync.toHost.ingresses.enabled")] },
  { attack: "ServiceAccount sync (cloud identity annotations)", args: overrides({ sync: { toHost: { serviceAccounts: { enabled: true } } } }), refused: [outsideAllowlist("sync.toHost.serviceAccounts.enabled")] },
  { attack: "NetworkPolicy sync (an allow rule undoes the egress fence)", args: overrides({ sync: { toHost: { networkPolicies: { enabled: true } } } }), refused: [outsideAllowlist("sync.toHost.networkPolicies.enabled")] },
  { attack: "PodDisruptionBudget sync (blocks node drains)", args: overrides({ sync: { toHost: { podDisruptionBudgets: { enabled: true } } } }), refused: [outsideAllowlist("sync.toHost.podDisruptionBudgets.enabled")] },
  { attack: "reading the host's nodes", args: overrides({ sync: { fromHost: { nodes: { enabled: true, selector: { all: true } } } } }), refused: ["sync.fromHost.nodes.enabled"] },
  { attack: "replicating another namespace's Service in", args: overrides({ networking: { replicateServices: { fromHost: [{ from: "kube-system/secret-store", to: "default/store" }] } } }), refused: [outsideAllowlist("networking.replicateServices.fromHost")] },
  // Namespaces that are not the tenant's to take.
  { attack: "the kube-system namespace", args: { owner, targetNamespace: "kube-system" }, refused: ['targetNamespace: namespace "kube-system" is reserved'] },
  { attack: "the default namespace", args: { owner, targetNamespace: "default" }, refused: ['targetNamespace: namespace "default" is reserved'] },
  { attack: "another kube- namespace", args: { owner, targetNamespace: "kube-node-lease" }, refused: ['targetNamespace: namespace "kube-node-lease" is reserved'] },
  { attack: "the gateway's namespace", args: { owner, targetNamespace: "kubespaces-gateway", exposure }, refused: ['targetNamespace: namespace "kubespaces-gateway" is reserved'] },
  // Quotas that cannot hold the vCluster, or that ask for nothing.
  { attack: "a zero CPU quota", args: { owner, resources: { cpu: "0" } }, refused: ["resources.cpu: must be greater than zero"] },
  { attack: "a negative memory quota", args: { owner, resources: { memory: "-1Gi" } }, refused: ["resources.memory: must be greater than zero"] },
  { attack: "a zero default limit", args: { owner, limitRange: { defaultLimit: { cpu: "0" } } }, refused: ["limitRange.defaultLimit.cpu: must be greater than zero"] },
  { attack: "storage below the data volume", args: { owner, resources: { storage: "1Gi" } }, refused: ["resources.storage: 1Gi is less than the vCluster's data volumes request"] },
  { attack: "a data volume above the storage quota", args: overrides({ controlPlane: { statefulSet: { persistence: { volumeClaim: { size: "500Gi" } } } } }), refused: ["resources.storage: 20Gi is less than the vCluster's data volumes request"] },
  { attack: "a pod count too small for the vCluster", args: { owner, resources: { pods: 1 } }, refused: ["resources.pods: 1 is less than the vCluster itself needs (2)"] },
  { attack: "a Secret count too small for the vCluster and its release history", args: { owner, resources: { secrets: 2 } }, refused: ["resources.secrets: 2 is less than the vCluster itself needs"] },
  { attack: "control-plane replicas beyond the CPU quota", args: { owner, resources: { cpu: "2" }, vcluster: { valuesOverrides: { controlPlane: { statefulSet: { highAvailability: { replicas: 3 } } } } } }, refused: ["resources.cpu: 2 is less than the limits of the vCluster's own containers"] },
  { attack: "CoreDNS limits beyond the memory quota", args: { owner, resources: { memory: "2Gi" }, vcluster: { valuesOverrides: { controlPlane: { coredns: { deployment: { resources: { limits: { memory: "64Gi" } } } } } } } }, refused: ["resources.memory: 2Gi is less than the limits of the vCluster's own containers"] },
  // Names that break later.
  { attack: "a tenant name that cannot name a Service", name: "1team", args: { owner }, refused: ['name: must start with a letter (it names the vCluster\'s Service), got "1team"'] },
];

it.each(attacks)("refuses $attack, naming field and rule, registering nothing", async ({ name = "team-mallory", args, refused }) => {
  let error: unknown;
  try {
    new Tenant(name, args as never);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(TenantValidationError);
  for (const fragment of refused) expect((error as Error).message).toContain(fragment);
  await settle();
  expect(registered).toEqual([]);
});
