/**
 * `kubespaces:index:TenantSet`: one Tenant for each Tenant document in a folder (or file) of
 * `kubespaces.io/v1alpha1` manifests, under the platform's policy. A file is a team's request,
 * never platform power: the policy comes from the program. A document removed from the folder is a
 * Tenant removed from the program, so the next `up` tears it down.
 */
import * as pulumi from "@pulumi/pulumi";
import { Tenant } from "../component/tenant";
import type { TenantPlatformArgs } from "../generated/tenantTypes";
import { indexToken } from "../model/tokens";
import { resolvedPart } from "../component/unresolvedInputs";
import { readTenantFiles } from "./tenantDocuments";

/** Arguments of a TenantSet. */
export interface TenantSetArgs {
  /** A folder of `.yaml`/`.yml` files, or one file; each may hold several `---`-separated documents. */
  readonly path: string;
  /** The platform's policy every tenant of the set is held to. */
  readonly platform?: TenantPlatformArgs;
  /** Values for `${name}` placeholders in the files (for example a domain per environment). */
  readonly variables?: Readonly<Record<string, string>>;
}

/** The tenants declared by a folder of Tenant files. */
export class TenantSet extends pulumi.ComponentResource {
  /** Each tenant by name. */
  readonly tenants: Readonly<Record<string, Tenant>>;
  /** The tenants' names, sorted. */
  readonly names: pulumi.Output<string[]>;

  /**
   * @param name the set's name (tenants are named after their documents, not after the set).
   * @param args where the files are, and the platform's policy.
   * @param opts resource options; a Kubernetes `provider` here is the host cluster of every tenant.
   */
  constructor(name: string, args: TenantSetArgs, opts: pulumi.ComponentResourceOptions = {}) {
    // Every document is checked before anything is registered: a bad one stops the whole set, so
    // that no tenant is deleted or changed because a file next to it is broken. What the policy
    // holds as Outputs is left out here and checked by each Tenant once it resolves.
    const documents = readTenantFiles(
      args.path,
      resolvedPart(args.platform ?? {}) as Parameters<typeof readTenantFiles>[1],
      args.variables,
    );
    super(indexToken("TenantSet"), name, {}, opts);
    this.tenants = Object.fromEntries(
      documents.map((doc) => [
        doc.name,
        new Tenant(
          doc.name,
          { ...(doc.request as object), platform: args.platform } as never,
          tenantOptions(this, opts),
        ),
      ]),
    );
    this.names = pulumi.output(Object.keys(this.tenants).sort());
    this.registerOutputs({ names: this.names });
  }
}

/** Each Tenant's options: the set as parent, and the set's providers named again, so each Tenant checks them. */
function tenantOptions(set: TenantSet, opts: pulumi.ComponentResourceOptions): pulumi.ComponentResourceOptions {
  return {
    parent: set,
    ...(opts.provider && { provider: opts.provider }),
    ...(opts.providers && { providers: opts.providers }),
  };
}
