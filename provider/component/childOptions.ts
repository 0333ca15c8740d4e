/** Resource options of a child, read from its row of the edge table. */
import type * as pulumi from "@pulumi/pulumi";
import type { ChildEdges } from "../graph/childEdges";
import type { ChildRole } from "../contracts/childRoles";

/** The children registered so far, by role. */
export type RegisteredChildren = ReadonlyMap<ChildRole, pulumi.Resource>;

/**
 * `parent`, `dependsOn` and `deletedWith` of a child as its edges say, resolved against the
 * children already registered (the table's order guarantees they are). With a `verdict` (inputs
 * validated once they resolve), the child also waits for it, ahead of its own inputs, so that it
 * is never registered when the inputs break a rule.
 */
export function childOptions(
  edges: ChildEdges,
  registered: RegisteredChildren,
  tenant: pulumi.Resource,
  verdict?: pulumi.Output<unknown>,
): pulumi.CustomResourceOptions {
  const resource = (role: ChildRole): pulumi.Resource => {
    const found = registered.get(role);
    if (!found) throw new Error(`kubespaces: child ${role} must be registered before the children that depend on it`);
    return found;
  };
  return {
    parent: tenant,
    ...waitingFor(edges.dependsOn.map(resource), verdict),
    ...(edges.deletedWith && { deletedWith: resource(edges.deletedWith) }),
  };
}

/** The `dependsOn` option for `resources` and, when given, `verdict`. */
export function waitingFor(
  resources: pulumi.Resource[],
  verdict?: pulumi.Output<unknown>,
): Pick<pulumi.CustomResourceOptions, "dependsOn"> {
  if (!verdict) return resources.length > 0 ? { dependsOn: resources } : {};
  // A list item of its own, so that a preview that leaves the verdict unknown keeps the edges to
  // `resources`. The SDK gathers lists at any depth (runtime/dependsOn.ts); the type admits one
  // resource per item.
  const gate = verdict.apply((): pulumi.Resource[] => []) as unknown as pulumi.Output<pulumi.Resource>;
  return { dependsOn: [...resources, gate] };
}
