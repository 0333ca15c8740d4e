/**
 * A STAND-IN for the server's previews (the real one is serverPreviews.ts over the tenants service
 * and a Pulumi preview of the tenant's stack): it answers as such a preview does, with the steps
 * of the tenant's main objects (each a create for a new tenant, a delete for a teardown, and
 * "same" steps the plan leaves out), and records each preview it ran so that tests can tell it
 * ran, and for which request. It stores and changes nothing, as the real one.
 */
import type { TenantRequestInput } from "../../../provider/model/tenantRequestSchema";
import type { StackPreviews } from "../../../provider/server/people/ownedTenants";
import type { ResourceStep } from "../../../provider/tenants/tenantObject";

/** The types of the objects the stand-in's steps name, as the real program's type tokens. */
const TYPES = [
  "kubespaces:index:Tenant",
  "kubernetes:core/v1:Namespace",
  "kubernetes:core/v1:ResourceQuota",
  "kubernetes:core/v1:LimitRange",
  "kubernetes:networking.k8s.io/v1:NetworkPolicy",
  "kubernetes:helm.sh/v3:Release",
] as const;

/** The stand-in previews. */
export class StandInStackPreviews implements StackPreviews {
  /** Each preview run, in order: the tenant and the request (none: a delete's). */
  readonly ran: { readonly name: string; readonly request?: TenantRequestInput }[] = [];
  /** An error the next preview fails with. */
  nextError?: Error;

  async preview(name: string, request: TenantRequestInput | undefined): Promise<readonly ResourceStep[]> {
    this.ran.push({ name, ...(request && { request }) });
    const error = this.nextError;
    this.nextError = undefined;
    if (error) throw error;
    const op = request ? "create" : "delete";
    // The provider's read of the host's defaults: a step a real preview reports and a plan leaves out.
    return [
      { op: "same", type: "pulumi:providers:kubernetes", name: "host", diffs: [] },
      ...TYPES.map((type) => ({ op, type, name, diffs: [] })),
    ];
  }
}
