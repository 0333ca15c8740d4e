/**
 * The Kubernetes multi-tenancy benchmarks' 19 level-1 and level-2 checks (MTB:
 * kubernetes-sigs/multi-tenancy, benchmarks/kubectl-mtb), written from their published audits as
 * the requests `kubectl auth can-i` and `kubectl create --dry-run=server` send. Each runs as a
 * tenant's identity on the host (support/tenantIdentity.ts), and the self-service ones also inside
 * the tenant's virtual cluster. multiTenancyBenchmarks.test.ts runs them.
 */
import { execFileSync } from "node:child_process";
import {
  CoreV1Api,
  KubeConfig,
  NetworkingV1Api,
  RbacAuthorizationV1Api,
  type V1Pod,
  type V1PodSpec,
  type V1Service,
} from "@kubernetes/client-node";
import { RESTRICTED_CONTAINER_SECURITY, RESTRICTED_POD_SECURITY } from "../../../provider/render/vclusterValues";
import { uncappedObjectKinds } from "../../expected/multiTenancyObjectLimits";
import { hostClients } from "./hostCluster";
import { canI } from "./tenantIdentity";
import { testbedEnv } from "./testbed";

/** The verbs MTB asks `kubectl auth can-i` about. */
const ALL_VERBS = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"] as const;

/** A tenant as the checks see it. */
export interface TenantUnderTest {
  /** The tenant's name, its vCluster's release. */
  readonly name: string;
  /** Its host namespace. */
  readonly namespace: string;
  /** The other tenant's host namespace. */
  readonly otherNamespace: string;
  /** The tenant's identity on the host. */
  readonly host: KubeConfig;
  /** The team's kubeconfig of its virtual cluster. */
  readonly inside: KubeConfig;
}

/** What a check found. */
export interface Outcome {
  /** The check's verdict as MTB states it. */
  readonly verdict: "pass" | "fail";
  /** What was seen. */
  readonly detail: string;
  /** For a kept design choice: whether the behaviour docs/policy.md documents holds. */
  readonly documented?: boolean;
}

/** One MTB check. */
export interface Check {
  /** MTB's id. */
  readonly id: string;
  /** MTB's title. */
  readonly title: string;
  /** The verdict expected under both policies once the fence holds, and why when it is a fail. */
  readonly expected: "pass" | { readonly fail: string };
  /** Carries the check out on `tenant`. */
  readonly run: (tenant: TenantUnderTest) => Promise<Outcome>;
}

const { core, config: admin } = hostClients();

// --- what the checks are made of ---------------------------------------------------------------

/** Every resource of one scope, as `kubectl api-resources` names them (`<resource>[.<group>]`) for the admin. */
const apiResources = memoized((namespaced: boolean): { resource: string; group: string }[] => {
  const names = execFileSync(
    "kubectl",
    ["--kubeconfig", testbedEnv().KUBECONFIG, "api-resources", `--namespaced=${namespaced}`, "-o", "name"],
    { encoding: "utf8" },
  );
  return names
    .split("\n")
    .filter(Boolean)
    .map((name) => {
      const dot = name.indexOf(".");
      return dot < 0 ? { resource: name, group: "" } : { resource: name.slice(0, dot), group: name.slice(dot + 1) };
    });
});

function memoized<K, V>(compute: (key: K) => V): (key: K) => V {
  const known = new Map<K, V>();
  return (key) => {
    if (!known.has(key)) known.set(key, compute(key));
    return known.get(key)!;
  };
}

/** The reviews of `verbs` on `resources` that `identity` is allowed, as `verb resource[.group]`. */
async function allowedOf(
  identity: KubeConfig,
  resources: readonly { resource: string; group: string; name?: string }[],
  verbs: readonly string[],
  namespace?: string,
): Promise<string[]> {
  const reviews = resources.flatMap((r) => verbs.map((verb) => ({ ...r, verb })));
  const allowed: string[] = [];
  // A few at a time: hundreds of reviews, each a small request.
  for (let i = 0; i < reviews.length; i += 16) {
    const batch = reviews.slice(i, i + 16);
    const answers = await Promise.all(batch.map((review) => canI(identity, { ...review, namespace })));
    batch.forEach((review, j) => {
      const what = `${review.resource}${review.group ? `.${review.group}` : ""}${review.name ? `/${review.name}` : ""}`;
      if (answers[j]) allowed.push(`${review.verb} ${what}`);
    });
  }
  return allowed;
}

const outcome = (pass: boolean, detail: string, documented?: boolean): Outcome => ({
  verdict: pass ? "pass" : "fail",
  detail,
  ...(documented !== undefined && { documented }),
});

/** Whether the host refuses what `create` sends with dryRun=All, as admission (403) and not as an invalid object. */
async function refusedByAdmission(create: () => Promise<unknown>): Promise<{ refused: boolean; why: string }> {
  try {
    await create();
    return { refused: false, why: "admitted" };
  } catch (error) {
    const { code, body } = error as { code?: number; body?: unknown };
    const message = statusMessage(body) ?? String(error);
    if (code !== 403)
      throw new Error(`the probe itself was refused (${code}), not by admission: ${message}`, { cause: error });
    return { refused: true, why: message.replace(/^.*?forbidden: /, "") };
  }
}

/** The message of a Kubernetes Status, as an ApiException carries it (its text or parsed). */
function statusMessage(body: unknown): string | undefined {
  if (typeof body === "object" && body !== null) return (body as { message?: string }).message;
  if (typeof body !== "string") return undefined;
  try {
    return (JSON.parse(body) as { message?: string }).message;
  } catch {
    return body;
  }
}

/** Runs `check` on `tenant`; a check that cannot run is a fail that says why. */
export async function runCheck(check: Check, tenant: TenantUnderTest): Promise<Outcome> {
  try {
    return await check.run(tenant);
  } catch (error) {
    return { verdict: "fail", detail: `could not run: ${(error as Error).message.split("\n")[0]}` };
  }
}

/** A pod that passes Pod Security `restricted` and the tenant's quota: each behavioural check changes one thing. */
export function probePod(change: (spec: V1PodSpec) => void = () => {}): V1Pod {
  const spec: V1PodSpec = structuredClone({
    securityContext: RESTRICTED_POD_SECURITY,
    containers: [
      {
        name: "probe",
        image: "busybox",
        command: ["sleep", "3600"],
        securityContext: RESTRICTED_CONTAINER_SECURITY,
      },
    ],
  });
  change(spec);
  return { apiVersion: "v1", kind: "Pod", metadata: { name: "mtb-probe" }, spec };
}

/** The tenant's dry-run create of `pod` in its namespace: pass when the host refuses it. */
async function podRefused(tenant: TenantUnderTest, ...pods: V1Pod[]): Promise<Outcome> {
  const api = tenant.host.makeApiClient(CoreV1Api);
  const results = [];
  for (const body of pods)
    results.push(
      await refusedByAdmission(() => api.createNamespacedPod({ namespace: tenant.namespace, body, dryRun: "All" })),
    );
  return outcome(
    results.every((r) => r.refused),
    results.map((r) => r.why).join("; "),
  );
}

const container = (spec: V1PodSpec) => spec.containers[0];

// --- the 19 checks ---------------------------------------------------------------------------------

/** Reviews every signed-in identity may make about itself (system:basic-user): no access to anything. */
const SELF_REVIEWS = new Set([
  "create selfsubjectaccessreviews.authorization.k8s.io",
  "create selfsubjectrulesreviews.authorization.k8s.io",
  "create selfsubjectreviews.authentication.k8s.io",
]);

async function quotaHard(tenant: TenantUnderTest): Promise<Record<string, string>> {
  const quotas = await core.listNamespacedResourceQuota({ namespace: tenant.namespace });
  return Object.assign({}, ...quotas.items.map((quota) => quota.spec?.hard ?? {}));
}

/** The 19 checks, in MTB's order of its config files. */
export const MULTI_TENANCY_CHECKS: readonly Check[] = [
  {
    id: "MTB-PL1-CC-CPI-1",
    title: "Block access to cluster resources",
    expected: "pass",
    async run(tenant) {
      const allowed = await allowedOf(tenant.host, apiResources(false), ALL_VERBS);
      const beyond = allowed.filter((review) => !SELF_REVIEWS.has(review));
      return outcome(
        beyond.length === 0,
        beyond.length === 0 ? "no cluster resource, only the self-reviews every identity may make" : beyond.join(", "),
      );
    },
  },
  {
    id: "MTB-PL1-CC-TI-2",
    title: "Block access to other tenant resources",
    expected: "pass",
    async run(tenant) {
      const allowed = await allowedOf(tenant.host, apiResources(true), ALL_VERBS, tenant.otherNamespace);
      return outcome(
        allowed.length === 0,
        allowed.length === 0 ? "nothing in the other tenant's namespace" : allowed.join(", "),
      );
    },
  },
  {
    id: "MTB-PL1-CC-FNS-1",
    title: "Configure namespace resource quotas",
    expected: "pass",
    async run(tenant) {
      const keys = Object.keys(await quotaHard(tenant));
      const missing = ["cpu", "memory", "ephemeral-storage"].filter(
        (name) => !keys.some((key) => key.endsWith(`.${name}`)),
      );
      return outcome(
        missing.length === 0,
        missing.length === 0 ? keys.filter((k) => k.includes(".")).join(", ") : `no ${missing.join(", ")}`,
      );
    },
  },
  {
    id: "MTB-PL1-CC-FNS-2",
    title: "Configure namespace object limits",
    expected: "pass",
    async run(tenant) {
      // As MTB reads it: every kind on its list has a hard count, whether or not the tenant can create it.
      const uncapped = uncappedObjectKinds(await quotaHard(tenant));
      return outcome(
        uncapped.length === 0,
        uncapped.length === 0 ? "each kind counted" : `uncapped: ${uncapped.join(", ")}`,
      );
    },
  },
  {
    id: "MTB-PL1-CC-TI-1",
    title: "Block modification of resource quotas",
    expected: "pass",
    async run(tenant) {
      const verbs = ["create", "update", "patch", "delete", "deletecollection"];
      const allowed = await allowedOf(
        tenant.host,
        [{ resource: "resourcequotas", group: "" }],
        verbs,
        tenant.namespace,
      );
      return outcome(
        allowed.length === 0,
        allowed.length === 0 ? "none of create, update, patch, delete" : allowed.join(", "),
      );
    },
  },
  {
    id: "MTB-PL1-BC-CPI-2",
    title: "Block multitenant resources",
    expected: "pass",
    async run(tenant) {
      // The objects the platform made in the namespace carry the tenant's label (MTB's --label).
      const labelSelector = `kubespaces.io/tenant=${tenant.name}`;
      const [quotas, limits, policies] = await Promise.all([
        core.listNamespacedResourceQuota({ namespace: tenant.namespace, labelSelector }),
        core.listNamespacedLimitRange({ namespace: tenant.namespace, labelSelector }),
        admin
          .makeApiClient(NetworkingV1Api)
          .listNamespacedNetworkPolicy({ namespace: tenant.namespace, labelSelector }),
      ]);
      const objects = [
        ...quotas.items.map((o) => ({ resource: "resourcequotas", group: "", name: o.metadata!.name! })),
        ...limits.items.map((o) => ({ resource: "limitranges", group: "", name: o.metadata!.name! })),
        ...policies.items.map((o) => ({
          resource: "networkpolicies",
          group: "networking.k8s.io",
          name: o.metadata!.name!,
        })),
      ];
      const allowed = await allowedOf(tenant.host, objects, ["update", "patch", "delete"], tenant.namespace);
      return outcome(
        allowed.length === 0,
        allowed.length === 0 ? `${objects.length} objects, none changeable` : allowed.join(", "),
      );
    },
  },
  {
    id: "MTB-PL1-BC-CPI-3",
    title: "Block add capabilities",
    expected: "pass",
    run: (tenant) =>
      podRefused(
        tenant,
        probePod((spec) => {
          container(spec).securityContext!.capabilities = { drop: ["ALL"], add: ["SETPCAP"] };
        }),
      ),
  },
  {
    id: "MTB-PL1-BC-CPI-4",
    title: "Require run as non-root user",
    expected: "pass",
    run: (tenant) =>
      podRefused(
        tenant,
        probePod((spec) => {
          spec.securityContext!.runAsNonRoot = false;
          container(spec).securityContext!.runAsNonRoot = false;
        }),
        probePod((spec) => {
          delete spec.securityContext!.runAsNonRoot;
          delete container(spec).securityContext!.runAsNonRoot;
          spec.securityContext!.runAsUser = 0;
          container(spec).securityContext!.runAsUser = 0;
        }),
      ),
  },
  {
    id: "MTB-PL1-BC-CPI-5",
    title: "Block privileged containers",
    expected: "pass",
    run: (tenant) =>
      podRefused(
        tenant,
        probePod((spec) => {
          // A privileged container may escalate; the API refuses the pair privileged and no escalation.
          Object.assign(container(spec).securityContext!, { privileged: true, allowPrivilegeEscalation: true });
        }),
      ),
  },
  {
    id: "MTB-PL1-BC-CPI-6",
    title: "Block privilege escalation",
    expected: "pass",
    run: (tenant) =>
      podRefused(
        tenant,
        probePod((spec) => {
          container(spec).securityContext!.allowPrivilegeEscalation = true;
        }),
      ),
  },
  {
    id: "MTB-PL1-BC-HI-1",
    title: "Block use of host path volumes",
    expected: "pass",
    run: (tenant) =>
      podRefused(
        tenant,
        probePod((spec) => {
          spec.volumes = [{ name: "host", hostPath: { path: "/etc" } }];
          container(spec).volumeMounts = [{ name: "host", mountPath: "/host" }];
        }),
      ),
  },
  {
    id: "MTB-PL1-BC-HI-3",
    title: "Block use of host networking and ports",
    expected: "pass",
    run: (tenant) =>
      podRefused(
        tenant,
        probePod((spec) => {
          spec.hostNetwork = true;
        }),
        probePod((spec) => {
          container(spec).ports = [{ containerPort: 8086, hostPort: 8086 }];
        }),
      ),
  },
  {
    id: "MTB-PL1-BC-HI-4",
    title: "Block use of host PID",
    expected: "pass",
    run: (tenant) =>
      podRefused(
        tenant,
        probePod((spec) => {
          spec.hostPID = true;
        }),
      ),
  },
  {
    id: "MTB-PL1-BC-HI-5",
    title: "Block use of host IPC",
    expected: "pass",
    run: (tenant) =>
      podRefused(
        tenant,
        probePod((spec) => {
          spec.hostIPC = true;
        }),
      ),
  },
  {
    // MTB numbers this one MTB-PL1-BC-HI-1 too.
    id: "MTB-PL1-BC-HI-1 (NodePort)",
    title: "Block use of NodePort services",
    expected: "pass",
    async run(tenant) {
      const body: V1Service = {
        metadata: { name: "mtb-nodeport" },
        spec: { type: "NodePort", selector: { app: "mtb" }, ports: [{ port: 80, targetPort: 8080 }] },
      };
      const api = tenant.host.makeApiClient(CoreV1Api);
      const result = await refusedByAdmission(() =>
        api.createNamespacedService({ namespace: tenant.namespace, body, dryRun: "All" }),
      );
      return outcome(result.refused, result.why);
    },
  },
  {
    id: "MTB-PL2-CC-TI-1",
    title: "Block role privilege escalation",
    expected: "pass",
    async run(tenant) {
      const escalate = await canI(tenant.host, {
        verb: "escalate",
        group: "rbac.authorization.k8s.io",
        resource: "roles",
        namespace: tenant.namespace,
      });
      const bind = await canI(tenant.host, {
        verb: "bind",
        group: "rbac.authorization.k8s.io",
        resource: "clusterroles",
        name: "cluster-admin",
        namespace: tenant.namespace,
      });
      return outcome(
        !escalate && !bind,
        `escalate roles: ${escalate ? "yes" : "no"}, bind cluster-admin: ${bind ? "yes" : "no"}`,
      );
    },
  },
  {
    id: "MTB-PL2-BC-OPS-3",
    title: "Create Role Bindings",
    expected: {
      fail: "a team manages RBAC inside its virtual cluster, where it is cluster-admin; its host identity holds the chart's Role only",
    },
    async run(tenant) {
      const rbac = ["roles", "rolebindings"].map((resource) => ({ resource, group: "rbac.authorization.k8s.io" }));
      const onHost = await allowedOf(tenant.host, rbac, ALL_VERBS, tenant.namespace);
      const inside = await allowedOf(tenant.inside, rbac, ALL_VERBS, "default");
      const insideApi = tenant.inside.makeApiClient(RbacAuthorizationV1Api);
      await insideApi.createNamespacedRole({
        namespace: "default",
        dryRun: "All",
        body: { metadata: { name: "mtb-role" }, rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }] },
      });
      await insideApi.createNamespacedRoleBinding({
        namespace: "default",
        dryRun: "All",
        body: {
          metadata: { name: "mtb-rolebinding" },
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
          subjects: [{ kind: "User", name: "mtb@example.com", apiGroup: "rbac.authorization.k8s.io" }],
        },
      });
      const all = rbac.length * ALL_VERBS.length;
      return outcome(
        onHost.length === all,
        `host: ${onHost.length}/${all} allowed; inside: ${inside.length}/${all}, and a Role and RoleBinding created (dry run)`,
        onHost.length === 0 && inside.length === all,
      );
    },
  },
  {
    id: "MTB-PL2-BC-OPS-4",
    title: "Create Network Policies",
    expected: {
      fail: "a team makes NetworkPolicies inside its virtual cluster; they are not synced to the host, where an allow rule would undo the tenant's fence",
    },
    async run(tenant) {
      const verbs = ["get", "create", "update", "patch", "delete", "deletecollection"];
      const resource = [{ resource: "networkpolicies", group: "networking.k8s.io" }];
      const onHost = await allowedOf(tenant.host, resource, verbs, tenant.namespace);
      const inside = await allowedOf(tenant.inside, resource, verbs, "default");
      await tenant.inside.makeApiClient(NetworkingV1Api).createNamespacedNetworkPolicy({
        namespace: "default",
        dryRun: "All",
        body: { metadata: { name: "mtb-deny-all" }, spec: { podSelector: {}, policyTypes: ["Ingress"] } },
      });
      return outcome(
        onHost.length === verbs.length,
        `host: ${onHost.length}/${verbs.length} allowed; inside: ${inside.length}/${verbs.length}, and one created (dry run)`,
        onHost.length === 0 && inside.length === verbs.length,
      );
    },
  },
  {
    id: "MTB-PL1-CC-DI-1",
    title: "Require always imagePullPolicy",
    expected: {
      fail: "the host cluster's AlwaysPullImages admission plugin decides, not a tenant's objects; the test bed does not run it",
    },
    async run(tenant) {
      const pod = probePod((spec) => {
        container(spec).imagePullPolicy = "Never";
      });
      const created = await tenant.host
        .makeApiClient(CoreV1Api)
        .createNamespacedPod({ namespace: tenant.namespace, body: pod, dryRun: "All" });
      const policy = created.spec?.containers[0].imagePullPolicy;
      return outcome(policy === "Always", `admitted with imagePullPolicy ${policy}`, policy === "Never");
    },
  },
];
