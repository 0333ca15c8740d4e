/**
 * The sign-in of `kubespaces login --server`: its tokens, kept in `<home>/sign-in.json` (mode 0600,
 * replaced in one step, held to the home's trust rule), and the bearer token every request to the
 * server carries: the ID token, renewed with the refresh token once it has expired. No token is
 * ever printed; the errors say what to run instead.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { writeAtomically } from "../../util/atomicFile";
import { cliHome, homeDir } from "../cliHome";
import { CliError, EXIT } from "../exitCodes";

/** The file's name in the command's home (homeTrust.ts guards it too). */
const SIGN_IN_FILE = "sign-in.json";

/** A sign-in, as kept. */
const signInSchema = z.strictObject({
  /** The kubespaces server it is for. */
  server: z.string(),
  /** The identity provider's issuer URL (from the server's SignInInfo). */
  issuer: z.string(),
  /** The public client the tokens were issued to (the ID token's audience). */
  clientId: z.string(),
  /** The ID token, sent as `Authorization: Bearer`. */
  idToken: z.string(),
  /** When the ID token expires (its `exp`, seconds since the epoch). */
  idTokenExpiresAt: z.number(),
  /** The refresh token, when the identity provider gave one (the `offline_access` scope). */
  refreshToken: z.string().optional(),
});

/** A sign-in, as kept. */
export type SignIn = z.infer<typeof signInSchema>;

const signInFile = () => path.join(cliHome(), SIGN_IN_FILE);

/** The kept sign-in, if any. */
export function readSignIn(): SignIn | undefined {
  let text: string;
  try {
    text = readFileSync(signInFile(), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = signInSchema.safeParse(value);
  // The file's text is never quoted: it holds tokens.
  if (!parsed.success)
    throw new CliError(
      `${signInFile()} is not a sign-in kubespaces wrote: run \`kubespaces login --server URL\` again`,
      EXIT.invalid,
    );
  return parsed.data;
}

/** Keeps `signIn`, owner-only, replacing the file in one step. */
export function writeSignIn(signIn: SignIn): void {
  homeDir();
  writeAtomically(signInFile(), `${JSON.stringify(signInSchema.parse(signIn), null, 2)}\n`, 0o600);
}

/** Removes the kept sign-in; says whether there was one. */
export function forgetSignIn(): boolean {
  const file = signInFile();
  if (!existsSync(file)) return false;
  rmSync(file, { force: true });
  return true;
}

/** How bearer tokens are made. */
export interface BearerOptions {
  /** Now, in seconds since the epoch. @default the clock's */
  readonly now?: () => number;
  /** Renews an expired sign-in with its refresh token (serverSignIn.ts, refreshSignIn). */
  readonly refresh: (signIn: SignIn) => Promise<SignIn>;
}

/** How long before its expiry an ID token is renewed, for the clocks' skew and the request's way there. */
const RENEW_AHEAD_SECONDS = 30;

/**
 * The bearer token of `server`'s sign-in each time it is asked for: the kept ID token, renewed
 * (and kept) once it has expired; a CliError that says to log in again when there is none, or it
 * cannot be renewed.
 */
export function bearerTokens(server: string, options: BearerOptions): () => Promise<string> {
  const now = options.now ?? (() => Date.now() / 1000);
  const again = `run \`kubespaces login --server ${server}\` again`;
  let current: SignIn | undefined;
  return async () => {
    current ??= readSignIn();
    if (!current || current.server !== server)
      throw new CliError(`not signed in to ${server}: run \`kubespaces login --server ${server}\``, EXIT.error);
    if (now() < current.idTokenExpiresAt - RENEW_AHEAD_SECONDS) return current.idToken;
    if (!current.refreshToken) throw new CliError(`your sign-in to ${server} has expired: ${again}`, EXIT.error);
    try {
      current = await options.refresh(current);
    } catch (error) {
      throw new CliError(
        `your sign-in to ${server} has expired and could not be renewed (${renewalFailure(error)}): ${again}`,
        EXIT.error,
      );
    }
    writeSignIn(current);
    return current.idToken;
  };
}

/** Why a renewal failed, in a few words: the identity provider's error code, never its body. */
function renewalFailure(error: unknown): string {
  const { error: code, error_description: description } = error as { error?: string; error_description?: string };
  if (typeof code === "string") return description ? `${code}: ${description}` : code;
  return error instanceof Error ? error.message.split("\n")[0] : String(error);
}
