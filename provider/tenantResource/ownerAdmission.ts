/**
 * Admission of Tenants in the cluster: a ValidatingAdmissionPolicy (CEL, enforced by the API server
 * itself, no webhook to run) that keeps each user to tenants they own. For anyone but the platform's
 * admins (the admin group, and admin users such as a GitOps controller) and the server itself:
 * - CREATE: `spec.owner` must be the requesting user;
 * - UPDATE and DELETE: only the tenant's owner may, and an update may not give it another owner;
 * - no one approves their own change: the approval annotations (generation and spec digest) are
 *   the admins' alone;
 * - the server's finalizer stays until the server removes it, after the teardown.
 * This holds for the cluster's own superusers too (system:masters): they act as admins with
 * `--as-group` of the admin group, or remove the binding.
 *
 * The admins and the server's user name are written into the expressions, not read from a
 * parameter object: they are rendered from the same options as the server's RBAC, so the two cannot
 * disagree, and there is no parameter object whose absence would refuse (or admit) every Tenant or
 * whose write access would be a way around the policy. Changing them means applying the policy
 * again, as with the RBAC.
 *
 * Match conditions let the server through (it adds and removes its finalizer with normal updates;
 * its status writes go to the status subresource, which the policy does not match), and
 * Kubernetes' garbage collector. The server's own check of each request against the platform's
 * policy stays the final word.
 */
import { serverUsername, type InstallOptions } from "./installOptions";
import { celLiteral as cel } from "../model/apiServerRules";
import { admissionPolicy } from "./admissionPolicy";
import type { InstalledObject } from "./kubeObject";
import {
  APPROVED_GENERATION_ANNOTATION,
  APPROVED_SPEC_SHA256_ANNOTATION,
  TENANT_FINALIZER,
  TENANT_GROUP,
  TENANT_PLURAL,
  TENANT_RESOURCE_OBJECTS,
} from "../contracts/tenantResourceNames";

/**
 * Who Kubernetes' garbage collector updates objects as (its own ServiceAccount, or the controller
 * manager's user without `--use-service-account-credentials`): it removes the `foregroundDeletion`
 * and `orphan` finalizers of a Tenant being deleted, which an owner check would refuse forever.
 */
const GARBAGE_COLLECTORS = [
  "system:serviceaccount:kube-system:generic-garbage-collector",
  "system:kube-controller-manager",
];

/** The approval annotations, each with the stem of the CEL variables that hold its value before and after a write. */
const APPROVALS = [
  { annotation: APPROVED_GENERATION_ANNOTATION, variable: "approvedGeneration" },
  { annotation: APPROVED_SPEC_SHA256_ANNOTATION, variable: "approvedSpec" },
] as const;

/** Annotation `annotation`'s value on `object`, "" when absent. */
const annotationOf = (object: string, annotation: string): string =>
  `has(${object}.metadata.annotations) && ${cel(annotation)} in ${object}.metadata.annotations ? ${object}.metadata.annotations[${cel(annotation)}] : ""`;

/** Whether `object` carries the server's finalizer. */
const finalized = (object: string): string =>
  `has(${object}.metadata.finalizers) && ${cel(TENANT_FINALIZER)} in ${object}.metadata.finalizers`;

/** One rule: its CEL expression, and its message when it is false (a CEL expression when it quotes the request). */
interface Validation {
  readonly expression: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly reason: "Forbidden";
}

/** A value of the request, in a message. */
interface Value {
  readonly cel: string;
}
const value = (expression: string): Value => ({ cel: expression });

/** A message of text and request values: plain text, or one CEL string expression when it has values. */
const message = (...parts: (string | Value)[]): Pick<Validation, "message" | "messageExpression"> =>
  parts.every((part) => typeof part === "string")
    ? { message: parts.join("") }
    : { messageExpression: parts.map((part) => (typeof part === "string" ? cel(part) : part.cel)).join(" + ") };

/**
 * The requesting user as an owner, in CEL: its name with the identity provider's prefix stripped
 * (a CEL variable), or, without a prefix, the name as it is.
 */
function requesterExpression(options: InstallOptions): string {
  return options.identityPrefixes.username ? "variables.requester" : "request.userInfo.username";
}

/** The variable that strips the user name's prefix, when there is one. */
function requesterVariable(options: InstallOptions): { name: string; expression: string }[] {
  const prefix = options.identityPrefixes.username;
  if (!prefix) return [];
  const name = "request.userInfo.username";
  return [
    {
      name: "requester",
      expression: `${name}.startsWith(${cel(prefix)}) ? ${name}.substring(${prefix.length}) : ${name}`,
    },
  ];
}

/** The admin group as the host's API server names it: with the groups' prefix. */
const hostAdminGroup = (options: InstallOptions): string => `${options.identityPrefixes.groups}${options.adminGroup}`;

function validations(options: InstallOptions): Validation[] {
  const adminGroup = hostAdminGroup(options);
  const requester = requesterExpression(options);
  const unless = `unless you are in group ${adminGroup}`;
  const user = value("request.userInfo.username");
  const rule = (expression: string, text: ReturnType<typeof message>): Validation => ({
    expression,
    ...text,
    reason: "Forbidden",
  });
  return [
    rule(
      `request.operation != "CREATE" || object.spec.owner == ${requester}`,
      message("spec.owner: must be the requesting user (", user, `) ${unless} (got `, value("object.spec.owner"), ")"),
    ),
    rule(
      `request.operation == "CREATE" || oldObject.spec.owner == ${requester}`,
      message(
        "spec.owner: tenant ",
        value("oldObject.metadata.name"),
        " is owned by ",
        value("oldObject.spec.owner"),
        "; only its owner may ",
        value("request.operation.lowerAscii()"),
        ` it ${unless} (you are `,
        user,
        ")",
      ),
    ),
    rule(
      `request.operation != "UPDATE" || object.spec.owner == oldObject.spec.owner`,
      message(
        "spec.owner: may not be changed (from ",
        value("oldObject.spec.owner"),
        " to ",
        value("object.spec.owner"),
        `) ${unless}`,
      ),
    ),
    ...APPROVALS.map(({ annotation, variable }) =>
      rule(
        `request.operation == "DELETE" || variables.${variable}Now == (request.operation == "CREATE" ? "" : variables.${variable}Before)`,
        message(
          `metadata.annotations[${annotation}]: approves a change, which only group ${adminGroup} may; leave it as it was`,
        ),
      ),
    ),
    rule(
      `request.operation != "UPDATE" || !(${finalized("oldObject")}) || (${finalized("object")})`,
      message(
        `metadata.finalizers: ${TENANT_FINALIZER} is removed by the kubespaces server once the tenant's teardown has left nothing; delete the Tenant instead`,
      ),
    ),
  ];
}

/** Whether the requesting user is none of the admins: not in the admin group, and not one of the admin users. */
function notAnAdmin(options: InstallOptions): string {
  const notInGroup = `!(${cel(hostAdminGroup(options))} in request.userInfo.groups)`;
  if (options.adminUsers.length === 0) return notInGroup;
  return `${notInGroup} && !(request.userInfo.username in [${options.adminUsers.map(cel).join(", ")}])`;
}

/** The policy and its binding. */
export function ownerAdmission(options: InstallOptions): InstalledObject[] {
  return admissionPolicy("owner-policy", TENANT_RESOURCE_OBJECTS.ownerPolicy, {
    matchConstraints: {
      resourceRules: [
        {
          apiGroups: [TENANT_GROUP],
          apiVersions: ["*"],
          operations: ["CREATE", "UPDATE", "DELETE"],
          resources: [TENANT_PLURAL],
        },
      ],
    },
    matchConditions: [
      { name: "not-the-server", expression: `request.userInfo.username != ${cel(serverUsername(options))}` },
      { name: "not-an-admin", expression: notAnAdmin(options) },
      {
        name: "not-the-garbage-collector",
        expression: `!(request.userInfo.username in [${GARBAGE_COLLECTORS.map(cel).join(", ")}])`,
      },
    ],
    // Evaluated only where a rule reads them (CEL variables are lazy), so never on a DELETE's null object.
    variables: [
      ...APPROVALS.flatMap(({ annotation, variable }) => [
        { name: `${variable}Now`, expression: annotationOf("object", annotation) },
        { name: `${variable}Before`, expression: annotationOf("oldObject", annotation) },
      ]),
      ...requesterVariable(options),
    ],
    validations: validations(options),
  });
}
