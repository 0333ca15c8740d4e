/** The Automation API's errors carry the engine's whole output; people need the lines that say what went wrong. */

/** The `error:` lines of an engine error, once each; else the start of its message. */
export function engineErrorSummary(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const errors = text
    .split("\n")
    .filter((line) => /\berror:/.test(line))
    .map((line) => line.trim().replace(/^.*?\berror: /, "error: "));
  return errors.length > 0 ? [...new Set(errors)].join("\n") : text.slice(0, 2000);
}
