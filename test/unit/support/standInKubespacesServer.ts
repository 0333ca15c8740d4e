/**
 * A STAND-IN kubespaces server on the loopback, for the command's server-mode tests: it answers
 * the API of contracts/tenantsApi.ts as the contract says (the paths, the error body
 * `{error: {kind, message, problems}}`, bearer ID tokens checked against the stand-in provider,
 * the event stream with the resourceVersion as each event's id and `Last-Event-ID` resumption),
 * with a scripted "reconciler" in place of the real one: each tenant walks through its script's
 * steps while someone follows it, and previews answered from the stand-in previews. Requests are
 * checked with the component's own validation, so refusals carry its messages. Not the real server (the lead's provider/server/http/).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  API_PATHS,
  type ApiErrorKind,
  type OwnerCapsBody,
  type PreviewTenantBody,
  type SignInInfo,
  type TenantPreviewReply,
} from "../../../provider/contracts/tenantsApi";
import type { TenantRequestInput } from "../../../provider/model/tenantRequestSchema";
import { planOf, type ChangePlan } from "../../../provider/tenants/tenantPlan";
import { StandInStackPreviews } from "./standInStackPreviews";
import { validateRequest } from "../../../provider/model/validateTenant";
import { labelOf, TenantValidationError } from "../../../provider/model/validationError";
import type { TenantView } from "../../../provider/tenantResource/tenantReplies";
import { tenantKubeconfig } from "./kubeconfigFixtures";
import { bodyOf, json, STAND_IN_CLIENT_ID, type StandInIdentityProvider } from "./standInIdentityProvider";

/** One step of a tenant's script: a new status, or its deletion. */
export type StandInStep =
  { readonly phase: TenantView["status"]["phase"]; readonly reason: string; readonly message: string } | "deleted";

/** One change of a tenant, as its event stream sends it. */
type Change = { readonly id: string; readonly tenant?: TenantView };

/** What a request to the stand-in carried that a test asserts on. */
export interface SeenRequest {
  /** Method and path (with the query). */
  readonly line: string;
  /** The `Last-Event-ID` header, on event streams. */
  readonly lastEventId?: string;
  /** The JSON body, when there was one. */
  readonly body?: unknown;
}

/** A tenant of the stand-in. */
interface StandInTenant {
  view: TenantView;
  readonly history: Change[];
  script: StandInStep[];
  readonly followers: Set<ServerResponse>;
}

/** The default script of a create: provisioning, then Ready. */
export const READY_SCRIPT: readonly StandInStep[] = [
  { phase: "Provisioning", reason: "Provisioning", message: "provisioning the virtual cluster" },
  { phase: "Ready", reason: "Provisioned", message: "the virtual cluster is ready" },
];

/** The script of a delete: the teardown, then gone. */
const DELETE_SCRIPT: readonly StandInStep[] = [
  { phase: "Deleting", reason: "Deleting", message: "tearing the tenant down" },
  "deleted",
];

/** The stand-in server. */
export class StandInKubespacesServer {
  /** Its URL (http on 127.0.0.1). */
  url = "";
  /** Every request it got, in order. */
  readonly seen: SeenRequest[] = [];
  /** The script the next created tenant walks through. */
  nextScript: readonly StandInStep[] = READY_SCRIPT;
  /**
   * Drops the first follower's connection right after sending the change to this phase, then
   * takes `stepsWhileAway` more steps before anyone reconnects (so only a resumption sees them).
   */
  dropAfter?: { readonly phase: string; readonly stepsWhileAway: number };
  /** The id of the change after which a follower's connection was dropped. */
  droppedAfter?: string;
  /** The issuer its sign-in names (the stand-in provider's, unless a test names another). */
  issuer?: string;
  /** The caps per owner it answers `GET caps` with; none: no cap. */
  caps?: OwnerCapsBody["caps"];
  /** An error to answer the next request about tenants with (a kind the scripts do not reach). */
  nextError?: { readonly status: number; readonly kind: ApiErrorKind; readonly message: string };

  /** The previews it answers with, and each one run. */
  readonly previews = new StandInStackPreviews();

  private readonly server: Server = createServer((request, response) => void this.route(request, response));
  private readonly tenants = new Map<string, StandInTenant>();
  private resourceVersion = 0;

  constructor(private readonly idp: StandInIdentityProvider) {}

  /** Starts it on a free loopback port. */
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Stops it. */
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Adds tenant `name` of `owner` as a create would, with the next script. */
  seed(name: string, owner: string, spec: Record<string, unknown> = {}): TenantView {
    const view: TenantView = {
      apiVersion: "kubespaces.io/v1alpha1",
      kind: "Tenant",
      metadata: { name, generation: 1, creationTimestamp: new Date().toISOString() },
      spec: { ...spec, owner } as TenantView["spec"],
      status: statusOf({ phase: "Pending", reason: "Pending", message: "waiting for the server" }),
    };
    const tenant: StandInTenant = { view, history: [], script: [...this.nextScript], followers: new Set() };
    this.tenants.set(name, tenant);
    this.change(tenant, view);
    return tenant.view;
  }

  /** What `owner` holds of the stand-in's tenants (with no quota), against `caps`. */
  private capsOf(owner: string): OwnerCapsBody {
    const owned = [...this.tenants.values()].filter((t) => t.view.spec.owner === owner);
    const use = { tenants: owned.length, awake: owned.length, cpu: 0, memory: 0, storage: 0 };
    return { owner, ...(this.caps && { caps: this.caps }), use };
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", this.url);
    const text = await bodyOf(request);
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    const lastEventId = request.headers["last-event-id"] as string | undefined;
    this.seen.push({ line: `${request.method} ${url.pathname}${url.search}`, lastEventId, body });
    if (url.pathname === API_PATHS.signIn) return json(response, 200, this.signInInfo());
    const owner = await this.caller(request);
    if (!owner) return refuse(response, 401, "unauthenticated", "the ID token is missing, forged or expired");
    const [, name, sub] = /^\/api\/v1\/tenants(?:\/([^/]+)(?:\/(\w+))?)?$/.exec(url.pathname) ?? [];
    if (url.pathname === API_PATHS.whoAmI)
      return json(response, 200, { owner: owner.email, groups: owner.groups, isAdmin: false });
    if (url.pathname === API_PATHS.caps) return json(response, 200, this.capsOf(owner.email));
    const error = this.nextError;
    this.nextError = undefined;
    if (error) return refuse(response, error.status, error.kind, error.message);
    if (url.pathname === API_PATHS.tenants && request.method === "GET") return this.list(response, owner.email);
    if (url.pathname === API_PATHS.tenants && request.method === "POST")
      return this.create(response, owner.email, body as { name: string; spec?: Record<string, unknown> });
    if (sub === "preview" && request.method === "POST")
      return this.preview(response, owner.email, name!, body as PreviewTenantBody);
    const tenant = name !== undefined ? this.tenants.get(name) : undefined;
    if (!tenant || tenant.view.spec.owner !== owner.email)
      return refuse(response, 404, "notFound", `tenant ${name} not found`);
    if (!sub && request.method === "GET") return json(response, 200, tenant.view);
    if (!sub && request.method === "DELETE") return this.delete(response, tenant);
    if (sub === "kubeconfig") return this.kubeconfig(response, tenant);
    if (sub === "events") return this.follow(response, tenant, lastEventId);
    refuse(response, 404, "notFound", `no route ${request.method} ${url.pathname}`);
  }

  private signInInfo(): SignInInfo {
    return {
      issuer: this.issuer ?? this.idp.issuer,
      clientId: STAND_IN_CLIENT_ID,
      scopes: ["openid", "email", "groups", "offline_access"],
    };
  }

  /** The caller, from its bearer ID token checked as the real server checks it. */
  private async caller(request: IncomingMessage): Promise<{ email: string; groups: string[] } | undefined> {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!token) return undefined;
    try {
      const claims = await this.idp.verify(token);
      return { email: String(claims.email), groups: (claims.groups as string[]) ?? [] };
    } catch {
      return undefined;
    }
  }

  private list(response: ServerResponse, owner: string): void {
    const items = [...this.tenants.values()].map((t) => t.view).filter((view) => view.spec.owner === owner);
    json(response, 200, { items });
  }

  private create(
    response: ServerResponse,
    owner: string,
    body: { name: string; spec?: Record<string, unknown> },
  ): void {
    if (body.spec && "owner" in body.spec) return refuse(response, 400, "invalid", "owner is never read from the body");
    try {
      validateRequest(body.name, { ...body.spec, owner });
    } catch (error) {
      if (!(error instanceof TenantValidationError)) throw error;
      const problems = error.problems.map((p) => `${labelOf(p)}: ${p.message}`);
      return refuse(response, 400, "invalid", error.message, problems);
    }
    if (this.tenants.has(body.name))
      return refuse(response, 409, "conflict", `tenant ${body.name} exists already; pick another name`);
    json(response, 201, this.seed(body.name, owner, body.spec));
  }

  /** A preview: checked as its operation would be, then the stand-in previews' plan (nothing changes). */
  private async preview(response: ServerResponse, owner: string, name: string, body: PreviewTenantBody): Promise<void> {
    const tenant = this.tenants.get(name);
    if (body.operation === "create") {
      if (body.spec && "owner" in body.spec)
        return refuse(response, 400, "invalid", "owner is never read from the body");
      if (tenant) return refuse(response, 409, "conflict", `tenant ${name} exists already; choose another name`);
    } else if (!tenant || tenant.view.spec.owner !== owner)
      return refuse(response, 404, "notFound", `tenant ${name} not found`);
    const request = body.operation === "create" ? ({ ...body.spec, owner } as TenantRequestInput) : undefined;
    const plan = planOf(await this.previews.preview(name, request));
    json(response, 200, { name, operation: body.operation, plan } satisfies TenantPreviewReply<ChangePlan>);
  }

  private delete(response: ServerResponse, tenant: StandInTenant): void {
    tenant.script = [...DELETE_SCRIPT];
    tenant.view = {
      ...tenant.view,
      metadata: { ...tenant.view.metadata, deletionTimestamp: new Date().toISOString() },
    };
    json(response, 202, tenant.view);
  }

  private kubeconfig(response: ServerResponse, tenant: StandInTenant): void {
    if (tenant.view.status.phase !== "Ready")
      return refuse(response, 409, "notReady", `tenant ${tenant.view.metadata.name} is not Ready`);
    response.writeHead(200, { "content-type": "application/yaml" }).end(tenantKubeconfig);
  }

  /** The tenant's event stream: what came after `lastEventId`, else the tenant now; then each change. */
  private follow(response: ServerResponse, tenant: StandInTenant, lastEventId: string | undefined): void {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const after = tenant.history.findIndex((c) => c.id === lastEventId);
    for (const change of after >= 0 ? tenant.history.slice(after + 1) : tenant.history.slice(-1))
      response.write(eventText(change));
    tenant.followers.add(response);
    response.on("close", () => tenant.followers.delete(response));
    void this.play(tenant);
  }

  /** Takes the tenant's script's steps one by one while someone follows it. */
  private async play(tenant: StandInTenant): Promise<void> {
    while (tenant.followers.size > 0 && tenant.script.length > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (tenant.followers.size > 0) this.step(tenant);
    }
  }

  private step(tenant: StandInTenant): void {
    const step = tenant.script.shift();
    if (!step) return;
    if (step === "deleted") {
      this.tenants.delete(tenant.view.metadata.name);
      return this.change(tenant, undefined);
    }
    const ready = step.phase === "Ready";
    const name = tenant.view.metadata.name;
    this.change(tenant, {
      ...tenant.view,
      status: {
        ...statusOf(step),
        ...(ready && {
          apiServerUrl: `https://${name}.kubespaces.example.com`,
          namespace: `kubespaces-tenant-${name}`,
        }),
      },
    });
  }

  /** Records a change and sends it to every follower (dropping one, when a test asked for it). */
  private change(tenant: StandInTenant, view: TenantView | undefined): void {
    const id = String(++this.resourceVersion);
    if (view) tenant.view = { ...view, metadata: { ...view.metadata, resourceVersion: id } };
    const change: Change = { id, ...(view && { tenant: tenant.view }) };
    tenant.history.push(change);
    const drop = this.dropAfter && view?.status.phase === this.dropAfter.phase && tenant.followers.size > 0;
    for (const follower of tenant.followers) {
      // A dropped connection: cut once this change has reached the wire.
      if (drop) follower.write(eventText(change), () => follower.destroy());
      else follower.write(eventText(change));
      if (!view) follower.end();
    }
    if (drop) {
      const { stepsWhileAway } = this.dropAfter!;
      this.dropAfter = undefined;
      this.droppedAfter = id;
      tenant.followers.clear();
      for (let i = 0; i < stepsWhileAway; i += 1) this.step(tenant);
    }
  }
}

/** A status of the stand-in's. */
function statusOf(step: Exclude<StandInStep, "deleted">): TenantView["status"] {
  const ready = step.phase === "Ready" ? "True" : step.phase === "Failed" ? "False" : "Unknown";
  return {
    phase: step.phase,
    conditions: [{ type: "Ready", status: ready, reason: step.reason, message: step.message, observedGeneration: 1 }],
    message: step.message,
  };
}

/** A change as server-sent event text. */
function eventText(change: Change): string {
  return change.tenant
    ? `id: ${change.id}\nevent: tenant\ndata: ${JSON.stringify(change.tenant)}\n\n`
    : `id: ${change.id}\nevent: deleted\ndata: {}\n\n`;
}

/** Answers an API error. */
function refuse(
  response: ServerResponse,
  status: number,
  kind: ApiErrorKind,
  message: string,
  problems?: string[],
): void {
  json(response, status, { error: { kind, message, ...(problems && { problems }) } });
}
