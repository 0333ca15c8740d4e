/**
 * CEL rules (`x-kubernetes-validations`) added since the baseline on a node the baseline already
 * had, each reviewed: it refuses nothing a stored object holds or an applied manifest asks that
 * the server would have taken. The versioning test fails on any other added rule. Emptied when the
 * baseline moves (README.md): the baseline then holds them.
 */
import type { ReviewedValidation } from "../../unit/support/additiveSchemaChanges";

/** A name the server refused as InvalidRequest, now refused at apply: no Tenant it took is refused. */
const NAME_LIMIT_REASON =
  "the server already refused these names as InvalidRequest; the API server now refuses them at apply";

/** The reviewed rules, by CRD. */
export const REVIEWED_VALIDATIONS: Readonly<Record<string, readonly ReviewedValidation[]>> = {
  "tenants.kubespaces.io": [
    // The name's limits (a Helm release's 53 characters; the namespace's room under the
    // installation's prefix), on metadata.name or on the whole object, where a rule reads
    // self.metadata.name; and the first letter the vCluster's Service name needs. The component
    // (model/validateTenant.ts) refused each of them before the rules came.
    { path: "metadata.name", rule: /^size\(self\) <= \d+$/, reason: NAME_LIMIT_REASON },
    { path: "metadata.name", rule: 'self.matches("^[a-z]")', reason: NAME_LIMIT_REASON },
    { path: "", rule: /^size\(self\.metadata\.name\) <= \d+$/, reason: NAME_LIMIT_REASON },
  ],
  "platformrevisions.kubespaces.io": [],
};

/**
 * CRDs the last release did not have, so with no baseline: nothing of theirs is stored or in Git to
 * break. Emptied when the baseline moves (README.md): the baseline then holds them.
 */
export const NEW_SINCE_BASELINE: readonly string[] = [
  // The ceilings the server publishes for the ceiling admission policy.
  "tenantceilings.kubespaces.io",
];
