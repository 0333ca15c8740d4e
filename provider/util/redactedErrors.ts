/**
 * Errors about secret text that do not quote it. YAML parsers quote the lines around a syntax error,
 * and Pulumi shows error messages unmasked, so a malformed kubeconfig would leak its tokens and keys
 * into the CLI's output and logs.
 */

/** The parse error's reason and position, without the quoted text. */
export function redactedParseError(what: string, error: unknown): Error {
  const { reason, line } = reasonOf(error);
  return new Error(
    `${what} is not valid YAML${line === undefined ? "" : ` (line ${line})`}: ${reason}; its text is not shown because it holds credentials`,
  );
}

function reasonOf(error: unknown): { reason: string; line?: number } {
  const e = error as { reason?: string; mark?: { line?: number }; message?: string; linePos?: { line: number }[] };
  // js-yaml (client-node): `reason` is the message without the snippet; `mark.line` counts from 0.
  if (typeof e?.reason === "string")
    return { reason: e.reason, line: e.mark?.line === undefined ? undefined : e.mark.line + 1 };
  // yaml: the first line of the message, up to " at line".
  const first = String(e?.message ?? error)
    .split("\n")[0]
    .replace(/ at line \d+, column \d+:?$/, "");
  return { reason: first, line: e?.linePos?.[0]?.line };
}

/** Runs `parse` and, if it throws, rethrows a redacted error naming `what`. */
export function parsingSecret<T>(what: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw redactedParseError(what, error);
  }
}
