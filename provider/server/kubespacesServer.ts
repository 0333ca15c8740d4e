/**
 * `kubespaces server`'s core: the reconciler of Tenant resources, run by the replica that holds the
 * Lease, and on every replica the API and portal (whose previews each replica runs itself). It
 * reaches the host with the credentials its host port gives (the server's own, holding
 * only the RBAC the package installs), keeps each tenant in a Pulumi stack of its own through the
 * tenants service, and writes what happens into each Tenant's status.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { loadHostKubeConfig } from "../lifecycle/hostAccess";
import type { HostPort, HostTarget, TenantStacks } from "../tenants/ports";
import { TenantsService } from "../tenants/tenantsService";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { AuditSink } from "./people/auditLog";
import type { LogLevel } from "./serverLog";
import { apiErrorText } from "./kubeClientErrors";
import { KubePeopleHost } from "./people/kubePeopleHost";
import { OwnedTenants } from "./people/ownedTenants";
import type { SessionKeys } from "./auth/sessionSeal";
import type { SignInParts } from "./auth/signInParts";
import { buildApiServer } from "./http/apiServer";
import { KubeLeaseStore } from "./kubeLeaseStore";
import { KubeTenantResources } from "./kubeTenantResources";
import { runLeaseElection } from "./leaseElection";
import { ServerMetrics } from "./metrics/serverMetrics";
import { timedStacks } from "./metrics/timedStacks";
import { Readiness } from "./readiness";
import { KubeTenantEvents } from "./kubeTenantEvents";
import { TenantEventRecorder } from "./tenantEvents";
import { MemoryRunJournals } from "./memoryRunJournals";
import { ReconcileQueue } from "./reconcileQueue";
import { serverPreviews } from "./serverPreviews";
import { ResourceRequestStore } from "./resourceRequestStore";
import type { ServerConfig } from "./serverConfig";
import { ownSubject, withServerAccess } from "./serverNamespaceAccess";
import { TenantReconciler } from "./tenantReconciler";
import { watchTenants } from "./tenantWatch";
import { watchDrift } from "./driftWatch";
import { scheduleResyncs } from "./resyncSchedule";

/** What the server runs on. */
export interface ServerPorts {
  /** The host cluster, and the server's credentials for it. */
  readonly host: HostPort;
  /** A stack per tenant, in the server's state backend. */
  readonly stacks: TenantStacks;
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

/** How this replica runs. */
export interface ServerRun {
  /** This replica's identity in the election. */
  readonly identity: string;
  /** Stops the server: the election ends (the Lease is given up) and running reconciles are cancelled. */
  readonly signal: AbortSignal;
}

/** The controller that reports the server's Events on Tenants. */
const EVENTS_REPORTER = "kubespaces.io/server";

/** The first retry of a failed reconcile, and the longest pause between retries. */
const BACKOFF = { initialBackoffMs: 5_000, maxBackoffMs: 5 * 60_000 } as const;

/** Runs the server until `run.signal` aborts. */
export async function runServer(ports: ServerPorts, config: ServerConfig, run: ServerRun): Promise<void> {
  const host = await ports.host.resolve(ports.log, run.signal);
  const kubeConfig = loadHostKubeConfig(host.kubeconfig);
  const self = await ownSubject(kubeConfig);
  const platform = withServerAccess(config.platform, self);
  ports.log(`tenant namespaces bind ClusterRole ${platform.namespaceAccess!.clusterRole} to ${self.kind} ${self.name}`);
  const resources = new KubeTenantResources(kubeConfig);
  const metrics = config.metrics
    ? new ServerMetrics({ tenantPhases: async () => (await resources.list()).map((t) => t.status?.phase) })
    : undefined;
  const service = new TenantsService(
    {
      requests: new ResourceRequestStore(resources),
      runs: new MemoryRunJournals(),
      stacks: metrics ? timedStacks(ports.stacks, metrics) : ports.stacks,
      host: resolved(host, ports.host),
    },
    { policy: platform },
  );
  // The server acts as the platform's admin in the service: admission, or the person's own checks, came first.
  const serverActor = { owner: `system:kubespaces-server:${run.identity}`, groups: [config.adminGroup], isAdmin: true };
  const reconciler = new TenantReconciler(service, resources, {
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
  // Whether this replica leads, and whether its watch of Tenants has listed them all.
  const watch: WatchState = { leading: false, synced: false };
  const people = new OwnedTenants(new KubePeopleHost(kubeConfig), platform, serverPreviews(service, serverActor));
  const http = await serveHttp(ports, config, people, {
    metrics,
    tenantsSynced: () => (watch.leading ? watch.synced : resources.list().then(() => true)),
  });
  run.signal.addEventListener("abort", () => void http.close(), { once: true });
  ports.log(
    `replica ${run.identity} on ${host.description}; electing a leader through Lease ${config.namespace}/${config.leaseName}`,
  );
  await runLeaseElection(
    new KubeLeaseStore(kubeConfig, config.namespace, config.leaseName),
    {
      // The renew deadline and the retry period follow from the duration (leaseElection.ts).
      identity: run.identity,
      leaseDurationSeconds: config.leaseDurationSeconds,
      onError: (error) => ports.log(`lease: ${apiErrorText(error)}`, "warn"),
    },
    (leading) =>
      lead(
        { kubeConfig, reconciler, resources, config, log: ports.log, identity: run.identity, metrics, watch },
        leading,
      ),
    run.signal,
  );
}

/** What the leader works with. */
interface Leader {
  readonly kubeConfig: KubeConfig;
  readonly reconciler: TenantReconciler;
  readonly resources: KubeTenantResources;
  readonly config: ServerConfig;
  readonly log: (line: string, level?: LogLevel) => void;
  readonly identity: string;
  readonly metrics?: ServerMetrics;
  readonly watch: WatchState;
}

/** Whether this replica leads, and whether its watch has synced (listed every Tenant) since. */
interface WatchState {
  leading: boolean;
  synced: boolean;
}

/**
 * The leader's work: the watch of Tenants feeds the queue, the drift watch asks for a resync of a
 * tenant whose host objects changed, and each tenant is resynced once a period at an offset of its
 * own, until `leading` aborts; then no new reconcile starts and the running ones are told to stop.
 * Settles once they have.
 */
function lead(
  { kubeConfig, reconciler, resources, config, log, identity, metrics, watch }: Leader,
  leading: AbortSignal,
): Promise<void> {
  log(`replica ${identity} leads: reconciling Tenants`);
  const queue = new ReconcileQueue(
    async (name, options) => {
      log(`reconciling tenant ${name}${options.resync ? " (resync)" : ""}`);
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        const result = await reconciler.reconcile(name, options);
        metrics?.reconciled(result.retry ? "retry" : "done", seconds());
        log(`tenant ${name}: ${result.retry ? "will be tried again" : "reconciled"}`);
        return result;
      } catch (error) {
        metrics?.reconciled("error", seconds());
        throw error;
      }
    },
    {
      concurrency: config.concurrency,
      ...BACKOFF,
      onError: (name, error) => log(`tenant ${name}: ${apiErrorText(error)}`, "error"),
      onStart: (_name, waitedMs) => metrics?.queueWaitSeconds.observe(waitedMs / 1000),
    },
  );
  metrics?.leading(() => queue.size);
  Object.assign(watch, { leading: true, synced: false });
  watchTenants(
    kubeConfig,
    {
      // A new Tenant shows Pending before it waits for its turn; its reconcile is queued after that write.
      onTenant: (name, hasStatus) =>
        hasStatus
          ? queue.add(name)
          : void reconciler
              .acknowledge(name)
              .catch((error) => log(`tenant ${name}: ${apiErrorText(error)}`, "error"))
              .finally(() => queue.add(name)),
      onError: (error) => log(`watch: ${apiErrorText(error)}`, "warn"),
      onSynced: () => (watch.synced = true),
    },
    leading,
  );
  // Drift is found by watching the tenants' host objects; the periodic resync is the slow safety net.
  watchDrift(
    kubeConfig,
    {
      onDrift: (tenant, kind, object) => {
        metrics?.driftSeen.inc({ kind });
        log(`drift: ${kind} ${object} of tenant ${tenant} changed or went; resyncing the tenant`);
        queue.add(tenant, true);
      },
      onError: (error) => log(`drift watch: ${apiErrorText(error)}`, "warn"),
    },
    leading,
  );
  if (config.resyncSeconds > 0)
    scheduleResyncs(
      config.resyncSeconds * 1000,
      async () => (await resources.list()).map((t) => t.metadata.name),
      (name) => queue.add(name, true),
      (error) => log(`resync: ${apiErrorText(error)}`, "warn"),
      leading,
    );
  return new Promise((resolve) =>
    leading.addEventListener(
      "abort",
      () => {
        metrics?.leading(undefined);
        watch.leading = false;
        log(`replica ${identity} no longer leads: its running reconciles are stopping`);
        void queue.stop().then(resolve);
      },
      { once: true },
    ),
  );
}

/**
 * Serves the API and the portal on `config.http.listen` (every replica serves; only the leader
 * reconciles), then starts the sign-in for the address it listens on.
 */
async function serveHttp(
  ports: ServerPorts,
  config: ServerConfig,
  tenants: OwnedTenants,
  operations: { readonly metrics?: ServerMetrics; readonly tenantsSynced: () => Promise<boolean> | boolean },
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
    sessionSeconds: Math.round(config.http.sessionHours * 3600),
    createsPerMinute: config.http.createsPerMinute,
    audit: countedAudit,
    log: (line) => ports.log(line, "error"),
    logger: ports.logger,
    operations: {
      metrics: operations.metrics,
      // Ready once people can sign in, and the leader's watch has listed every Tenant (a replica
      // that does not lead watches nothing: it must have listed them once, as its API will).
      readiness: new Readiness({
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
