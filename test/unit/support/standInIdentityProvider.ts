/**
 * A STAND-IN OpenID Connect provider on the loopback, for the command's sign-in tests: discovery,
 * the device flow (a code confirmed by visiting its page, as a person would in a browser), the
 * token endpoint (device code and refresh token grants) and ID tokens signed with its own RS256
 * key (jose), which the stand-in server checks. Not Dex: the real one comes with the e2e tier.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWTPayload } from "jose";

/** The public client the stand-in knows. */
export const STAND_IN_CLIENT_ID = "kubespaces-cli";

/** A person of the stand-in. */
export interface StandInPerson {
  /** The `email` claim (the owner). */
  readonly email: string;
  /** The `groups` claim. */
  readonly groups: readonly string[];
}

/** The stand-in provider. */
export class StandInIdentityProvider {
  /** The issuer URL (http on 127.0.0.1). */
  issuer = "";
  /** The grants the token endpoint was asked for, in order. */
  readonly grants: string[] = [];
  /** Who confirms the next device code. */
  person: StandInPerson = { email: "alice@example.com", groups: ["developers"] };
  /** How long the ID tokens it issues last. */
  idTokenSeconds = 3600;
  /** Whether the refresh tokens it issued are still honoured. */
  refreshTokensValid = true;
  /**
   * A sign-in page to name in place of its own (a page the command must not open): each code is
   * then confirmed as soon as it is issued, as no browser of the test visits it.
   */
  verificationPage?: string;

  private readonly server: Server = createServer((request, response) => void this.route(request, response));
  private keys!: { publicKey: CryptoKey; privateKey: CryptoKey };
  private readonly devices = new Map<string, { userCode: string; confirmedBy?: StandInPerson }>();
  private readonly refreshTokens = new Map<string, StandInPerson>();

  /** Starts it on a free loopback port. */
  async start(): Promise<this> {
    this.keys = await generateKeyPair("RS256");
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Stops it. */
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** An ID token for `person`, expiring `seconds` from now (negative: already expired). */
  idToken(person: StandInPerson = this.person, seconds = this.idTokenSeconds): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email: person.email, groups: [...person.groups] })
      .setProtectedHeader({ alg: "RS256" })
      .setIssuer(this.issuer)
      .setAudience(STAND_IN_CLIENT_ID)
      .setSubject(`sub-${person.email}`)
      .setIssuedAt(now - 5)
      .setExpirationTime(now + seconds)
      .sign(this.keys.privateKey);
  }

  /** A refresh token for `person`, as the token endpoint would issue it. */
  refreshToken(person: StandInPerson = this.person): string {
    const token = `refresh-${randomBytes(8).toString("hex")}`;
    this.refreshTokens.set(token, person);
    return token;
  }

  /** The claims of an ID token it issued, checked as the server checks them (signature, issuer, audience, expiry). */
  async verify(token: string): Promise<JWTPayload> {
    return (await jwtVerify(token, this.keys.publicKey, { issuer: this.issuer, audience: STAND_IN_CLIENT_ID })).payload;
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", this.issuer);
    const form = new URLSearchParams(await bodyOf(request));
    if (url.pathname === "/.well-known/openid-configuration") return json(response, 200, this.metadata());
    if (url.pathname === "/device/code" && form.get("client_id") === STAND_IN_CLIENT_ID) {
      const deviceCode = randomBytes(8).toString("hex");
      const userCode = `${randomBytes(2).toString("hex")}-${randomBytes(2).toString("hex")}`.toUpperCase();
      const page = this.verificationPage;
      this.devices.set(deviceCode, { userCode, ...(page !== undefined && { confirmedBy: this.person }) });
      return json(response, 200, {
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: page ?? `${this.issuer}/device`,
        verification_uri_complete: page ?? `${this.issuer}/device?user_code=${userCode}`,
        expires_in: 300,
        // Seconds between polls: the smallest the client takes (it must be above 0), so tests do not wait.
        interval: 0.01,
      });
    }
    // The person's browser at the verification page: the code is confirmed.
    if (url.pathname === "/device") {
      const device = [...this.devices.values()].find((d) => d.userCode === url.searchParams.get("user_code"));
      if (device) device.confirmedBy = this.person;
      response.writeHead(device ? 200 : 404).end(device ? "signed in" : "no such code");
      return;
    }
    if (url.pathname === "/token") return this.token(form, response);
    response.writeHead(404).end();
  }

  private async token(form: URLSearchParams, response: ServerResponse): Promise<void> {
    const grant = form.get("grant_type") ?? "";
    this.grants.push(grant);
    let person: StandInPerson | undefined;
    if (grant === "urn:ietf:params:oauth:grant-type:device_code") {
      const device = this.devices.get(form.get("device_code") ?? "");
      if (!device) return json(response, 400, { error: "invalid_grant" });
      if (!device.confirmedBy) return json(response, 400, { error: "authorization_pending" });
      person = device.confirmedBy;
    } else if (grant === "refresh_token") {
      person = this.refreshTokensValid ? this.refreshTokens.get(form.get("refresh_token") ?? "") : undefined;
      if (!person) return json(response, 400, { error: "invalid_grant", error_description: "refresh token revoked" });
    } else {
      return json(response, 400, { error: "unsupported_grant_type" });
    }
    json(response, 200, {
      access_token: randomBytes(8).toString("hex"),
      token_type: "Bearer",
      expires_in: this.idTokenSeconds,
      id_token: await this.idToken(person),
      refresh_token: this.refreshToken(person),
    });
  }

  private metadata() {
    return {
      issuer: this.issuer,
      token_endpoint: `${this.issuer}/token`,
      device_authorization_endpoint: `${this.issuer}/device/code`,
      jwks_uri: `${this.issuer}/keys`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      grant_types_supported: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"],
    };
  }
}

/** The request's body, as text. */
export async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return text;
}

/** Answers `body` as JSON. */
export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
