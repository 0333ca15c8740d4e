/**
 * How people sign in to `kubespaces server`, as the platform configures it: the OpenID Connect
 * issuer and the two clients the server trusts (the portal's, a confidential client with the
 * authorization-code flow, and the command's, a public client with the device flow), and which
 * claims say who someone is and which groups they are in. None of it comes from a request.
 */
import { z } from "zod";
import { isLoopbackHttp } from "../../util/loopbackUrl";

/** An https URL, or an http one on this machine. */
const secureUrl = (what: string) =>
  z.url().refine((text) => {
    const url = new URL(text);
    return url.protocol === "https:" || isLoopbackHttp(url);
  }, `${what} must be https (plain http only on 127.0.0.1 or localhost)`);

/** The sign-in section of the server's configuration. */
export const signInConfigSchema = z
  .strictObject({
    issuer: secureUrl("signIn.issuer").describe("The OpenID Connect issuer URL (its discovery document is read)."),
    portalClientId: z
      .string()
      .min(1)
      .default("kubespaces-portal")
      .describe("The portal's client (code flow with PKCE)."),
    portalClientSecretFile: z
      .string()
      .min(1)
      .describe("A file holding the portal client's secret (a file, so that the secret is in no configuration)."),
    cliClientId: z
      .string()
      .min(1)
      .default("kubespaces-cli")
      .describe("The command's public client (device flow); its ID tokens are accepted as bearer tokens."),
    identityClaim: z
      .string()
      .min(1)
      .default("email")
      .describe("The claim that names a person: the owner of what they create."),
    groupsClaim: z.string().min(1).default("groups").describe("The claim that lists a person's groups."),
    scopes: z
      .array(z.string().min(1))
      .default(["openid", "email", "profile", "groups", "offline_access"])
      .describe("The scopes asked for."),
  })
  .describe("How people sign in (OpenID Connect); none on the local test bed starts the local Dex.");

/** The sign-in configuration, with its defaults. */
export type SignInConfig = z.output<typeof signInConfigSchema>;

/** An address to listen on, HOST:PORT (port 0 picks a free one), by default `fallback`. */
export const listenAddress = (fallback: string, description: string) =>
  z
    .string()
    .regex(/^[^:]+:\d{1,5}$/, `must be HOST:PORT, e.g. ${fallback} (port 0 picks a free one)`)
    .default(fallback)
    .describe(description);

/** The HTTP section of the server's configuration. */
export const httpConfigSchema = z
  .strictObject({
    listen: listenAddress("127.0.0.1:8080", "The address the API and portal listen on."),
    publicUrl: secureUrl("http.publicUrl")
      .optional()
      .describe("The URL people reach the server at (sign-in redirects come back to it); default http://<listen>."),
    sessionKeyFile: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A file of at least 32 random bytes that seals sessions, shared by every replica; none: a key per process, so sessions end when it stops.",
      ),
    sessionHours: z.number().min(0.1).max(24).default(8).describe("How long a portal session lasts at most."),
    createsPerMinute: z.int().min(1).default(5).describe("How many tenants one person may create in a minute."),
  })
  .prefault({})
  .describe("Where the API and portal are served.");

/** The HTTP configuration, with its defaults. */
export type HttpConfig = z.output<typeof httpConfigSchema>;
