/**
 * The server's HTTP front as `kubespaces server` builds it (buildApiServer: the real plugins, the
 * API, the sign-in routes and the portal), over the real OwnedTenants on a
 * stand-in host, with a stand-in identity provider: an RSA key pair whose public half is the
 * issuer's published key set, so tokens are signed and checked exactly as a real issuer's are, and
 * a token endpoint (openid-client's fetch, answered here) that trades the codes it issued.
 */
import { randomUUID } from "node:crypto";
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import * as oidc from "openid-client";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { OwnedTenants } from "../../../provider/server/people/ownedTenants";
import { SessionSeal, sessionKeys } from "../../../provider/server/auth/sessionSeal";
import { TokenVerifier } from "../../../provider/server/auth/tokenVerifier";
import { buildApiServer } from "../../../provider/server/http/apiServer";
import { serverCookies, type ServerCookies } from "../../../provider/server/http/serverCookies";
import type { OperationsDeps } from "../../../provider/server/http/operationsRoutes";
import { StandInPeopleHost } from "./standInPeopleHost";
import { StandInStackHistories } from "./standInStackHistories";
import { StandInStackPreviews } from "./standInStackPreviews";
import type { PlatformRevision } from "../../../provider/server/revisions/fleetPreview";

/** The stand-in issuer's URL. */
export const ISSUER = "https://issuer.stand-in.example";
/** The command's client, whose ID tokens the API accepts. */
export const CLI_CLIENT = "kubespaces-cli";
/** The admin group. */
export const ADMIN_GROUP = "kubespaces-admins";

/** A signing key: the issuer's, or a forger's. */
export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
}

async function signingKey(): Promise<SigningKey & { readonly publicJwk: Record<string, unknown> }> {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const kid = randomUUID();
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

/** What a test changes of a token. */
export interface TokenOptions {
  readonly groups?: readonly string[];
  readonly audience?: string;
  readonly issuer?: string;
  readonly expiresIn?: string | number;
  readonly key?: SigningKey;
  readonly claims?: JWTPayload;
}

/** The app, its host, and what a test needs to act as people. */
export interface ApiServerHarness {
  readonly app: FastifyInstance;
  readonly host: StandInPeopleHost;
  /** The previews it runs (a stand-in of the tenants service's). */
  readonly previews: StandInStackPreviews;
  /** The tenants' stack histories, as the test puts them. */
  readonly histories: StandInStackHistories;
  /** The PlatformRevisions the API reads (a stand-in of the API server's), by name. */
  readonly revisions: Map<string, PlatformRevision>;
  readonly auditLines: string[];
  /** What the server logged of the failures it did not foresee. */
  readonly logLines: string[];
  /** The URL the portal is reached at. */
  readonly publicUrl: URL;
  /** The names of the cookies the server sets. */
  readonly cookies: ServerCookies;
  /** The app's seal, to make cookies as the server would have made them. */
  readonly seal: SessionSeal;
  /**
   * The issuer's side of a browser's sign-in: `email` signed in at the issuer, which sends the
   * browser back with the code this returns. Its token endpoint (a stand-in behind openid-client's
   * fetch) trades the code once for an ID token carrying `nonce`.
   */
  issueCode(email: string, nonce: string): string;
  /** An ID token for `email`, signed by the issuer unless `options.key` says otherwise. */
  token(email: string, options?: TokenOptions): Promise<string>;
  /** A key the issuer does not publish. */
  forgerKey(): Promise<SigningKey>;
  /** A session cookie for `email`, as the sign-in sets it. */
  sessionCookie(email: string, groups?: readonly string[]): Promise<string>;
}

/**
 * Builds the harness; `createsPerMinute` defaults high so that only the rate test meets it. The
 * portal is reached at http://127.0.0.1:8080 (the local default), or over https with `https`.
 */
export async function apiServerHarness(
  options: {
    readonly createsPerMinute?: number;
    readonly https?: boolean;
    readonly operations?: OperationsDeps;
    readonly logger?: FastifyBaseLogger;
  } = {},
): Promise<ApiServerHarness> {
  const publicUrl = new URL(options.https ? "https://kubespaces.example.com" : "http://127.0.0.1:8080");
  const issuerKey = await signingKey();
  const verifier = new TokenVerifier(
    {
      issuer: ISSUER,
      audiences: ["kubespaces-portal", CLI_CLIENT],
      identityClaim: "email",
      groupsClaim: "groups",
      adminGroup: ADMIN_GROUP,
    },
    createLocalJWKSet({ keys: [issuerKey.publicJwk] }),
  );
  const client = {
    config: new oidc.Configuration(
      { issuer: ISSUER, authorization_endpoint: `${ISSUER}/auth`, token_endpoint: `${ISSUER}/token` },
      "kubespaces-portal",
      "stand-in-secret",
    ),
    redirectUri: new URL("/auth/callback", publicUrl).href,
    scopes: ["openid", "email", "groups"],
  };
  const codes = new Map<string, { readonly email: string; readonly nonce: string }>();
  const idToken = (email: string, o: TokenOptions = {}) =>
    new SignJWT({ email, email_verified: true, groups: [...(o.groups ?? [])], ...o.claims })
      .setProtectedHeader({ alg: "RS256", kid: (o.key ?? issuerKey).kid })
      .setIssuer(o.issuer ?? ISSUER)
      .setAudience(o.audience ?? CLI_CLIENT)
      .setSubject(`sub-${email}`)
      .setIssuedAt()
      .setExpirationTime(o.expiresIn ?? "10m")
      .sign((o.key ?? issuerKey).privateKey);
  client.config[oidc.customFetch] = async (url, options) => {
    const form = new URLSearchParams(String(options.body));
    const signedIn = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    // As a real issuer: the code is traded only with the redirect URI it was issued for.
    const redirectedTo = form.get("redirect_uri") === client.redirectUri;
    if (url !== `${ISSUER}/token` || !signedIn || !redirectedTo)
      return Response.json({ error: "invalid_grant" }, { status: 400 });
    const { email, nonce } = signedIn;
    const id_token = await idToken(email, { audience: "kubespaces-portal", claims: { nonce } });
    return Response.json({ access_token: randomUUID(), token_type: "Bearer", expires_in: 600, id_token });
  };
  const cookies = serverCookies(options.https === true);
  const keys = sessionKeys();
  const host = new StandInPeopleHost();
  const previews = new StandInStackPreviews();
  const histories = new StandInStackHistories();
  const revisions = new Map<string, PlatformRevision>();
  const auditLines: string[] = [];
  const logLines: string[] = [];
  const app = await buildApiServer({
    tenants: new OwnedTenants(host, {}, previews, histories),
    signIn: async () => ({ client, verifier, info: { issuer: ISSUER, clientId: CLI_CLIENT, scopes: client.scopes } }),
    keys,
    publicUrl: () => publicUrl,
    plainHttp: !options.https,
    adminGroup: ADMIN_GROUP,
    sessionSeconds: 3600,
    createsPerMinute: options.createsPerMinute ?? 1000,
    audit: (line) => auditLines.push(line),
    log: (line) => logLines.push(line),
    operations: options.operations,
    logger: options.logger,
    revisions: { list: async () => [...revisions.values()], get: async (name) => revisions.get(name) },
  });
  const seal = new SessionSeal(keys.sealKey);
  return {
    app,
    host,
    previews,
    histories,
    revisions,
    auditLines,
    logLines,
    publicUrl,
    cookies,
    seal,
    issueCode: (email, nonce) => {
      const code = randomUUID();
      codes.set(code, { email, nonce });
      return code;
    },
    token: idToken,
    forgerKey: async () => {
      const forger = await signingKey();
      // The forger claims the issuer's key id: only the signature can tell.
      return { kid: issuerKey.kid, privateKey: forger.privateKey };
    },
    sessionCookie: async (email, groups = []) =>
      `${cookies.session}=${await seal.seal({ owner: email, groups: [...groups] }, "session", Math.floor(Date.now() / 1000) + 600)}`,
  };
}
