/**
 * A tenant's identity on the host: its vCluster's ServiceAccount `vc-<release>`, which the control
 * plane runs as (the test bed mounts a token of it, test/testbed/lib/vclusterPod.sh) and which
 * creates everything the tenant's virtual cluster syncs to the host. What a team does inside its
 * virtual cluster reaches the host only as this identity; the team's own kubeconfig is refused
 * there (virtualCluster.test.ts).
 */
import { AuthorizationV1Api, KubeConfig, type V1ResourceAttributes } from "@kubernetes/client-node";
import { hostClients } from "./hostCluster";

/** A kubeconfig of tenant `release`'s host ServiceAccount in `namespace`, from a token the admin requests (`kubectl create token`). */
export async function tenantHostIdentity(namespace: string, release: string): Promise<KubeConfig> {
  const { config, core } = hostClients();
  const token = await core.createNamespacedServiceAccountToken({
    name: `vc-${release}`,
    namespace,
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  const cluster = config.getCurrentCluster()!;
  const identity = new KubeConfig();
  identity.loadFromOptions({
    clusters: [{ ...cluster, name: "host" }],
    users: [{ name: `vc-${release}`, token: token.status?.token }],
    contexts: [{ name: "tenant", cluster: "host", user: `vc-${release}`, namespace }],
    currentContext: "tenant",
  });
  return identity;
}

/** `kubectl auth can-i` as `identity`: the same SelfSubjectAccessReview it sends. */
export async function canI(identity: KubeConfig, attributes: V1ResourceAttributes): Promise<boolean> {
  const review = await identity.makeApiClient(AuthorizationV1Api).createSelfSubjectAccessReview({
    body: {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: { resourceAttributes: attributes },
    },
  });
  return review.status?.allowed === true;
}
