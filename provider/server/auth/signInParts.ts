/**
 * The sign-in's parts, made once the issuer answers: the portal's client (discovery), the token
 * verifier over the issuer's published keys (jose's remote key set, refreshed when a token names
 * a key it does not know), and what the command is told at `GET /api/v1/sign-in`.
 */
import { createRemoteJWKSet } from "jose";
import type { SignInInfo } from "../../contracts/tenantsApi";
import { discoverPortalClient, type PortalClient } from "./browserSignIn";
import type { SignInConfig } from "./signInConfig";
import { TokenVerifier } from "./tokenVerifier";

/** What the sign-in needs, once the issuer was discovered. */
export interface SignInParts {
  /** The portal's client. */
  readonly client: PortalClient;
  /** Proves ID tokens. */
  readonly verifier: TokenVerifier;
  /** What the command is told. */
  readonly info: SignInInfo;
}

/** The path the identity provider sends the browser back to. */
export const CALLBACK_PATH = "/auth/callback";

/** Discovers `config.issuer` and makes the sign-in's parts for a server reached at `publicUrl`. */
export async function discoverSignIn(
  config: Omit<SignInConfig, "portalClientSecretFile">,
  portalSecret: string,
  publicUrl: URL,
  adminGroup: string,
): Promise<SignInParts> {
  const client = await discoverPortalClient(
    config.issuer,
    { id: config.portalClientId, secret: portalSecret },
    new URL(CALLBACK_PATH, publicUrl).href,
    config.scopes,
  );
  const jwksUri = client.config.serverMetadata().jwks_uri;
  if (!jwksUri) throw new Error(`the issuer ${config.issuer} publishes no jwks_uri, so its tokens cannot be proven`);
  const verifier = new TokenVerifier(
    {
      issuer: client.config.serverMetadata().issuer,
      audiences: [config.portalClientId, config.cliClientId],
      identityClaim: config.identityClaim,
      groupsClaim: config.groupsClaim,
      adminGroup,
    },
    createRemoteJWKSet(new URL(jwksUri)),
  );
  return { client, verifier, info: { issuer: config.issuer, clientId: config.cliClientId, scopes: config.scopes } };
}
