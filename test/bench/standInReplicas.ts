/**
 * What the benchmarks of the server's replicas over stand-in stacks share: StandInStacks, a stand-in
 * of fixed latency for the tenants service's stacks, and replicas of the real server core run in
 * the benchmark's own process against the local test bed's API server.
 */
import { EventEmitter } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { CoreV1Api, KubeConfig, RbacAuthorizationV1Api } from "@kubernetes/client-node";
import { TENANT_LABEL } from "../../provider/model/names";
import { DEFAULT_NAMESPACE_PREFIX } from "../../provider/model/tenantPlatformSchema";
import { sessionKeys } from "../../provider/server/auth/sessionSeal";
import { runServer } from "../../provider/server/kubespacesServer";
import { chooseHost } from "../../provider/hosts/hostChoice";
import { serviceAccountHost } from "../../provider/hosts/serviceAccountHost";
import { parsePlatformPolicy } from "../../provider/model/platformPolicyValue";
import { serverConfigSchema, type ServerConfig } from "../../provider/server/serverConfig";
import { installTenantApi, SERVER_SERVICE_ACCOUNT } from "../../provider/server/kube/tenantApiInstall";
import type {
  DeployedOutputs,
  HostPort,
  StackProgram,
  StackRun,
  StackUpdate,
  TenantStacks,
} from "../../provider/tenants/ports";
import type { ResourceStep } from "../../provider/tenants/tenantObject";

/** How long the stand-in's operations take. */
export interface StandInLatency {
  /** Each up's time, in ms. */
  readonly upMs: number;
  /** Each preview's time, in ms. */
  readonly previewMs: number;
}

/**
 * A stand-in for the tenants service's stacks, named so everywhere it is used: an up waits its
 * fixed time and makes the tenant's namespace (labelled as the real stack labels it) with the
 * RoleBinding that gives the server its rights there (the platform's `namespaceAccess`), a teardown
 * deletes it at once, a preview waits its fixed time and plans nothing, and the kubeconfig is a
 * stand-in's. It keeps which stacks exist, as a backend would, so that a teardown after an up
 * behaves as the real one does.
 */
export class StandInStacks implements TenantStacks {
  private readonly stacks = new Set<string>();
  /** How many ups and previews ran. */
  readonly calls = { ups: 0, previews: 0 };
  private readonly core: CoreV1Api;
  private readonly rbac: RbacAuthorizationV1Api;

  constructor(
    adminKubeconfig: string,
    private readonly latency: StandInLatency,
  ) {
    const config = new KubeConfig();
    config.loadFromFile(adminKubeconfig);
    this.core = config.makeApiClient(CoreV1Api);
    this.rbac = config.makeApiClient(RbacAuthorizationV1Api);
  }

  async up(name: string, program: StackProgram, stackRun: StackRun): Promise<DeployedOutputs> {
    this.calls.ups++;
    await sleep(this.latency.upMs, undefined, { signal: stackRun.signal });
    const namespace = tenantNamespace(name);
    await made(
      this.core.createNamespace({ body: { metadata: { name: namespace, labels: { [TENANT_LABEL]: name } } } }),
    );
    const access = program.platform.namespaceAccess;
    if (access)
      await made(
        this.rbac.createNamespacedRoleBinding({
          namespace,
          body: {
            metadata: { name: "kubespaces-server" },
            roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: access.clusterRole },
            subjects: [
              {
                ...access.subject,
                ...(access.subject.kind === "ServiceAccount" ? {} : { apiGroup: "rbac.authorization.k8s.io" }),
              },
            ],
          },
        }),
      );
    this.stacks.add(name);
    return { namespace, apiServerUrl: `https://${name}.stand-in.invalid`, readyMessage: `stand-in ${name} is ready` };
  }
  async preview(_name: string, _program: StackProgram | undefined, stackRun: StackRun): Promise<ResourceStep[]> {
    this.calls.previews++;
    await sleep(this.latency.previewMs, undefined, { signal: stackRun.signal });
    return [];
  }
  async destroy(name: string): Promise<ResourceStep[]> {
    await this.core.deleteNamespace({ name: tenantNamespace(name) }).catch(() => undefined);
    this.stacks.delete(name);
    return [];
  }
  async exists(name: string): Promise<boolean> {
    return this.stacks.has(name);
  }
  async history(): Promise<StackUpdate[]> {
    return []; // the stand-in keeps no history: no bench reads it
  }
  async kubeconfig(name: string): Promise<string | undefined> {
    return this.stacks.has(name)
      ? `# a stand-in's kubeconfig for tenant ${name}: no virtual cluster runs\n`
      : undefined;
  }
}

/** Waits for a create; one that finds the object there already (an earlier round's) is done too. */
async function made(create: Promise<unknown>): Promise<void> {
  await create.catch((error) => {
    if (!String(error).includes("AlreadyExists")) throw error;
  });
}

/** Tenant `name`'s host namespace, as the platform's default policy names it. */
const tenantNamespace = (name: string) => `${DEFAULT_NAMESPACE_PREFIX}${name}`;

/** One replica: its log lines (each also told to `logged`), and what stops it. */
export interface Replica {
  readonly identity: string;
  readonly lines: string[];
  readonly logged: EventEmitter;
  readonly stop: AbortController;
  readonly running: Promise<void>;
}

/** Starts replica `identity` in this process, sharing `stacks` (one backend, as replicas share one). */
export function startReplica(identity: string, host: HostPort, stacks: TenantStacks, config: ServerConfig): Replica {
  const lines: string[] = [];
  const logged = new EventEmitter();
  const stop = new AbortController();
  const running = runServer(
    {
      host,
      stacks: () => stacks,
      log: (line) => {
        lines.push(line);
        logged.emit("line", line);
      },
      // The portal is not used here: its sign-in is refused, and the replica logs that and goes on.
      signIn: async () => {
        throw new Error("no sign-in in this benchmark");
      },
      sessionKeys: sessionKeys(),
    },
    config,
    { identity, signal: stop.signal },
  );
  return { identity, lines, logged, stop, running };
}

/** Resolves once every replica reconciles its share, seeing all of them. */
export async function allSeeEachOther(replicas: readonly Replica[]): Promise<void> {
  const seesAll = new RegExp(
    `(reconciles its share of the Tenants, with|replicas now:) ${replicas.length} live replica`,
  );
  await Promise.all(
    replicas.map(
      (r) =>
        new Promise<void>((resolve) => {
          if (r.lines.some((l) => seesAll.test(l))) return resolve();
          const onLine = (line: string) => seesAll.test(line) && (r.logged.off("line", onLine), resolve());
          r.logged.on("line", onLine);
        }),
    ),
  );
}

/**
 * The replicas' configuration (the defaults: `concurrency` 4, resync every 600 s; no metrics, a
 * free port) and their host: the local test bed, reached as the server's ServiceAccount once the
 * Tenant API is installed there.
 */
export function standInServer(): { readonly config: ServerConfig; readonly host: HostPort } {
  const parsed = serverConfigSchema.parse({ metrics: false, http: { listen: "127.0.0.1:0" } });
  const config: ServerConfig = { ...parsed, platform: parsePlatformPolicy("bench", parsed.platform) };
  const host = serviceAccountHost(
    chooseHost({}),
    { namespace: config.namespace, name: SERVER_SERVICE_ACCOUNT },
    (admin, say) => installTenantApi(admin, config, say),
  );
  return { config, host };
}
