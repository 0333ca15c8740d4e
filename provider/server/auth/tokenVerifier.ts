/**
 * Who a token says someone is, once it is proven: the ID token's signature against the issuer's
 * published keys, its issuer, its audience (one of the server's clients) and its expiry, all
 * checked by jose. The identity claim (email by default) becomes the owner, the groups claim the
 * groups, and membership of the admin group makes an admin. An email is the owner only if the
 * issuer does not say otherwise: `email_verified`, when present, must be the boolean true, as
 * Kubernetes' OIDC authenticator requires (the string "true" is not). Refusals name what was
 * wrong, never the token.
 */
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import type { Actor } from "../../tenants/ports";

/** A request that proves no one: no token, or one that does not verify. */
export class UnauthenticatedError extends Error {
  /** The API's error kind. */
  readonly kind = "unauthenticated";
}

/** What a token must be, and how its claims are read. */
export interface IdentityRules {
  /** The issuer it must come from. */
  readonly issuer: string;
  /** The clients it may be for (its `aud`). */
  readonly audiences: readonly string[];
  /** The claim that names the person. */
  readonly identityClaim: string;
  /** The claim that lists their groups. */
  readonly groupsClaim: string;
  /** The group whose members are the platform's admins. */
  readonly adminGroup: string;
}

/** Leeway for clocks that differ a little between the issuer and the server. */
const CLOCK_TOLERANCE_SECONDS = 30;

/** Proves tokens against the issuer's keys. */
export class TokenVerifier {
  constructor(
    private readonly rules: IdentityRules,
    private readonly keys: JWTVerifyGetKey,
  ) {}

  /** The person token `token` proves, and when the proof expires (seconds since the epoch). */
  async verify(token: string): Promise<{ readonly actor: Actor; readonly expiresAt: number }> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        issuer: this.rules.issuer,
        audience: [...this.rules.audiences],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ["exp", "iat", "sub"],
      }));
    } catch (error) {
      throw new UnauthenticatedError(`the token was refused: ${refusal(error)}`);
    }
    return { actor: actorOfClaims(payload, this.rules), expiresAt: payload.exp! };
  }
}

/** The person verified claims name. */
export function actorOfClaims(claims: JWTPayload, rules: Omit<IdentityRules, "issuer" | "audiences">): Actor {
  const owner = claims[rules.identityClaim];
  if (typeof owner !== "string" || owner.length === 0)
    throw new UnauthenticatedError(`the token has no ${rules.identityClaim} claim, which names who you are`);
  if (rules.identityClaim === "email" && "email_verified" in claims && claims.email_verified !== true)
    throw new UnauthenticatedError(
      `the token's email ${owner} is not verified by the identity provider: its email_verified claim must be true when present, not ${JSON.stringify(claims.email_verified)}`,
    );
  const listed = claims[rules.groupsClaim];
  const groups = Array.isArray(listed) ? listed.filter((g): g is string => typeof g === "string") : [];
  return { owner, groups, isAdmin: groups.includes(rules.adminGroup) };
}

/** Why jose refused a token, in words that quote nothing of it. */
function refusal(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "it has expired; sign in again";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "it was issued for another client (audience)";
    if (error.claim === "iss") return "it comes from another issuer";
    return `its ${error.claim} claim is not valid (${error.reason})`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return "its signature does not verify";
  if (error instanceof errors.JWKSNoMatchingKey) return "it is signed with a key the issuer does not publish";
  if (error instanceof errors.JOSEAlgNotAllowed) return "it is signed with an algorithm that is not allowed";
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return "it is not a signed JWT";
  if (error instanceof errors.JOSEError) return error.code;
  return "the issuer's keys could not be read";
}
