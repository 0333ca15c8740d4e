/**
 * The rule of a tenant's name, in one place: the component (validateTenant.ts, and so every door
 * behind it, the server included) holds names to it, and the Tenant CRD's CEL rules
 * (tenantResource/tenantCrd.ts) are made from it, so that `kubectl apply` refuses at once a Tenant
 * the server would only mark InvalidRequest later.
 */
import { DNS_LABEL_MAX_LENGTH } from "./schemaParts";

/** The most characters a Helm release name may have; the vCluster's release is named after the tenant. */
export const RELEASE_NAME_MAX_LENGTH = 53;

/** What a name longer than a release's may be is told. */
export const RELEASE_NAME_TOO_LONG = `must be at most ${RELEASE_NAME_MAX_LENGTH} characters (a Helm release name)`;

/**
 * How a tenant's name must start: with a letter, since the release names the vCluster's Service
 * after it and a Service's name must start with one (a DNS-1035 label).
 */
export const TENANT_NAME_START = /^[a-z]/;

/** What a name that does not start so is told. */
export const TENANT_NAME_START_MESSAGE = "must start with a letter (it names the vCluster's Service)";

/** How many characters the namespace `<namespacePrefix><name>`, a DNS-1123 label, leaves the name. */
export const namespaceRoom = (namespacePrefix: string): number => DNS_LABEL_MAX_LENGTH - namespacePrefix.length;

/** What a name too long for its namespace under `namespacePrefix` is told, where the namespace itself is not at hand. */
export const namespaceTooLong = (namespacePrefix: string): string =>
  `must be at most ${namespaceRoom(namespacePrefix)} characters: the namespace ${namespacePrefix}<name> may have at most ${DNS_LABEL_MAX_LENGTH}`;

/** The most characters a tenant's name may have under `namespacePrefix`: its release's limit, or its namespace's when tighter. */
export const tenantNameMaxLength = (namespacePrefix: string): number =>
  Math.min(RELEASE_NAME_MAX_LENGTH, namespaceRoom(namespacePrefix));
