/**
 * The line a lifecycle resource's progress takes on stderr, where the engine shows it as a
 * diagnostic: `kubespaces: tenant <name>: <message>`. Written by the dynamic providers and read
 * back by the tenants service's event digest, so its shape lives here only.
 */

/** The progress line for `tenant`. */
export const progressLine = (tenant: string, message: string): string => `kubespaces: tenant ${tenant}: ${message}`;

/** The message of a progress line, or undefined when `text` is not one. */
export function progressMessage(text: string): string | undefined {
  return text.match(/^kubespaces: tenant [^:]+: (.*)$/s)?.[1];
}
