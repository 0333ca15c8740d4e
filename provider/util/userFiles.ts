/** Reading a file a person named: a missing file, a folder or a refused read is their input's problem, named. */
import { ProblemError } from "./problemError";

/** `read()`, with a file the user named that is missing, a folder or unreadable refused as bad input naming `what`. */
export function readingUserFile<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new ProblemError(`${what} does not exist`, "invalid");
    if (code === "EISDIR") throw new ProblemError(`${what} is a folder; name a file`, "invalid");
    if (code === "EACCES") throw new ProblemError(`${what} cannot be read (permission denied)`, "invalid");
    throw error;
  }
}
