/**
 * Waits until the namespace's access binding (platform.namespaceAccess) has taken effect for
 * whoever runs the stack. The API server authorizes from a cache of RoleBindings that it fills by
 * watching them, so a binding that was just created may not count yet: under load, the very next
 * create in the namespace was refused (403) to kubespaces server, whose rights there come from that
 * binding alone. A binding's rules enter the cache together, so one question settles it: may the
 * runner create the ResourceQuota, the first object every tenant makes after the binding? The
 * runner asks the API server itself (a SelfSubjectAccessReview, which every signed-in identity may
 * make); there is no watch for that answer, so it asks again until it is yes.
 */
import { setTimeout as delay } from "node:timers/promises";
import { AuthorizationV1Api } from "@kubernetes/client-node";
import type { AccessCheckInputs } from "../../contracts/accessCheckSchema";
import { loadHostKubeConfig } from "../hostAccess";

/** What the wait asks about: creating the namespace's first object after the binding. */
export const CHECKED_ACCESS = { verb: "create", group: "", resource: "resourcequotas" } as const;

/** How the wait asks, and how long it keeps asking. */
export interface AccessWaitOptions {
  /** Answers whether the runner may do CHECKED_ACCESS in `namespace`. */
  readonly mayCreate: (namespace: string) => Promise<boolean>;
  /** How long to keep asking before giving up, in ms. */
  readonly limitMs: number;
  /** The pause between two questions, in ms. */
  readonly intervalMs: number;
}

/** The limit: far past what the cache takes under load, short of hiding a binding that grants nothing. */
const LIMIT_MS = 60_000;
const INTERVAL_MS = 250;

/** Asks the host, with `kubeconfig`, whether its user may do CHECKED_ACCESS in a namespace. */
export function selfAccessReview(kubeconfig: string | undefined): AccessWaitOptions["mayCreate"] {
  const authorization = loadHostKubeConfig(kubeconfig).makeApiClient(AuthorizationV1Api);
  return async (namespace) => {
    const review = await authorization.createSelfSubjectAccessReview({
      body: { spec: { resourceAttributes: { namespace, ...CHECKED_ACCESS } } },
    });
    return review.status?.allowed === true;
  };
}

/** The message when the binding has not given the runner access within the limit. */
export function accessNotGrantedMessage(inputs: AccessCheckInputs, limitMs: number): string {
  return `tenant ${inputs.tenantName}: after ${limitMs / 1000} s the identity running this stack still may not ${CHECKED_ACCESS.verb} ${CHECKED_ACCESS.resource} in namespace ${inputs.namespace}. If its rights there come from RoleBinding ${inputs.roleBinding} (platform.namespaceAccess), check that the binding's subject is this identity and its ClusterRole grants that`;
}

/**
 * Returns once the runner may create in the namespace; reports once if it has to wait. Throws
 * with accessNotGrantedMessage after the limit.
 */
export async function awaitNamespaceAccess(
  inputs: AccessCheckInputs,
  progress: (message: string) => void,
  options: AccessWaitOptions = {
    mayCreate: selfAccessReview(inputs.hostKubeconfig),
    limitMs: LIMIT_MS,
    intervalMs: INTERVAL_MS,
  },
): Promise<void> {
  const deadline = Date.now() + options.limitMs;
  if (await options.mayCreate(inputs.namespace)) return;
  progress(`waiting for RoleBinding ${inputs.roleBinding} to take effect in namespace ${inputs.namespace}`);
  while (Date.now() < deadline) {
    await delay(options.intervalMs);
    if (await options.mayCreate(inputs.namespace)) return;
  }
  throw new Error(accessNotGrantedMessage(inputs, options.limitMs));
}
