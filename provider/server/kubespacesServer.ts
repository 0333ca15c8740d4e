/**
 * `kubespaces server`'s core: on every replica, the API and portal (whose previews each replica
 * runs itself) and the reconciler of the Tenant resources the replica owns (replicaWork.ts: the
 * tenants are shared out over the live replicas, which hold a Lease each). It
 * reaches the host with the credentials its host port gives (the server's own, holding
 * only the RBAC the package installs), keeps each tenant in a Pulumi stack of its own through the
 * tenants service, and writes what happens into each Tenant's status.
 */
import { KubeVclusterSnapshots } from "./kube/kubeVclusterSnapshots";
import { SnapshotStore } from "./snapshots/snapshotStore";
import { setMaxListeners } from "node:events";
import { loadHostKubeConfig } from "../lifecycle/hostAccess";
import type { HostPort, HostTarget, TenantStacks } from "../tenants/ports";
import { TenantsService } from "../tenants/tenantsService";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { AuditSink } from "./people/auditLog";
import type { LogLevel } from "./serverLog";
import { apiErrorText } from "../util/kubeClientErrors";
import { KubePeopleHost } from "./kube/kubePeopleHost";
import { OwnedTenants } from "./people/ownedTenants";
import type { SessionKeys } from "./auth/sessionSeal";
import type { SignInParts } from "./auth/signInParts";
import { buildApiServer } from "./http/apiServer";
import { buildMetricsServer } from "./http/metricsServer";
import { METRICS_PATH } from "../contracts/metricsEndpoint";
import { WatchedTenantPhases } from "./metrics/watchedTenantPhases";
import { WatchedTenantCosts } from "./metrics/watchedTenantCosts";
import { kubeReplicaLeases } from "./kube/kubeReplicaLeases";
import { KubeTenantResources } from "./kube/kubeTenantResources";
import { ServerMetrics } from "./metrics/serverMetrics";
import { timedStacks } from "./metrics/timedStacks";
import { Readiness, type ServerReadinessCondition } from "./readiness";
import { KubeTenantEvents } from "./kube/kubeTenantEvents";
import { TenantEventRecorder } from "./reconcile/tenantEvents";
import { MemoryRunJournals } from "./memoryRunJournals";
import { REPLICA_OF_LABEL } from "./replicas/replicaMembership";
import { runReplicaShare } from "./replicas/replicaWork";
import { serverPreviews } from "./people/serverPreviews";
import { ResourceRequestStore } from "./resourceRequestStore";
import type { ServerConfig } from "./serverConfig";
import { ownSubject, withServerAccess } from "./kube/serverNamespaceAccess";
import { KubePlatformRevisions } from "./kube/kubePlatformRevisions";
import { ReplicaFleet } from "./revisions/replicaFleet";
import { CeilingPublisher } from "./admission/ceilingPublisher";
import { KubeTenantCeilings } from "./kube/kubeTenantCeilings";
import type { PlatformRevisionReader } from "./http/fleetApiRoutes";
import { parsePlatformPolicy } from "../model/platformPolicyValue";
import { TenantReconciler } from "./reconcile/tenantReconciler";

/** What the server runs on. */
export interface ServerPorts {
  /** The host cluster, and the server's credentials for it. */
  readonly host: HostPort;
  /**
   * A stack per tenant, in the server's state backend; given the replicas, so that a lock left by a
   * gone replica's update is removed (a replica's identity is its host name, as a pod's is).
   */
  readonly stacks: (replicas: GoneReplicas) => TenantStacks;
  /** Where the server says what it does, a line at a time, at a level (default info). */
  readonly log: (line: string, level?: LogLevel) => void;
  /** The log Fastify logs requests to (none: requests are not logged). */
  readonly logger?: FastifyBaseLogger;
  /** Where audit lines go, a stream of their own (none: the log, marked `audit`). */
  readonly audit?: AuditSink;
  /** The sign-in's parts for a server reached at `publicUrl` (the identity provider may be started first). */
  readonly signIn: (publicUrl: URL) => Promise<SignInParts>;
  /** The keys that seal the portal's cookies. */
  readonly sessionKeys: SessionKeys;
}

/** Which replicas are known gone. */
export interface GoneReplicas {
  /** Whether replica `identity`'s Lease went a whole lease duration unrenewed. */
  isGone(identity: string): boolean;
}

/** How this replica runs. */
export interface ServerRun {
  /** This replica's identity among the replicas. */
  readonly identity: string;
  /** Stops the server: running reconciles are cancelled, then this replica's Lease is removed. */
  readonly signal: AbortSignal;
}

/** How many listeners the stop signal may have before Node warns of a leak. */
const STOP_LISTENERS = 32;

/** The controller that reports the server's Events on Tenants. */
const EVENTS_REPORTER = "kubespaces.io/server";

/** Runs the server until `run.signal` aborts. */
export async function runServer(ports: ServerPorts, config: ServerConfig, run: ServerRun): Promise<void> {
  // Each part of the replica listens for the stop once (its watches, the resync, the HTTP server,
  // the share): a dozen, a fixed number, over Node's warning at 10; a leak would still pass 32.
  setMaxListeners(STOP_LISTENERS, run.signal);
  const host = await ports.host.resolve(ports.log, run.signal);
  const kubeConfig = loadHostKubeConfig(host.kubeconfig);
  const self = await ownSubject(kubeConfig);
  const platform = withServerAccess(config.platform, self);
  ports.log(`tenant namespaces bind ClusterRole ${platform.namespaceAccess!.clusterRole} to ${self.kind} ${self.name}`);
  const resources = new KubeTenantResources(kubeConfig);
  const { membership, claims } = kubeReplicaLeases(kubeConfig, config, run.identity, ports.log);
  const stacks = ports.stacks(membership);
  // The gauge of Tenants by phase, and each tenant's cost, show what the replica's watches hold: a scrape lists nothing.
  const phases = config.metrics ? new WatchedTenantPhases() : undefined;
  const costs = config.metrics ? new WatchedTenantCosts() : undefined;
  const revisions = new KubePlatformRevisions(kubeConfig);
  const fleet = new ReplicaFleet(revisions, {
    policyOf: (name, policy) => withServerAccess(parsePlatformPolicy(`platform revision ${name}`, policy), self),
    log: ports.log,
  });
  const ceilings = new CeilingPublisher(new KubeTenantCeilings(kubeConfig), ports.log);
  const publishCeilings = () => {
    const rolledOut = fleet.runningPolicy(undefined);
    return ceilings.publish(
      rolledOut ? { policy: rolledOut.policy, revision: rolledOut.revision } : { policy: platform },
    );
  };
  const metrics =
    phases &&
    costs &&
    new ServerMetrics({
      tenantPhases: () => phases.phases(),
      rollout: () => fleet.currentRollout(),
      tenantCosts: () => costs.costs(),
    });
  const service = new TenantsService(
    {
      requests: new ResourceRequestStore(resources),
      runs: new MemoryRunJournals(),
      stacks: metrics ? timedStacks(stacks, metrics) : stacks,
      host: resolved(host, ports.host),
    },
    { policy: platform },
  );
  // The server acts as the platform's admin in the service: admission, or the person's own checks, came first.
  const serverActor = { owner: `system:kubespaces-server:${run.identity}`, groups: [config.adminGroup], isAdmin: true };
  const reconciler = new TenantReconciler(service, resources, {
    fleet,
    policy: platform,
    caps: config.caps?.perOwner,
    ...(config.snapshots && {
      snapshots: { store: new SnapshotStore(config.snapshots.s3), vcluster: new KubeVclusterSnapshots(kubeConfig) },
    }),
    actor: serverActor,
    requireApproval: config.requireApproval,
    onResync: (outcome) => metrics?.resyncs.inc({ outcome }),
    onNote: (tenant, line) => ports.log(`tenant ${tenant}: ${line}`),
    events: new TenantEventRecorder(
      new KubeTenantEvents(kubeConfig),
      { controller: EVENTS_REPORTER, instance: run.identity },
      (error) => ports.log(`event: ${apiErrorText(error)}`, "warn"),
    ),
  });
  // Whether this replica's watch of Tenants has listed them all.
  let synced = false;
  const previews = serverPreviews(service, serverActor, { concurrency: config.previewConcurrency });
  const people = new OwnedTenants(
    new KubePeopleHost(kubeConfig),
    platform,
    previews,
    { history: (name) => service.history(name, serverActor) },
    config.caps?.perOwner,
  );
  // Metrics first: a port already taken then stops the start before anything else listens.
  if (metrics) await serveMetrics(ports, config.metricsListen, metrics, run.signal);
  const http = await serveHttp(ports, config, people, { metrics, revisions, tenantsSynced: () => synced });
  run.signal.addEventListener("abort", () => void http.close(), { once: true });
  ports.log(
    `replica ${run.identity} on ${host.description}; the replicas hold Leases labelled ${REPLICA_OF_LABEL}=${config.leaseName} in ${config.namespace}`,
  );
  // The share stops first (its reconciles hold claims), then the membership removes this replica's Lease.
  const stopMembership = new AbortController();
  const members = membership.run(stopMembership.signal);
  await runReplicaShare(
    {
      kubeConfig,
      reconciler,
      resources,
      config,
      log: ports.log,
      identity: run.identity,
      metrics,
      membership,
      claims,
      onSynced: () => (synced = true),
      fleet,
      phases,
      publishCeilings,
      costs,
    },
    run.signal,
  ).finally(() => stopMembership.abort());
  await members;
}

/**
 * Serves the API and the portal on `config.http.listen` (every replica serves), then starts the
 * sign-in for the address it listens on.
 */
async function serveHttp(
  ports: ServerPorts,
  config: ServerConfig,
  tenants: OwnedTenants,
  operations: {
    readonly metrics?: ServerMetrics;
    readonly revisions: PlatformRevisionReader;
    readonly tenantsSynced: () => boolean;
  },
): Promise<FastifyInstance> {
  let publicUrl = config.http.publicUrl ? new URL(config.http.publicUrl) : undefined;
  let signIn: Promise<SignInParts> | undefined;
  // Made once; a failure (the issuer did not answer) is logged and tried again at the next sign-in.
  const signInParts = (): Promise<SignInParts> =>
    (signIn ??= ports.signIn(publicUrl!).catch((error: unknown) => {
      signIn = undefined;
      ports.log(`sign-in: ${(error as Error).message}`, "error");
      throw error;
    }));
  const audit = ports.audit ?? ((line: string) => ports.log(`audit ${line}`));
  const countedAudit = operations.metrics?.countingSignIns(audit) ?? audit;
  const app = await buildApiServer({
    tenants,
    signIn: signInParts,
    keys: ports.sessionKeys,
    publicUrl: () => publicUrl!,
    plainHttp: publicUrl?.protocol !== "https:",
    adminGroup: config.adminGroup,
    revisions: operations.revisions,
    sessionSeconds: Math.round(config.http.sessionHours * 3600),
    createsPerMinute: config.http.createsPerMinute,
    audit: countedAudit,
    log: (line) => ports.log(line, "error"),
    logger: ports.logger,
    operations: {
      metrics: operations.metrics,
      // Ready once people can sign in, and this replica's watch has listed every Tenant.
      readiness: new Readiness<ServerReadinessCondition>({
        signIn: () => signInParts().then(() => true),
        tenants: operations.tenantsSynced,
      }),
    },
  });
  const [host, port] = splitHostPort(config.http.listen);
  const address = await app.listen({ host, port });
  publicUrl ??= new URL(address);
  ports.log(`API and portal at ${publicUrl.href} (listening on ${address})`);
  // Started now, so that a sign-in problem shows at start, not at the first person's sign-in.
  signInParts().catch(() => {});
  return app;
}

/** Serves `metrics` on `listen`, a listener of its own apart from the API and portal, until `signal` aborts. */
async function serveMetrics(
  ports: ServerPorts,
  listen: string,
  metrics: ServerMetrics,
  signal: AbortSignal,
): Promise<void> {
  const app = await buildMetricsServer(metrics);
  const [host, port] = splitHostPort(listen);
  const address = await app.listen({ host, port });
  signal.addEventListener("abort", () => void app.close(), { once: true });
  ports.log(`metrics at ${address}${METRICS_PATH}`);
}

/** `host:port` as its parts. */
function splitHostPort(listen: string): [string, number] {
  const at = listen.lastIndexOf(":");
  return [listen.slice(0, at), Number(listen.slice(at + 1))];
}

/** The host port of a host already reached: the service needs no second bring-up. */
const resolved = (host: HostTarget, port: HostPort): HostPort => ({
  resolve: async () => host,
  engineEnvForReads: () => port.engineEnvForReads(),
});
