/**
 * The line a lifecycle resource's progress takes on stderr, where the engine shows it as a
 * diagnostic: `kubespaces: tenant <name>: <message>`. Written by the dynamic providers and read
 * back by the tenants service's event digest, so its shape lives here only.
 */

const PREFIX = "kubespaces: tenant ";
const SEPARATOR = ": ";

/** The progress line for `tenant`. */
export const progressLine = (tenant: string, message: string): string => `${PREFIX}${tenant}${SEPARATOR}${message}`;

/** The message of a progress line, or undefined when `text` is not one. */
export function progressMessage(text: string): string | undefined {
  if (!text.startsWith(PREFIX)) return undefined;
  // A tenant's name is a DNS label: the first colon after it ends it.
  const end = text.indexOf(":", PREFIX.length);
  if (end <= PREFIX.length || !text.startsWith(SEPARATOR, end)) return undefined;
  return text.slice(end + SEPARATOR.length);
}
