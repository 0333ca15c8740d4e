/**
 * Signing in to a kubespaces server with the OAuth 2.0 device flow, through openid-client: the
 * server says which identity provider and public client to use (GET /api/v1/sign-in), the provider's
 * discovery document gives the endpoints, the person confirms a short code in a browser (on any
 * device), and the tokens are kept (signInTokens.ts). Showing the code is the caller's callback, so
 * that a test can complete the sign-in in a browser of its own. Plain http is allowed only on this
 * machine's loopback (the local Dex).
 */
import * as oidc from "openid-client";
import { API_PATHS, type SignInInfo } from "../../contracts/tenantsApi";
import { CliError, EXIT } from "../exitCodes";
import { unreachable } from "./serverApi";
import { isLoopbackHttp } from "../../util/loopbackUrl";
import { issuerUrl } from "./serverUrls";
import type { SignIn } from "./signInTokens";

/** What the person is asked to do. */
export interface DeviceCodePrompt {
  /** The code to confirm. */
  readonly userCode: string;
  /** Where to enter it. */
  readonly verificationUri: string;
  /** Where to confirm it with the code already filled in, when the provider gives one. */
  readonly verificationUriComplete?: string;
  /** How long the code is valid. */
  readonly expiresInSeconds: number;
}

/** How a sign-in runs. */
export interface DeviceSignInOptions {
  /** Shows the code (and may open a browser at it); called once, before the wait. */
  readonly onCode: (prompt: DeviceCodePrompt) => void;
  /** Stops the wait. */
  readonly signal?: AbortSignal;
}

/** How `server` signs in (its SignInInfo), unauthenticated. */
export async function fetchSignInInfo(server: string): Promise<SignInInfo> {
  let response: Response;
  try {
    response = await fetch(`${server}${API_PATHS.signIn}`, { headers: { accept: "application/json" } });
  } catch (error) {
    throw unreachable(server, error);
  }
  const body = response.ok ? ((await response.json().catch(() => undefined)) as Partial<SignInInfo> | undefined) : {};
  if (
    typeof body?.issuer !== "string" ||
    typeof body.clientId !== "string" ||
    !Array.isArray(body.scopes) ||
    !body.scopes.every((scope) => typeof scope === "string")
  )
    throw new CliError(
      `${server} does not answer as a kubespaces server with sign-in (GET ${API_PATHS.signIn}: HTTP ${response.status}); is it the server's URL, and does it run with sign-in configured?`,
      EXIT.error,
    );
  return body as SignInInfo;
}

/** Signs in to `server` with the device flow; the sign-in to keep. */
export async function signInWithDeviceFlow(server: string, options: DeviceSignInOptions): Promise<SignIn> {
  const info = await fetchSignInInfo(server);
  const config = await configurationOf(server, info.issuer, info.clientId);
  try {
    const device = await oidc.initiateDeviceAuthorization(config, { scope: info.scopes.join(" ") });
    options.onCode({
      userCode: device.user_code,
      verificationUri: device.verification_uri,
      ...(device.verification_uri_complete && { verificationUriComplete: device.verification_uri_complete }),
      expiresInSeconds: device.expires_in,
    });
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, device, undefined, { signal: options.signal });
    return signInOf(server, info, tokens);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`sign-in at ${info.issuer} failed: ${oidcFailure(error)}`, EXIT.error);
  }
}

/** `signIn` with a fresh ID token, from its refresh token (which the provider may replace). */
export async function refreshSignIn(signIn: SignIn): Promise<SignIn> {
  if (!signIn.refreshToken) throw new Error("no refresh token");
  const config = await configurationOf(signIn.server, signIn.issuer, signIn.clientId);
  const tokens = await oidc.refreshTokenGrant(config, signIn.refreshToken);
  return signInOf(signIn.server, signIn, tokens, signIn.refreshToken);
}

/** The provider's configuration for the public client `clientId`, read from its discovery document. */
async function configurationOf(server: string, issuer: string, clientId: string): Promise<oidc.Configuration> {
  const url = issuerUrl(issuer, server);
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(url, clientId, undefined, oidc.None(), {
      execute: isLoopbackHttp(url) ? [oidc.allowInsecureRequests] : [],
    });
  } catch (error) {
    throw new CliError(
      `cannot read the discovery document of the identity provider ${issuer}: ${oidcFailure(error)}`,
      EXIT.error,
    );
  }
  const metadata = config.serverMetadata();
  // Allowing http for a loopback issuer allows it for every endpoint: each is held to the same rule.
  for (const endpoint of [metadata.device_authorization_endpoint, metadata.token_endpoint])
    if (endpoint) issuerUrl(endpoint, server);
  if (!metadata.device_authorization_endpoint)
    throw new CliError(
      `the identity provider ${issuer} offers no device flow (no device_authorization_endpoint), which \`kubespaces login\` signs in with`,
      EXIT.error,
    );
  return config;
}

/** The sign-in a token answer makes; `refreshToken` is kept when the answer brings no new one. */
function signInOf(
  server: string,
  client: { readonly issuer: string; readonly clientId: string },
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  refreshToken?: string,
): SignIn {
  const exp = tokens.claims()?.exp;
  if (!tokens.id_token || exp === undefined)
    throw new CliError(
      `the identity provider ${client.issuer} gave no ID token: the server's sign-in scopes must include openid`,
      EXIT.error,
    );
  const refresh = tokens.refresh_token ?? refreshToken;
  return {
    server,
    issuer: client.issuer,
    clientId: client.clientId,
    idToken: tokens.id_token,
    idTokenExpiresAt: exp,
    ...(refresh && { refreshToken: refresh }),
  };
}

/** Why an openid-client call failed, in words: the provider's error code, never a token or a body. */
function oidcFailure(error: unknown): string {
  if (error instanceof oidc.ResponseBodyError) {
    if (error.error === "expired_token") return "the code expired before it was confirmed; log in again";
    if (error.error === "access_denied") return "the sign-in was denied in the browser";
    return error.error_description ? `${error.error}: ${error.error_description}` : error.error;
  }
  if ((error as Error).name === "TimeoutError") return "the code expired before it was confirmed; log in again";
  // openid-client's wrapper says "invalid response encountered"; its cause says which rule (never a value).
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const message = (error as Error).message?.split("\n")[0] ?? String(error);
  return [message, cause?.message?.split("\n")[0] ?? cause?.code].filter(Boolean).join(": ");
}
