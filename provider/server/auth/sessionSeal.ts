/**
 * Sealed cookies: what the server keeps in a browser (a session, a sign-in under way) is an
 * encrypted JWT (jose, `dir` + A256GCM), so the browser can neither read nor change it, and the
 * server keeps no session store. Each seal names its purpose, so a cookie made for one purpose is
 * refused for another, and carries an id of its own (`jti`): a session's CSRF tokens are bound to
 * it. One key seals for every replica that shares it.
 */
import { hkdfSync, randomBytes, randomUUID } from "node:crypto";
import { EncryptJWT, jwtDecrypt, type JWTPayload } from "jose";

/** What a seal is for. */
export type SealPurpose = "session" | "sign-in";

/** The keys the server derives from its one session key. */
export interface SessionKeys {
  /** Seals cookies (A256GCM). */
  readonly sealKey: Uint8Array;
  /** Signs @fastify/cookie's signed cookies (the CSRF secret's). */
  readonly cookieSecret: string;
  /** The HMAC key of CSRF tokens, which binds each token to its session (@fastify/csrf's `hmacKey`). */
  readonly csrfKey: Uint8Array;
}

/** The shortest session key the server accepts. */
export const MIN_SESSION_KEY_BYTES = 32;

/** The keys of `material` (at least 32 bytes), or of a fresh random key. */
export function sessionKeys(material: Uint8Array = randomBytes(MIN_SESSION_KEY_BYTES)): SessionKeys {
  if (material.length < MIN_SESSION_KEY_BYTES)
    throw new Error(`the session key must hold at least ${MIN_SESSION_KEY_BYTES} bytes, it holds ${material.length}`);
  const derive = (info: string) => new Uint8Array(hkdfSync("sha256", material, "kubespaces", info, 32));
  return {
    sealKey: derive("seal"),
    cookieSecret: Buffer.from(derive("cookie-signing")).toString("base64url"),
    csrfKey: derive("csrf-tokens"),
  };
}

/** Seals and opens cookies with one key. */
export class SessionSeal {
  constructor(private readonly key: Uint8Array) {}

  /** `payload`, sealed for `purpose` until `expiresAt` (seconds since the epoch), with a fresh id (`jti`). */
  seal(payload: JWTPayload, purpose: SealPurpose, expiresAt: number): Promise<string> {
    return new EncryptJWT(payload)
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setJti(randomUUID())
      .setAudience(purpose)
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .encrypt(this.key);
  }

  /** What `sealed` holds, if it was sealed with this key for `purpose` and has not expired. */
  async open(sealed: string | undefined, purpose: SealPurpose): Promise<JWTPayload | undefined> {
    if (!sealed) return undefined;
    try {
      return (await jwtDecrypt(sealed, this.key, { audience: purpose })).payload;
    } catch {
      // Tampered, expired, another key's or another purpose's: no session.
      return undefined;
    }
  }
}
