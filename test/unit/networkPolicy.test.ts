/**
 * The tenant's NetworkPolicies' meaning, evaluated against a table of peers (no CNI on the test bed
 * enforces them), for its workloads and for its vCluster control plane, and their exact rendered
 * shape once.
 */
import { describe, expect, it } from "vitest";
import { renderTenant, validateTenant, type TenantSpec } from "../../provider/index";
import { DEFAULT_INTERNET_EXCEPT_CIDRS } from "../../provider/model/networkDefaults";
import type { Manifest } from "../../provider/render/manifest";
import { allowsAmong, type Peer, type Traffic } from "./support/networkPolicyEvaluator";

const exposedSpec = validateTenant("team-atlas", {
  owner: "alice@example.com",
  platform: { exposure: { baseDomain: "kubespaces.example.com", issuerRef: { name: "letsencrypt" } } },
});
const plainSpec = validateTenant("team-atlas", { owner: "alice@example.com" });

/** Every NetworkPolicy the tenant renders. */
const networkPolicies = (spec: TenantSpec): Manifest[] =>
  renderTenant(spec)
    .objects.map((object) => object.manifest)
    .filter((manifest) => manifest.kind === "NetworkPolicy");
const policies = { exposed: networkPolicies(exposedSpec), "not exposed": networkPolicies(plainSpec) };

/** The pods of the tenant namespace a connection starts or ends at, by their labels. */
const SUBJECTS = {
  // A team's pod, synced by the vCluster: vCluster rewrites its `release` label (and marks it).
  workload: { app: "web", "vcluster.loft.sh/managed-by": "team-atlas", "vcluster.loft.sh/namespace": "default" },
  // The chart's control plane pod.
  "control plane": { app: "vcluster", release: "team-atlas", "statefulset.kubernetes.io/pod-name": "team-atlas-0" },
  // A team's pod labelled app=vcluster and release=team-atlas inside the virtual cluster: vCluster
  // translates the release label on the host, so it cannot pass for the control plane.
  "workload posing as the control plane": {
    app: "vcluster",
    "vcluster.loft.sh/label-team-atlas-x-a172cedcae": "team-atlas",
    "vcluster.loft.sh/managed-by": "team-atlas",
  },
} as const;
type Subject = keyof typeof SUBJECTS;

/** A pod in `namespace`, whose namespace carries the standard name label plus `namespaceLabels`. */
const pod = (
  namespace: string,
  ip: string,
  labels: Record<string, string> = {},
  namespaceLabels: Record<string, string> = {},
): Peer => ({
  pod: { namespace, ip, labels, namespaceLabels: { "kubernetes.io/metadata.name": namespace, ...namespaceLabels } },
});
const ip = (address: string): Peer => ({ ip: address });
const isIpv6 = (cidr: string) => cidr.includes(":");

const ownPod = pod(
  "kubespaces-tenant-team-atlas",
  "10.244.1.10",
  { app: "web" },
  { "kubespaces.io/tenant": "team-atlas" },
);
const ownOtherNamespacePod = pod("team-atlas-extra", "10.244.1.11", {}, { "kubespaces.io/tenant": "team-atlas" });
const otherTenantPod = pod(
  "kubespaces-tenant-team-zeus",
  "10.244.2.20",
  { app: "web" },
  { "kubespaces.io/tenant": "team-zeus" },
);
const kubeDns = pod("kube-system", "10.244.0.5", { "k8s-app": "kube-dns" });
const kubeSystemOther = pod("kube-system", "10.244.0.6", { "k8s-app": "metrics-server" });
const impostorDns = pod(
  "kubespaces-tenant-team-zeus",
  "10.244.2.53",
  { "k8s-app": "kube-dns" },
  { "kubespaces.io/tenant": "team-zeus" },
);
const gatewayPod = pod("kubespaces-gateway", "10.244.0.30", { app: "envoy" });

type Verdict = "allowed" | "denied";
interface Row {
  readonly description: string;
  readonly direction: Traffic["direction"];
  readonly peer: Peer;
  readonly protocol: Traffic["protocol"];
  readonly port: number;
  readonly exposed: Verdict;
  readonly notExposed: Verdict;
  readonly subject: Subject;
}
const row = (
  description: string,
  direction: Traffic["direction"],
  peer: Peer,
  protocol: Traffic["protocol"],
  port: number,
  exposed: Verdict,
  notExposed: Verdict = exposed,
  subject: Subject = "workload",
): Row => ({
  description,
  direction,
  peer,
  protocol,
  port,
  exposed,
  notExposed,
  subject,
});
/** A row of the control plane's own connections. */
const controlPlaneRow = (
  description: string,
  peer: Peer,
  port: number,
  verdict: Verdict,
  subject: Subject = "control plane",
): Row => row(description, "Egress", peer, "TCP", port, verdict, verdict, subject);

const TABLE: readonly Row[] = [
  // DNS
  row("DNS over UDP to kube-dns", "Egress", kubeDns, "UDP", 53, "allowed"),
  row("DNS over TCP to kube-dns", "Egress", kubeDns, "TCP", 53, "allowed"),
  row("kube-dns on a port other than 53", "Egress", kubeDns, "TCP", 9153, "denied"),
  row("DNS to another kube-system pod", "Egress", kubeSystemOther, "UDP", 53, "denied"),
  row("DNS to a kube-dns-labelled pod outside kube-system", "Egress", impostorDns, "UDP", 53, "denied"),
  row("ingress from kube-dns (no longer admitted)", "Ingress", kubeDns, "TCP", 8443, "denied"),
  // The tenant's own namespaces
  row("own namespace, egress", "Egress", ownPod, "TCP", 8080, "allowed"),
  row("own namespace, ingress", "Ingress", ownPod, "TCP", 8443, "allowed"),
  row("another namespace labelled for the tenant, egress", "Egress", ownOtherNamespacePod, "UDP", 5000, "allowed"),
  row("another namespace labelled for the tenant, ingress", "Ingress", ownOtherNamespacePod, "TCP", 80, "allowed"),
  // Other tenants
  row("another tenant's vCluster API (8443), egress", "Egress", otherTenantPod, "TCP", 8443, "denied"),
  row("another tenant's pod on 80, egress", "Egress", otherTenantPod, "TCP", 80, "denied"),
  row("another tenant's pod, ingress", "Ingress", otherTenantPod, "TCP", 8443, "denied"),
  row("another tenant's pod on 443, ingress", "Ingress", otherTenantPod, "TCP", 443, "denied"),
  // Gateway
  row("gateway namespace, ingress", "Ingress", gatewayPod, "TCP", 8443, "allowed", "denied"),
  row("gateway namespace, egress to an app port", "Egress", gatewayPod, "TCP", 8080, "denied"),
  // Host API server: the vCluster control plane only (the default ranges: where an endpoint may be)
  controlPlaneRow("host API server endpoint 10.0.0.1:6443 (kubeadm node)", ip("10.0.0.1"), 6443, "allowed"),
  controlPlaneRow("host API server endpoint 172.18.0.2:6443 (kind)", ip("172.18.0.2"), 6443, "allowed"),
  controlPlaneRow("host API server endpoint 192.168.10.4:443 (managed)", ip("192.168.10.4"), 443, "allowed"),
  controlPlaneRow("`kubernetes` Service ClusterIP 10.96.0.1:443 (pre-DNAT CNIs)", ip("10.96.0.1"), 443, "allowed"),
  controlPlaneRow("a node's kubelet 10.0.0.12:10250", ip("10.0.0.12"), 10250, "denied"),
  controlPlaneRow("a node's NodePort 10.0.0.12:30080", ip("10.0.0.12"), 30080, "denied"),
  controlPlaneRow("cloud metadata 169.254.169.254:443", ip("169.254.169.254"), 443, "denied"),
  controlPlaneRow("workload: host API server endpoint 10.0.0.1:6443", ip("10.0.0.1"), 6443, "denied", "workload"),
  controlPlaneRow("workload: host API server endpoint 192.168.10.4:443", ip("192.168.10.4"), 443, "denied", "workload"),
  controlPlaneRow("workload: `kubernetes` Service ClusterIP 10.96.0.1:443", ip("10.96.0.1"), 443, "denied", "workload"),
  controlPlaneRow("workload: a private service 10.5.6.7:443", ip("10.5.6.7"), 443, "denied", "workload"),
  controlPlaneRow(
    "workload labelled as the control plane: host API server 10.0.0.1:6443",
    ip("10.0.0.1"),
    6443,
    "denied",
    "workload posing as the control plane",
  ),
  // Nodes
  row("node IP 10.0.0.12, kubelet 10250", "Egress", ip("10.0.0.12"), "TCP", 10250, "denied"),
  row("node IP 10.0.0.12, SSH 22", "Egress", ip("10.0.0.12"), "TCP", 22, "denied"),
  row("node IP 10.0.0.12, NodePort 30080", "Egress", ip("10.0.0.12"), "TCP", 30080, "denied"),
  row("kind node IP 172.18.0.2, kubelet 10250", "Egress", ip("172.18.0.2"), "TCP", 10250, "denied"),
  row("node IP 192.168.10.4, NodePort 30080", "Egress", ip("192.168.10.4"), "TCP", 30080, "denied"),
  row("API server port over UDP", "Egress", ip("10.0.0.1"), "UDP", 6443, "denied"),
  // Metadata and special ranges
  row("cloud metadata 169.254.169.254:80", "Egress", ip("169.254.169.254"), "TCP", 80, "denied"),
  row("cloud metadata 169.254.169.254:443 (not the API server)", "Egress", ip("169.254.169.254"), "TCP", 443, "denied"),
  row("NodeLocal DNSCache 169.254.20.10:53", "Egress", ip("169.254.20.10"), "UDP", 53, "denied"),
  row("Alibaba metadata 100.100.100.200:80 (CGNAT)", "Egress", ip("100.100.100.200"), "TCP", 80, "denied"),
  row("CGNAT pod network 100.64.3.4:8080", "Egress", ip("100.64.3.4"), "TCP", 8080, "denied"),
  row("Azure host endpoint 168.63.129.16:80", "Egress", ip("168.63.129.16"), "TCP", 80, "denied"),
  row("AWS IPv6 metadata [fd00:ec2::254]:80", "Egress", ip("fd00:ec2::254"), "TCP", 80, "denied"),
  row("IPv6 link-local [fe80::1]:80", "Egress", ip("fe80::1"), "TCP", 80, "denied"),
  // Internet
  row("8.8.8.8:443", "Egress", ip("8.8.8.8"), "TCP", 443, "allowed"),
  row("public DNS 1.1.1.1 over UDP 53", "Egress", ip("1.1.1.1"), "UDP", 53, "allowed"),
  row("public IPv4 on any port, 203.0.113.7:5432", "Egress", ip("203.0.113.7"), "TCP", 5432, "allowed"),
  row("public IPv6 [2001:4860:4860::8888]:443", "Egress", ip("2001:4860:4860::8888"), "TCP", 443, "allowed"),
  row("ingress from the internet, 8.8.8.8", "Ingress", ip("8.8.8.8"), "TCP", 443, "denied"),
  row("ingress from a node, 10.0.0.12", "Ingress", ip("10.0.0.12"), "TCP", 8443, "denied"),
];

const CASES = TABLE.flatMap((r) => [
  { ...r, tenant: "exposed" as const, expected: r.exposed },
  { ...r, tenant: "not exposed" as const, expected: r.notExposed },
]);

describe("the tenant's NetworkPolicies, evaluated", () => {
  it.each(CASES)(
    "$tenant tenant, $subject: $direction $description is $expected",
    ({ tenant, subject, direction, peer, protocol, port, expected }) => {
      const traffic = { direction, peer, protocol, port };
      const verdict: Verdict = allowsAmong(policies[tenant], SUBJECTS[subject], traffic) ? "allowed" : "denied";
      expect(verdict).toBe(expected);
    },
  );

  it("keeps a workload off another tenant's pod on 443; the control plane's API server rule admits it, and that tenant's ingress refuses it", () => {
    // The default API server ranges are the private ones, pod IPs included: for the control plane,
    // the other tenant's own policy is what stops the connection.
    const zeus = networkPolicies(validateTenant("team-zeus", { owner: "bob@example.com" }));
    const toZeus = { direction: "Egress", peer: otherTenantPod, protocol: "TCP", port: 443 } as const;
    const fromAtlas = { direction: "Ingress", peer: ownPod, protocol: "TCP", port: 443 } as const;
    expect({
      workloadEgress: allowsAmong(policies["not exposed"], SUBJECTS.workload, toZeus),
      controlPlaneEgress: allowsAmong(policies["not exposed"], SUBJECTS["control plane"], toZeus),
      zeusIngress: allowsAmong(zeus, { app: "web" }, fromAtlas),
    }).toEqual({ workloadEgress: false, controlPlaneEgress: true, zeusIngress: false });
  });
});

describe("the tenant's NetworkPolicies, rendered", () => {
  it("are exactly these for an exposed tenant", () => {
    expect(policies.exposed[0]).toEqual({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: {
        name: "kubespaces-isolation",
        namespace: "kubespaces-tenant-team-atlas",
        labels: { "kubespaces.io/tenant": "team-atlas", "app.kubernetes.io/managed-by": "kubespaces-pulumi" },
      },
      spec: {
        podSelector: {},
        policyTypes: ["Ingress", "Egress"],
        ingress: [
          {
            from: [
              { namespaceSelector: { matchLabels: { "kubespaces.io/tenant": "team-atlas" } } },
              { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kubespaces-gateway" } } },
            ],
          },
        ],
        egress: [
          {
            to: [
              {
                namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } },
                podSelector: { matchLabels: { "k8s-app": "kube-dns" } },
              },
            ],
            ports: [
              { protocol: "UDP", port: 53 },
              { protocol: "TCP", port: 53 },
            ],
          },
          { to: [{ namespaceSelector: { matchLabels: { "kubespaces.io/tenant": "team-atlas" } } }] },
          {
            // networkDefaults.ts's ranges (each kept out by a row of the table above), split by
            // address family.
            to: [
              { ipBlock: { cidr: "0.0.0.0/0", except: DEFAULT_INTERNET_EXCEPT_CIDRS.filter((cidr) => !isIpv6(cidr)) } },
              { ipBlock: { cidr: "::/0", except: DEFAULT_INTERNET_EXCEPT_CIDRS.filter(isIpv6) } },
            ],
          },
        ],
      },
    });
    expect(policies.exposed[1]).toEqual({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: {
        name: "kubespaces-control-plane",
        namespace: "kubespaces-tenant-team-atlas",
        labels: { "kubespaces.io/tenant": "team-atlas", "app.kubernetes.io/managed-by": "kubespaces-pulumi" },
      },
      spec: {
        // The chart's labels on the control plane's pods; vCluster rewrites `release` on synced pods.
        podSelector: { matchLabels: { app: "vcluster", release: "team-atlas" } },
        policyTypes: ["Egress"],
        egress: [
          {
            to: [
              { ipBlock: { cidr: "10.0.0.0/8" } },
              { ipBlock: { cidr: "172.16.0.0/12" } },
              { ipBlock: { cidr: "192.168.0.0/16" } },
              { ipBlock: { cidr: "fc00::/7" } },
            ],
            ports: [
              { protocol: "TCP", port: 443 },
              { protocol: "TCP", port: 6443 },
            ],
          },
        ],
      },
    });
  });

  it("differ for a tenant that is not exposed only by the gateway peer", () => {
    const exposedPolicySpec = policies.exposed[0].spec as { ingress: { from: unknown[] }[] };
    expect(policies["not exposed"]).toEqual([
      {
        ...policies.exposed[0],
        spec: { ...exposedPolicySpec, ingress: [{ from: [exposedPolicySpec.ingress[0].from[0]] }] },
      },
      policies.exposed[1],
    ]);
  });
});
