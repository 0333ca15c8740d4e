/**
 * Answers "does this NetworkPolicy let this traffic through" by the Kubernetes NetworkPolicy rules,
 * for tests: no CNI on the test bed enforces policies. It models only the subset the tenant policy
 * uses, and throws on anything else rather than guess: matchLabels (no matchExpressions), numeric
 * ports with optional endPort, ipBlock with except, explicit policyTypes. `allows` takes the subject
 * pod as selected; `allowsAmong` asks which policies of its namespace select it.
 *
 * Semantics: a direction not in policyTypes is not isolated (allowed). Otherwise some rule must
 * match; a rule matches when one of its peers matches (no peers: every peer) and one of its ports
 * matches (no ports: every port). Inside one peer, namespaceSelector and podSelector are ANDed; a
 * podSelector alone means the policy's own namespace. An ipBlock matches an address in its CIDR and
 * in none of its excepts (same IP family only); it also matches a pod whose address is given.
 * Several policies add up: a pod is isolated in a direction when any policy selecting it has that
 * type, and then any of those policies may admit the connection.
 */
import { BlockList, isIP } from "node:net";
import type { Manifest } from "../../../provider/render/manifest";

/** The other end of a connection: a pod (with its namespace's labels) or a bare address. */
export type Peer =
  | {
      readonly pod: {
        readonly namespace: string;
        readonly namespaceLabels: Record<string, string>;
        readonly labels: Record<string, string>;
        readonly ip?: string;
      };
    }
  | { readonly ip: string };

/** The connection: its direction, seen from the policy's pods, and its destination port. */
export interface Traffic {
  readonly direction: "Ingress" | "Egress";
  readonly peer: Peer;
  readonly protocol: "TCP" | "UDP" | "SCTP";
  readonly port: number;
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: unknown[];
}
interface PolicyPeer {
  namespaceSelector?: LabelSelector;
  podSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}
interface PolicyRule {
  from?: PolicyPeer[];
  to?: PolicyPeer[];
  ports?: PolicyPort[];
}

function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
  if (selector.matchExpressions?.length) throw new Error("matchExpressions is not modelled");
  return Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
}

function inCidr(ip: string, cidr: string): boolean {
  const [address, bits] = cidr.split("/");
  const family = isIP(address);
  if (family === 0 || isIP(ip) !== family) return false; // BlockList would map IPv4 into IPv6
  const list = new BlockList();
  list.addSubnet(address, Number(bits), family === 4 ? "ipv4" : "ipv6");
  return list.check(ip, family === 4 ? "ipv4" : "ipv6");
}

function peerMatches(peer: PolicyPeer, traffic: Traffic, policyNamespace: string | undefined): boolean {
  const { peer: other } = traffic;
  if (peer.ipBlock) {
    const ip = "ip" in other ? other.ip : other.pod.ip;
    if (ip === undefined) return false;
    return inCidr(ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((cidr) => inCidr(ip, cidr));
  }
  if (!("pod" in other)) return false; // selectors only ever match pods
  const { pod } = other;
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, pod.namespaceLabels)
    : pod.namespace === policyNamespace;
  const podOk = peer.podSelector ? selects(peer.podSelector, pod.labels) : true;
  return namespaceOk && podOk;
}

function portMatches(port: PolicyPort, traffic: Traffic): boolean {
  if ((port.protocol ?? "TCP") !== traffic.protocol) return false;
  if (port.port === undefined) return true;
  if (typeof port.port !== "number") throw new Error("named ports are not modelled");
  return traffic.port >= port.port && traffic.port <= (port.endPort ?? port.port);
}

/** True when `policy` admits `traffic` to or from the pods it selects. */
export function allows(policy: Manifest, traffic: Traffic): boolean {
  const spec = policy.spec as { policyTypes?: string[]; ingress?: PolicyRule[]; egress?: PolicyRule[] };
  if (!spec.policyTypes) throw new Error("a policy without policyTypes is not modelled");
  if (!spec.policyTypes.includes(traffic.direction)) return true; // that direction is not isolated
  const rules = (traffic.direction === "Ingress" ? spec.ingress : spec.egress) ?? [];
  return rules.some((rule) => {
    const peers = traffic.direction === "Ingress" ? rule.from : rule.to;
    const peerOk = !peers?.length || peers.some((peer) => peerMatches(peer, traffic, policy.metadata.namespace));
    const portOk = !rule.ports?.length || rule.ports.some((port) => portMatches(port, traffic));
    return peerOk && portOk;
  });
}

/**
 * True when the policies of one namespace, `policies`, admit `traffic` to or from its pod labelled
 * `subjectLabels`: only those whose podSelector selects the pod apply.
 */
export function allowsAmong(
  policies: readonly Manifest[],
  subjectLabels: Record<string, string>,
  traffic: Traffic,
): boolean {
  const applying = policies.filter((policy) => {
    const spec = policy.spec as { podSelector: LabelSelector; policyTypes?: string[] };
    if (!spec.policyTypes) throw new Error("a policy without policyTypes is not modelled");
    return selects(spec.podSelector, subjectLabels) && spec.policyTypes.includes(traffic.direction);
  });
  return applying.length === 0 || applying.some((policy) => allows(policy, traffic));
}
