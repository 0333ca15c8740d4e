/**
 * The portal's sign-in: the authorization-code flow with PKCE (S256), state and nonce, through
 * openid-client. `start` gives the identity provider's URL and the transaction to keep (sealed, in
 * a cookie) until the browser comes back; `finish` exchanges the code, and the ID token is then
 * proven by the token verifier like every other token (signature, issuer, audience, expiry).
 */
import * as oidc from "openid-client";
import type { Actor } from "../../tenants/ports";
import { isLoopbackHttp } from "../../util/loopbackUrl";
import { UnauthenticatedError, type TokenVerifier } from "./tokenVerifier";

/** A sign-in under way: what the callback is checked against. */
export interface SignInTransaction {
  /** The PKCE code verifier. */
  readonly verifier: string;
  /** The state the callback must carry. */
  readonly state: string;
  /** The nonce the ID token must carry. */
  readonly nonce: string;
  /** The portal path to go back to (checked by the caller, http/localPath.ts, before it is kept and again before it is followed). */
  readonly returnTo: string;
}

/** The identity provider as the portal's client sees it. */
export interface PortalClient {
  /** openid-client's view of the issuer and the client. */
  readonly config: oidc.Configuration;
  /** The callback URL registered for the client. */
  readonly redirectUri: string;
  /** The scopes asked for. */
  readonly scopes: readonly string[];
}

/** Reads the issuer's discovery document for the portal's client. */
export async function discoverPortalClient(
  issuer: string,
  client: { readonly id: string; readonly secret: string },
  redirectUri: string,
  scopes: readonly string[],
): Promise<PortalClient> {
  const insecure = isLoopbackHttp(new URL(issuer)) ? [oidc.allowInsecureRequests] : [];
  const config = await oidc.discovery(new URL(issuer), client.id, client.secret, undefined, { execute: insecure });
  return { config, redirectUri, scopes };
}

/** Where the browser goes to sign in, and the transaction to keep until it comes back to `returnTo`. */
export async function startSignIn(
  client: PortalClient,
  returnTo: string,
): Promise<{ readonly url: URL; readonly transaction: SignInTransaction }> {
  const transaction: SignInTransaction = {
    verifier: oidc.randomPKCECodeVerifier(),
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    returnTo,
  };
  const url = oidc.buildAuthorizationUrl(client.config, {
    redirect_uri: client.redirectUri,
    scope: client.scopes.join(" "),
    code_challenge: await oidc.calculatePKCECodeChallenge(transaction.verifier),
    code_challenge_method: "S256",
    state: transaction.state,
    nonce: transaction.nonce,
  });
  return { url, transaction };
}

/** The person the identity provider's answer (`callbackUrl`) proves, checked against `transaction`. */
export async function finishSignIn(
  client: PortalClient,
  verifier: TokenVerifier,
  callbackUrl: URL,
  transaction: SignInTransaction,
): Promise<{ readonly actor: Actor; readonly expiresAt: number }> {
  let idToken: string | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(client.config, callbackUrl, {
      pkceCodeVerifier: transaction.verifier,
      expectedState: transaction.state,
      expectedNonce: transaction.nonce,
      idTokenExpected: true,
    });
    idToken = tokens.id_token;
  } catch (error) {
    throw new UnauthenticatedError(`the sign-in was refused: ${oidcRefusal(error)}`);
  }
  if (!idToken) throw new UnauthenticatedError("the identity provider returned no ID token");
  return verifier.verify(idToken);
}

/** Why openid-client refused, in words that carry no code or token. */
function oidcRefusal(error: unknown): string {
  if (error instanceof oidc.AuthorizationResponseError) return `the identity provider said ${error.error}`;
  if (error instanceof oidc.ResponseBodyError) return `the token endpoint said ${error.error}`;
  const code = (error as { code?: string }).code;
  return code ? `${code}` : "the answer could not be checked";
}
