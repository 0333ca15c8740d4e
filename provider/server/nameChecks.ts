/**
 * The checks of a name before the server passes it on, at two depths. A Kubernetes client puts an
 * object's name into a URL path: an empty name, `.` or `..` there turns a call on one object into
 * a call on its collection (a delete of every Tenant, a list read as one tenant), and a comma in a
 * field selector adds a condition. So:
 *
 * - every entry point (the API's and the portal's routes, OwnedTenants) takes a tenant's name only
 *   when it is a DNS-1123 label of at most 63 characters, the model's own rule (`dnsLabel`);
 * - the Kubernetes adapters refuse any name that Kubernetes could not have given an object (a
 *   DNS-1123 subdomain, the rule the API server holds custom resources' names to), so that no
 *   caller, whatever it checked, can reach a collection. They do not hold names to the entry points'
 *   stricter rule: the CRD's rule refuses `team.atlas` now, but a Tenant stored under an older
 *   CRD may be named so, and the reconciler must still be able to read it and say why it is refused.
 *
 * Both refuse with RequestInvalidError (400, kind `invalid`), naming the field and the rule.
 */
import { DNS_SUBDOMAIN, DNS_SUBDOMAIN_MAX_LENGTH, dnsLabel } from "../model/schemaParts";
import { RequestInvalidError } from "../tenants/tenantsErrors";

/** A tenant's name, as an entry point takes it. */
const TENANT_NAME = dnsLabel("A tenant's name.");

/** `name` when it can be a tenant's; RequestInvalidError naming `field` and the rule otherwise. */
export function requireTenantName(name: unknown, field = "name"): string {
  const checked = TENANT_NAME.safeParse(name);
  if (checked.success) return checked.data;
  const problems = checked.error.issues.map((issue) => `${field}: ${issue.message} (got ${JSON.stringify(name)})`);
  throw new RequestInvalidError(`no tenant can be named ${JSON.stringify(name)}: ${problems.join("; ")}`, problems);
}

/**
 * `name` when Kubernetes could name an object so (a DNS-1123 subdomain of at most 253 characters);
 * RequestInvalidError naming `field` otherwise. For the adapters, before a name goes into a path.
 */
export function requireObjectName(name: string, field: string): string {
  if (typeof name === "string" && name.length <= DNS_SUBDOMAIN_MAX_LENGTH && DNS_SUBDOMAIN.test(name)) return name;
  const problem = `${field}: must be a DNS-1123 subdomain of at most ${DNS_SUBDOMAIN_MAX_LENGTH} characters (lower-case letters, digits, '-' and '.'), got ${JSON.stringify(name)}`;
  throw new RequestInvalidError(`the host was not asked: ${problem}`, [problem]);
}
