/**
 * The tenant operations of a kubespaces server's API (contracts/tenantsApi.ts), with the meaning
 * the tenants service gives them, so that the commands behave the same in both modes: `create`
 * POSTs the request and follows the tenant's events until it is Ready (or throws
 * TenantFailedError), `delete` asks for the teardown and follows until the tenant is gone, `watch`
 * follows until nothing is going to change it. The server takes the caller from the sign-in: the
 * Actor each operation takes only names who that is.
 */
import { isDeepStrictEqual } from "node:util";
import {
  API_PATHS,
  type CreateTenantBody,
  type PreviewTenantBody,
  type TenantHistoryBody,
  type TenantListBody,
  type TenantPreviewReply,
} from "../../contracts/tenantsApi";
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import type { TenantView } from "../../tenantResource/tenantReplies";
import type { Actor, StackUpdate } from "../../tenants/ports";
import {
  isProvisionedPhase,
  isSettled,
  TENANT_PHASES,
  type ReadyReason,
  type TenantEvent,
  type TenantPhase,
} from "../../tenants/tenantObject";
import {
  InterruptedError,
  RequestConflictError,
  RequestInvalidError,
  TenantFailedError,
  TenantNotFoundError,
} from "../../tenants/tenantsErrors";
import type { OperationOptions } from "../../tenants/tenantsService";
import type { ChangePlan } from "../../tenants/tenantPlan";
import type { ServerApi } from "./serverApi";
import { followTenant, type FollowOptions } from "./tenantFollow";
import type { DeleteOutcome, FollowOptions as DoorFollowOptions, TenantOperations } from "../tenantsDoor";

/** The tenants of one server. */
export class ServerTenants implements TenantOperations {
  /**
   * @param api the server's client.
   * @param follow how its event streams are followed (tests shorten the waits).
   */
  constructor(
    private readonly api: ServerApi,
    private readonly follow: Omit<FollowOptions, "signal"> = {},
  ) {}

  async history(name: string): Promise<StackUpdate[]> {
    return [
      ...(await this.api.json<TenantHistoryBody<StackUpdate>>("GET", API_PATHS.tenantHistory(name), { tenant: name }))
        .items,
    ];
  }

  get(name: string): Promise<TenantView> {
    return this.api.json<TenantView>("GET", API_PATHS.tenant(name), { tenant: name });
  }

  async list(_actor: Actor, options: { readonly all?: boolean } = {}): Promise<TenantView[]> {
    const path = options.all ? `${API_PATHS.tenants}?all=true` : API_PATHS.tenants;
    return [...(await this.api.json<TenantListBody<TenantView>>("GET", path)).items];
  }

  /** The owner rule only (the server checks the rest, with the component's rules, before it stores anything). */
  check(name: string, request: TenantRequestInput, actor: Actor): TenantRequestInput {
    const owner = (request as { owner?: string }).owner;
    if (owner !== undefined && owner !== actor.owner)
      throw new RequestInvalidError(
        `tenant ${name}: owner must be you (${actor.owner}): the server takes the owner from your sign-in`,
        ["owner: must be the signed-in person"],
      );
    return { ...request, owner: actor.owner } as TenantRequestInput;
  }

  async create(
    name: string,
    request: TenantRequestInput | undefined,
    actor: Actor,
    options: OperationOptions = {},
  ): Promise<TenantView> {
    if (request) await this.request(name, this.check(name, request, actor));
    options.onNote?.(`${request ? "requested" : "following"} tenant ${name} on ${this.api.server}`);
    const progress = new ProgressOf(name);
    try {
      for await (const change of followTenant(this.api, name, { ...this.follow, signal: options.signal })) {
        if ("deleted" in change) throw goneWhileFollowed(name, "became Ready");
        progress.report(change.tenant, options);
        const { phase, conditions, message } = change.tenant.status;
        if (isProvisionedPhase(phase)) return change.tenant;
        if (phase === "Failed") throw new TenantFailedError(name, reasonOf(conditions), message);
      }
    } catch (error) {
      throw stoppedFollowing(error, name, options.signal, "the create");
    }
    throw goneWhileFollowed(name, "became Ready");
  }

  async delete(name: string, _actor: Actor, options: OperationOptions = {}): Promise<DeleteOutcome> {
    await this.askDelete(name);
    options.onNote?.(`asked ${this.api.server} to delete tenant ${name}; following its teardown`);
    const progress = new ProgressOf(name);
    try {
      for await (const change of followTenant(this.api, name, { ...this.follow, signal: options.signal })) {
        if ("deleted" in change) break;
        progress.report(change.tenant, options);
        const { phase, conditions, message } = change.tenant.status;
        if (phase === "Failed")
          throw new TenantFailedError(name, reasonOf(conditions), `the teardown failed: ${message}`);
      }
    } catch (error) {
      // Gone before its events could be read: the teardown has finished already.
      if (!(error instanceof TenantNotFoundError)) throw stoppedFollowing(error, name, options.signal, "the teardown");
    }
    options.onEvent?.({ name, phase: "Deleted" });
    return { deletedBy: this.api.server };
  }

  /**
   * What creating tenant `name` with `request` (none: deleting it) would change, as the server's
   * preview of its stack plans it. A name some tenant has is refused for a create's preview, as
   * the create itself would be: the server's door changes no existing tenant's request.
   */
  async preview(
    name: string,
    request: TenantRequestInput | undefined,
    actor: Actor,
    options: OperationOptions = {},
  ): Promise<ChangePlan> {
    const body: PreviewTenantBody = request
      ? { operation: "create", spec: specOf(this.check(name, request, actor)) }
      : { operation: "delete" };
    options.onNote?.(`asked ${this.api.server} to preview ${request ? "creating" : "deleting"} tenant ${name}`);
    const path = API_PATHS.tenantPreview(name);
    return (await this.api.json<TenantPreviewReply<ChangePlan>>("POST", path, { tenant: name, body })).plan;
  }

  kubeconfig(name: string): Promise<string> {
    return this.api.text(API_PATHS.tenantKubeconfig(name), { tenant: name, headers: { accept: "application/yaml" } });
  }

  async *watch(name: string, _actor: Actor, signal?: AbortSignal): AsyncGenerator<TenantEvent> {
    const progress = new ProgressOf(name);
    for await (const change of followTenant(this.api, name, { ...this.follow, signal })) {
      if ("deleted" in change) {
        yield { name, phase: "Deleted" };
        return;
      }
      const event = progress.eventOf(change.tenant);
      if (event) yield event;
      if (isSettled(change.tenant)) return;
    }
  }

  /** Asks for tenant `name` with `request` (none: the server goes on with its stored one), following nothing. */
  async ask(name: string, request: TenantRequestInput | undefined, actor: Actor): Promise<TenantView> {
    if (request) await this.request(name, this.check(name, request, actor));
    return this.get(name);
  }

  /** Asks for tenant `name`'s teardown, following nothing. */
  askDelete(name: string): Promise<TenantView> {
    return this.api.json<TenantView>("DELETE", API_PATHS.tenant(name), { tenant: name });
  }

  /** Follows tenant `name` through its event stream until `until` holds of it (TenantsDoor.follow). */
  async followUntil(
    name: string,
    until: (tenant: TenantView) => boolean,
    options: DoorFollowOptions,
  ): Promise<TenantView> {
    const progress = new ProgressOf(name);
    try {
      for await (const change of followTenant(this.api, name, { ...this.follow, signal: options.signal })) {
        if ("deleted" in change) break;
        progress.report(change.tenant, options);
        if (until(change.tenant)) return change.tenant;
      }
    } catch (error) {
      throw stoppedFollowing(error, name, options.signal, "the tenant");
    }
    throw new TenantNotFoundError(name);
  }

  /**
   * POSTs the request (the owner left out: the server takes it from the sign-in). A tenant of that
   * name with the same request is resumed, as the service resumes it; another request is refused.
   */
  private async request(name: string, checked: TenantRequestInput): Promise<void> {
    const body: CreateTenantBody = { name, spec: specOf(checked) };
    try {
      await this.api.json("POST", API_PATHS.tenants, { tenant: name, body });
    } catch (error) {
      if (!(error instanceof RequestConflictError)) throw error;
      const stored = await this.get(name).catch(() => undefined);
      if (!stored || !isDeepStrictEqual(stored.spec, checked)) throw error;
    }
  }
}

/** A checked request as the API takes it: the owner left out (the server takes it from the sign-in). */
function specOf(checked: TenantRequestInput): Record<string, unknown> {
  const { owner: _owner, ...spec } = checked as { owner?: string } & Record<string, unknown>;
  return spec;
}

/** The progress events a tenant's changes make: its phase when it changes, its message when that changes. */
class ProgressOf {
  private message: string | undefined;
  constructor(private readonly name: string) {}

  /** Reports `tenant`'s change to `options`. */
  report(tenant: TenantView, options: OperationOptions): void {
    const event = this.eventOf(tenant);
    if (event) options.onEvent?.(event);
  }

  /** The event `tenant`'s change makes, if any. */
  eventOf(tenant: TenantView): TenantEvent | undefined {
    const { phase, conditions, message } = tenant.status;
    const newMessage = message && message !== this.message ? message : undefined;
    this.message = message;
    if (!isServicePhase(phase))
      // AwaitingApproval, Previewed: no phase of the service's; said in words, once per message.
      return newMessage ? { name: this.name, detail: `${phase}: ${newMessage}` } : undefined;
    return {
      name: this.name,
      phase,
      ...(phase === "Failed" && { reason: reasonOf(conditions) }),
      ...(newMessage && { detail: newMessage }),
    };
  }
}

const isServicePhase = (phase: string): phase is TenantPhase => (TENANT_PHASES as readonly string[]).includes(phase);

/** The Ready condition's reason, as the service names it. */
const reasonOf = (conditions: TenantView["status"]["conditions"]): ReadyReason =>
  (conditions.find((c) => c.type === "Ready")?.reason ?? "ProvisioningFailed") as ReadyReason;

/** The error of a tenant deleted while a create followed it. */
function goneWhileFollowed(name: string, before: string): TenantNotFoundError {
  const error = new TenantNotFoundError(name);
  error.message = `tenant ${name} was deleted before it ${before}`;
  return error;
}

/** `error`, or, when the caller stopped the follow, the InterruptedError that says the server goes on. */
function stoppedFollowing(error: unknown, name: string, signal: AbortSignal | undefined, what: string): unknown {
  if (!signal?.aborted) return error;
  return new InterruptedError(
    name,
    `stopped following tenant ${name}; the server goes on with ${what}: \`kubespaces tenant get ${name} --wait\` follows it again`,
  );
}
