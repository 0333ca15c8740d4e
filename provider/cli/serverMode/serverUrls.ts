/**
 * The URLs sign-in reaches: a kubespaces server (`kubespaces login --server`) and its identity
 * provider. Both must be https, except on this machine's loopback (a local server, the local Dex),
 * where nothing crosses a network; and a Pulumi state backend is not a server, whatever flag it was
 * given to.
 */
import { isLoopbackHttp } from "../../util/loopbackUrl";
import { CliError, EXIT } from "../exitCodes";

/** The schemes of Pulumi state backends (`--backend`), which `--server` never takes. */
const BACKEND_SCHEMES: ReadonlySet<string> = new Set(["file:", "s3:", "gs:", "azblob:"]);

/** The Pulumi Cloud's hosts: an https URL that is a state backend too. */
const PULUMI_CLOUD_HOSTS: ReadonlySet<string> = new Set(["api.pulumi.com", "app.pulumi.com"]);

/**
 * The kubespaces server `value` names, without a trailing slash (the API's paths are appended to
 * it); a CliError names the rule it breaks.
 */
export function kubespacesServerUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(
      `--server ${value}: must be the URL of a kubespaces server, such as https://kubespaces.example.com`,
      EXIT.invalid,
    );
  }
  if (BACKEND_SCHEMES.has(url.protocol) || PULUMI_CLOUD_HOSTS.has(url.hostname))
    throw new CliError(
      `--server ${value} is a Pulumi state backend, not a kubespaces server: record a backend with \`kubespaces login --backend ${value}\``,
      EXIT.invalid,
    );
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new CliError(`--server ${value}: must be an https:// URL`, EXIT.invalid);
  if (url.protocol === "http:" && !isLoopbackHttp(url))
    throw new CliError(
      `--server ${value}: plain http is allowed only for a server on this machine (127.0.0.1, ::1, localhost); use https://`,
      EXIT.invalid,
    );
  if (url.username || url.password)
    throw new CliError(`--server ${url.host}: must not carry a user name or password`, EXIT.invalid);
  if (url.search || url.hash)
    throw new CliError(`--server ${value}: must have no query (?) or fragment (#)`, EXIT.invalid);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * The identity provider's issuer URL, checked as the server's is: https, or http on the loopback
 * (the local Dex); a CliError otherwise.
 */
export function issuerUrl(issuer: string, server: string): URL {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new CliError(`the server ${server} names an issuer that is no URL (${issuer})`, EXIT.error);
  }
  if (url.protocol === "https:" || isLoopbackHttp(url)) return url;
  throw new CliError(
    `the server ${server} signs in at ${issuer}, which is neither https nor on this machine's loopback; sign-in needs https (plain http is allowed only for a local identity provider such as the local Dex)`,
    EXIT.error,
  );
}
