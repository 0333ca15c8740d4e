/**
 * Admission of a Tenant's resources against the platform's ceilings: a ValidatingAdmissionPolicy
 * whose parameters are the TenantCeilings object `new-tenants`, in which the server publishes the
 * ceilings a new tenant is held to (server/admission/ceilingPublisher.ts, tenantCeilingsCrd.ts). A
 * request above them is refused by the API server itself, before anything is made and with the
 * reconciler's own words, so that `kubectl apply` and a GitOps controller's apply fail at once
 * instead of leaving a Failed Tenant behind.
 *
 * The server stays the final word: the policy is an early answer, not the rule. The ceilings are
 * the policy's (the server's configuration, or the newest PlatformRevision rolled out to every
 * tenant), which only the server reads whole, so it is the server that publishes them; with no
 * such object (no server yet, or one that cannot write it) the policy admits and the reconciler
 * refuses. A tenant is held to the published ceilings when it is created, and when an update
 * changes its resources while it runs the policy they came from (`status.platformRevision`); a
 * tenant part-way through a rollout runs another policy, which only the server knows.
 *
 * Nothing else of a request is judged here: an update that leaves the resources alone (a
 * finalizer's removal, an annotation) always passes, whatever the ceilings are now.
 */
import { OBJECT_COUNTS } from "../model/schemaParts";
import { celLiteral as cel } from "../model/apiServerRules";
import { admissionPolicy } from "./admissionPolicy";
import type { InstalledObject } from "./kubeObject";
import { TENANT_GROUP, TENANT_PLURAL, TENANT_RESOURCE_OBJECTS } from "../contracts/tenantResourceNames";
import {
  NEW_TENANT_CEILINGS,
  TENANT_CEILINGS_API_VERSION,
  TENANT_CEILINGS_KIND,
} from "../contracts/tenantCeilingsNames";

/** The quantities a ceiling caps: the request's field, and its key among the published ceilings. */
export const CEILING_QUANTITIES = ["cpu", "memory", "storage", "ephemeralStorage"] as const;

/** The object counts a ceiling caps. */
export const CEILING_COUNTS = Object.keys(OBJECT_COUNTS) as (keyof typeof OBJECT_COUNTS)[];

/** Ceiling `field`'s value in the parameters, in CEL. */
const ceiling = (field: string) => `params.spec.ceilings[${cel(field)}]`;

/** The request's `field`, in CEL. */
const requested = (field: string) => `object.spec.resources.${field}`;

/** CEL: the request sets `field` and the parameters hold a ceiling for it. */
const bothSet = (field: string) =>
  `has(object.spec.resources) && has(${requested(field)}) && ${cel(field)} in params.spec.ceilings`;

/** The refusal's text, in CEL: the reconciler's (policyRules.ts), with the request's value and the ceiling. */
const refusal = (field: string, value: string) =>
  `${cel(`spec.resources.${field}: `)} + ${value} + ${cel(` is above the platform's ceiling (platform.quota.ceilings.${field}: `)} + ${ceiling(field)} + ")"`;

/** One validation for each ceiling: held only where `variables.held` says the request is. */
function validations() {
  const quantities = CEILING_QUANTITIES.map((field) => ({
    expression: `!variables.held || !(${bothSet(field)}) || !isQuantity(${requested(field)}) || !isQuantity(${ceiling(field)}) || !quantity(${requested(field)}).isGreaterThan(quantity(${ceiling(field)}))`,
    messageExpression: refusal(field, requested(field)),
    reason: "Invalid",
  }));
  const counts = CEILING_COUNTS.map((field) => ({
    // A ceiling that is not a whole number (the server writes none) holds nothing rather than failing every request.
    expression: `!variables.held || !(${bothSet(field)}) || !${ceiling(field)}.matches("^[0-9]{1,15}$") || ${requested(field)} <= int(${ceiling(field)})`,
    messageExpression: refusal(field, `string(${requested(field)})`),
    reason: "Invalid",
  }));
  return [...quantities, ...counts];
}

/** The revision the tenant runs, in CEL: "" when its status names none. */
const runningRevision =
  "has(oldObject.status) && has(oldObject.status.platformRevision) ? oldObject.status.platformRevision : ''";

/** The policy and its binding, whose parameters are the published ceilings. */
export function ceilingAdmission(): InstalledObject[] {
  return admissionPolicy(
    "ceiling-policy",
    TENANT_RESOURCE_OBJECTS.ceilingPolicy,
    {
      paramKind: { apiVersion: TENANT_CEILINGS_API_VERSION, kind: TENANT_CEILINGS_KIND },
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: [TENANT_GROUP],
            apiVersions: ["*"],
            operations: ["CREATE", "UPDATE"],
            resources: [TENANT_PLURAL],
          },
        ],
      },
      variables: [
        {
          name: "held",
          expression: `request.operation == "CREATE" || ((!has(oldObject.spec.resources) || !has(object.spec.resources) || oldObject.spec.resources != object.spec.resources) && (${runningRevision}) == (has(params.spec.platformRevision) ? params.spec.platformRevision : ""))`,
        },
      ],
      validations: validations(),
    },
    {
      paramRef: {
        name: NEW_TENANT_CEILINGS,
        // Without the published ceilings the server alone judges: it refuses what is above its ceilings.
        parameterNotFoundAction: "Allow",
      },
    },
  );
}
