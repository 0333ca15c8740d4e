/**
 * Whether a tenant may use a namespace: one that does not exist yet, or one that this stack's
 * tenant created, which carries the tenant's label and this stack's owner id. The Kubernetes
 * provider creates by server-side apply, which silently takes over an existing object
 * (pulumi-kubernetes #2926), and a later destroy would delete it: so an existing namespace that is
 * not this stack's tenant's is refused before anything is created. The label alone is not enough:
 * another stack (another person's backend, a second TenantSet, the demo) can declare a tenant of
 * the same name, and its destroy would delete this one's namespace and data.
 *
 * Only the label and the owner id decide, each compared for equality; other text on the namespace
 * (the `kubespaces.io/owner` annotation) is only quoted, to say whom to ask.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import { OWNER_ANNOTATION, OWNER_ID_ANNOTATION, TENANT_LABEL } from "../../model/names";
import { loadHostKubeConfig } from "../hostAccess";

/** What an existing namespace says about whose it is. */
export interface NamespaceMarks {
  /** Its `kubespaces.io/tenant` label, if any. */
  readonly tenant?: string;
  /** Its `kubespaces.io/owner-id` annotation, if any: the id of the stack that created it. */
  readonly ownerId?: string;
  /** Its `kubespaces.io/owner` annotation, if any: the team, for messages only. */
  readonly owner?: string;
}

/** The marks of `namespace`, or undefined when it does not exist. */
export async function readNamespaceMarks(
  namespace: string,
  kubeconfig: string | undefined,
): Promise<NamespaceMarks | undefined> {
  const core = loadHostKubeConfig(kubeconfig).makeApiClient(CoreV1Api);
  try {
    const { labels = {}, annotations = {} } = (await core.readNamespace({ name: namespace })).metadata ?? {};
    return {
      tenant: labels[TENANT_LABEL],
      ownerId: annotations[OWNER_ID_ANNOTATION],
      owner: annotations[OWNER_ANNOTATION],
    };
  } catch (error) {
    if ((error as { code?: number }).code === 404) return undefined;
    throw error;
  }
}

/**
 * The reason the tenant of the stack whose owner id is `ownerId` may not create `namespace`, which
 * has the marks `found` (undefined: it does not exist), or undefined when it may.
 */
export function createRefusal(
  tenant: string,
  namespace: string,
  found: NamespaceMarks | undefined,
  ownerId: string,
): string | undefined {
  if (!found || (found.tenant === tenant && found.ownerId === ownerId)) return undefined;
  if (found.tenant !== tenant) {
    const whose = found.tenant ? `belongs to tenant ${found.tenant}` : `has no ${TENANT_LABEL} label`;
    return `namespace ${namespace} already exists and ${whose}; tenant ${tenant} will not take it over (choose another name or namespace, or delete it first)`;
  }
  const whose = found.ownerId
    ? `was created by another stack's tenant ${tenant}${details(`its owner id ${quoted(found.ownerId)}, this stack's ${ownerId}`, teamNote(found))}`
    : `carries ${TENANT_LABEL}=${tenant} but no ${OWNER_ID_ANNOTATION} annotation, so it is not this stack's (owner id ${ownerId}): someone made it by hand, or another stack did with a kubespaces release from before owner ids${details(teamNote(found))}`;
  return `namespace ${namespace} ${whose}; tenant ${tenant} will not take it over, because deleting it from this stack would delete that tenant and its data. Choose another tenant name or namespace, or manage this tenant from the stack that created it.`;
}

/**
 * The reason a tenant created before owner ids (its state has none) may not adopt `namespace` and
 * write a new id on it, or undefined when it may: an id already there is another stack's, which
 * means two stacks manage this tenant and the other one has claimed it first.
 */
export function adoptRefusal(tenant: string, namespace: string, found: NamespaceMarks | undefined): string | undefined {
  if (found?.ownerId === undefined) return undefined;
  return `refusing to update tenant ${tenant}: namespace ${namespace} was claimed by another stack${details(`owner id ${quoted(found.ownerId)}`, teamNote(found))}, and this stack's tenant, created before owner ids, has no id to compare: two stacks manage this tenant. Stopped before anything changed. Keep it in the stack that claimed it; take it out of this stack's state (pulumi state delete) rather than destroying it here, which would delete that stack's namespace.`;
}

/** Who the namespace says its team is, quoted, when it says. */
function teamNote(found: NamespaceMarks): string | undefined {
  return found.owner === undefined ? undefined : `its ${OWNER_ANNOTATION} ${quoted(found.owner)}`;
}

/** The parts that are there, in parentheses; nothing when none is. */
function details(...parts: (string | undefined)[]): string {
  const present = parts.filter((part) => part !== undefined);
  return present.length === 0 ? "" : ` (${present.join("; ")})`;
}

/**
 * Text someone else wrote, for a message: JSON-quoted (so control characters cannot reach a
 * terminal) and cut short.
 */
function quoted(text: string): string {
  const MAX = 80;
  return JSON.stringify(text.length > MAX ? `${text.slice(0, MAX)}…` : text);
}
