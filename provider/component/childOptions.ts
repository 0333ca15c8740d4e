/** Resource options of a child, read from its row of the edge table. */
import type * as pulumi from "@pulumi/pulumi";
import type { ChildEdges } from "../graph/childEdges";
import type { ChildRole } from "../render/renderTenant";

/** The children registered so far, by role. */
export type RegisteredChildren = ReadonlyMap<ChildRole, pulumi.Resource>;

/**
 * `parent`, `dependsOn` and `deletedWith` of a child as its edges say, resolved against the
 * children already registered (the table's order guarantees they are).
 */
export function childOptions(edges: ChildEdges, registered: RegisteredChildren, tenant: pulumi.Resource): pulumi.CustomResourceOptions {
  const resource = (role: ChildRole): pulumi.Resource => {
    const found = registered.get(role);
    if (!found) throw new Error(`kubespaces: child ${role} must be registered before the children that depend on it`);
    return found;
  };
  return {
    parent: tenant,
    ...(edges.dependsOn.length > 0 && { dependsOn: edges.dependsOn.map(resource) }),
    ...(edges.deletedWith && { deletedWith: resource(edges.deletedWith) }),
  };
}
