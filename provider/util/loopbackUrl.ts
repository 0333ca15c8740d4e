/**
 * Whether a URL stays on this machine: plain http is accepted only there (a local kubespaces
 * server, the local Dex), where nothing crosses a network. The server's configuration and the
 * command's sign-in both apply this one rule.
 */
import { isIP } from "node:net";

/** Whether `hostname` (as URL.hostname gives it) is this machine's loopback. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return isIP(host) === 6 && host === "::1";
}

/** Whether `url` may be reached without TLS: plain http on the loopback. */
export const isLoopbackHttp = (url: URL): boolean => url.protocol === "http:" && isLoopback(url.hostname);
