/**
 * What to do about a tenant's status, for people, beside the operator's reason and the run's
 * message: per Failed reason (the reconciler waits for a new request after InvalidRequest and
 * tries every other failure again with backoff), and while the approval gate holds a change.
 * The tenant page renders every hint and shows the ones its phase and reason call for, so the
 * live-status script only toggles them.
 */

/** One hint, and when it shows. */
export interface StatusHint {
  /** The phases it shows in (empty: any phase). */
  readonly phases: readonly string[];
  /** The Ready reasons it shows for (empty: any reason). */
  readonly reasons: readonly string[];
  /** What to do. */
  readonly text: string;
}

const TRIED_AGAIN =
  "The server tries again on its own, waiting longer each time. If the tenant stays Failed, send its name, the reason and the message to the platform team.";

/** Every hint of the tenant page. */
export const STATUS_HINTS: readonly StatusHint[] = [
  {
    phases: ["Failed"],
    reasons: ["InvalidRequest"],
    text: "The request breaks a rule of the platform (the message names the field and the rule), so it is not tried again. Delete this tenant and create it again with a request that fits.",
  },
  {
    phases: ["Failed"],
    reasons: ["QuotaFailed"],
    text: `The tenant's quota or its container defaults could not be put in place on the host. ${TRIED_AGAIN}`,
  },
  {
    phases: ["Failed"],
    reasons: ["NetworkingFailed"],
    text: `The tenant's network isolation could not be put in place on the host. ${TRIED_AGAIN}`,
  },
  {
    phases: ["Failed"],
    reasons: ["ProvisioningFailed", "Interrupted"],
    text: `Provisioning the virtual cluster failed. ${TRIED_AGAIN}`,
  },
  {
    phases: ["AwaitingApproval"],
    reasons: [],
    text: "A platform admin must approve this change before it is made; the page follows it once they do.",
  },
  {
    phases: ["Previewed"],
    reasons: [],
    text: "The Tenant asks for a preview only: the plan below is what the change would do, and nothing is made until the preview-only annotation is removed.",
  },
];
