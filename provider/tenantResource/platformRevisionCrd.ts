/**
 * The `platformrevisions.kubespaces.io` CustomResourceDefinition: cluster-scoped, one object per
 * version of the platform's policy, with a status subresource and kubectl's columns. Its spec is
 * the whole policy, in the shape of the server configuration's `platform` (docs/policy.md), and
 * cannot change once made: a new policy is a new revision, so that what was previewed is what the
 * revision holds. The policy's own rules are the server's to check (its schema has unions a
 * structural schema cannot say); it reports a policy that breaks them in the status (Invalid).
 * Only whoever the cluster's RBAC lets create them (the platform's admins) makes revisions: no role
 * this package installs grants it.
 */
import {
  DEFAULT_WAVES,
  PLATFORM_REVISION_CRD_NAME,
  PLATFORM_REVISION_KIND,
  PLATFORM_REVISION_PLURAL,
  PLATFORM_REVISION_SINGULAR,
} from "../contracts/platformRevisionNames";
import { clusterCrd } from "./clusterCrd";
import type { KubeObject } from "./kubeObject";
import { platformRevisionStatusSchema } from "./platformRevisionStatus";
import { structuralSchemaOf, type StructuralSchema } from "./structuralSchema";

/** What the API server answers to a change of a revision's spec. */
export const REVISION_SPEC_IMMUTABLE =
  "a PlatformRevision's spec cannot change once made: make a new PlatformRevision with the new policy";

/** A wave's size: a number of tenants, or a share of them from 1% to 100%. */
export const WAVE_PATTERN = "^([1-9][0-9]{0,5}|([1-9][0-9]?|100)%)$";

/** The schema of a whole PlatformRevision object. */
export function platformRevisionObjectSchema(): StructuralSchema {
  return {
    type: "object",
    description:
      "A version of the platform's policy, previewed by kubespaces server on every tenant: what it would change (status).",
    properties: {
      apiVersion: { type: "string", description: "`kubespaces.io/v1alpha1`." },
      kind: { type: "string", description: "`PlatformRevision`." },
      metadata: { type: "object" },
      spec: {
        type: "object",
        description: "The revision's policy. It cannot change once made.",
        properties: {
          platform: {
            type: "object",
            description:
              "The whole platform policy, in the shape of the server configuration's `platform` (docs/policy.md), without hostKubeconfig.",
            "x-kubernetes-preserve-unknown-fields": true,
          },
          waves: {
            type: "array",
            description:
              "The waves the revision is rolled out in, once approved: each the number of tenants (`3`) or the share of them (`10%`) that run it by the wave's end, counted over the tenants in an order of the revision's own. The last is always the whole fleet.",
            items: { type: "string", pattern: WAVE_PATTERN },
            minItems: 1,
            maxItems: 10,
            default: [...DEFAULT_WAVES],
          },
        },
        required: ["platform"],
        "x-kubernetes-validations": [{ rule: "self == oldSelf", message: REVISION_SPEC_IMMUTABLE }],
      },
      status: structuralSchemaOf(platformRevisionStatusSchema, "output"),
    },
    required: ["spec"],
  };
}

/** The PlatformRevision CRD. */
export function platformRevisionCrd(): KubeObject {
  return clusterCrd({
    name: PLATFORM_REVISION_CRD_NAME,
    kind: PLATFORM_REVISION_KIND,
    plural: PLATFORM_REVISION_PLURAL,
    singular: PLATFORM_REVISION_SINGULAR,
    columns: [
      { name: "Phase", type: "string", jsonPath: ".status.phase" },
      { name: "Tenants", type: "integer", jsonPath: ".status.summary.tenants" },
      { name: "Changing", type: "integer", jsonPath: ".status.summary.changing" },
      { name: "Failed", type: "integer", jsonPath: ".status.summary.failed" },
      { name: "Rollout", type: "string", jsonPath: ".status.rollout.phase" },
      { name: "Wave", type: "integer", jsonPath: ".status.rollout.wave" },
    ],
    schema: platformRevisionObjectSchema(),
  });
}
