/**
 * The browser's sign-in routes through the whole HTTP front, with a stand-in issuer (its metadata,
 * and a token endpoint behind openid-client's fetch that trades a code it issued for an ID token):
 * the redirect carries PKCE, state and nonce; the transaction and the session are sealed,
 * HTTP-only, Secure, SameSite=Lax cookies; a callback that does not match its transaction is
 * refused before any code is exchanged; nobody is sent to another site, however the returnTo is
 * spelled; sign-out needs its CSRF token.
 */
import { connect } from "node:net";
import { formSessionOf } from "./support/portalHarness";
import { describe, expect, it } from "vitest";
import { localPath } from "../../provider/server/http/localPath";
import { apiServerHarness, ISSUER, type ApiServerHarness } from "./support/apiServerHarness";

/**
 * A browser's whole sign-in from `startUrl` (a `/sign-in` address): the start, alice signing in at
 * the issuer, and the callback with the issuer's code; the callback's answer.
 */
async function signInReturningTo(h: ApiServerHarness, startUrl: string) {
  const start = await h.app.inject({ method: "GET", url: startUrl });
  const asked = new URL(start.headers.location as string).searchParams;
  const transaction = start.cookies.find((c) => c.name.endsWith("kubespaces_sign_in"))!;
  const code = h.issueCode("alice@example.com", asked.get("nonce")!);
  return h.app.inject({
    method: "GET",
    url: `/auth/callback?code=${code}&state=${asked.get("state")}`,
    headers: { cookie: `${transaction.name}=${transaction.value}` },
  });
}

describe("signing in from a browser", () => {
  it("sends the browser to the issuer with PKCE (S256), state and nonce, keeping them in a sealed cookie", async () => {
    const h = await apiServerHarness();
    const answer = await h.app.inject({ method: "GET", url: "/sign-in?returnTo=/tenants/atlas" });
    expect(answer.statusCode).toBe(303);
    const target = new URL(answer.headers.location as string);
    expect(target.origin + target.pathname).toBe(`${ISSUER}/auth`);
    const query = Object.fromEntries(target.searchParams);
    expect(query).toMatchObject({
      response_type: "code",
      client_id: "kubespaces-portal",
      redirect_uri: "http://127.0.0.1:8080/auth/callback",
      code_challenge_method: "S256",
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: expect.any(String),
      nonce: expect.any(String),
    });
    const cookie = answer.cookies.find((c) => c.name === "kubespaces_sign_in")!;
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: "Lax", path: "/" });
    // Sealed: neither the verifier nor the state can be read from it.
    expect(cookie.value).not.toContain(query.state);
  });

  it("trades the code with the registered redirect URI, whatever host the request line names", async () => {
    const h = await apiServerHarness();
    const start = await h.app.inject({ method: "GET", url: "/sign-in?returnTo=%2F" });
    const asked = new URL(start.headers.location as string).searchParams;
    const transaction = start.cookies.find((c) => c.name === "kubespaces_sign_in")!;
    const code = h.issueCode("alice@example.com", asked.get("nonce")!);
    const base = await h.app.listen({ host: "127.0.0.1", port: 0 });
    try {
      // An absolute-form request target (RFC 9112 3.2.2): Fastify routes it by its path.
      const head = await requestLine(
        Number(new URL(base).port),
        `GET http://evil.example/auth/callback?code=${code}&state=${asked.get("state")} HTTP/1.1`,
        [`Host: 127.0.0.1`, `Cookie: ${transaction.name}=${transaction.value}`],
      );
      expect(head).toMatch(/^HTTP\/1\.1 303 /);
      expect(head).toMatch(/^location: \/$/im);
    } finally {
      await h.app.close();
    }
  });

  it("names every cookie __Host- when the portal is reached over https: Secure, Path=/, no Domain", async () => {
    const h = await apiServerHarness({ https: true });
    const signedIn = await signInReturningTo(h, "/sign-in?returnTo=%2F");
    const session = signedIn.cookies.find((c) => c.name === "__Host-kubespaces_session")!;
    const page = await h.app.inject({
      method: "GET",
      url: "/",
      headers: { cookie: `${session.name}=${session.value}` },
    });
    const set = [...signedIn.cookies, ...page.cookies].filter((c) => c.value !== "");
    expect(set.map((c) => c.name).sort()).toEqual(["__Host-kubespaces_csrf", "__Host-kubespaces_session"]);
    for (const cookie of set) {
      expect(cookie).toMatchObject({ secure: true, path: "/", httpOnly: true });
      expect(cookie.domain).toBeUndefined();
    }
    expect(page.statusCode).toBe(200);
  });

  it("refuses a callback with no sign-in under way", async () => {
    const h = await apiServerHarness();
    const answer = await h.app.inject({ method: "GET", url: "/auth/callback?code=x&state=y" });
    expect(answer.statusCode).toBe(401);
    expect(answer.body).toContain("expired or was started elsewhere");
    expect(answer.cookies.find((c) => c.name === "kubespaces_session")).toBeUndefined();
  });

  it("refuses a callback whose state is not its transaction's, before exchanging any code", async () => {
    const h = await apiServerHarness();
    const start = await h.app.inject({ method: "GET", url: "/sign-in" });
    const transaction = start.cookies.find((c) => c.name === "kubespaces_sign_in")!;
    const answer = await h.app.inject({
      method: "GET",
      url: "/auth/callback?code=stolen&state=forged",
      headers: { cookie: `kubespaces_sign_in=${transaction.value}` },
    });
    expect(answer.statusCode).toBe(401);
    expect(answer.body).toContain("Sign-in refused");
    expect(answer.cookies.find((c) => c.name === "kubespaces_session")).toBeUndefined();
    expect(JSON.parse(h.auditLines.at(-1)!)).toMatchObject({
      actor: "anonymous",
      action: "sign-in",
      outcome: "refused",
    });
  });

  it.each([
    ["/tenants/atlas", "/tenants/atlas"],
    ["/tenants/atlas?all=1#status", "/tenants/atlas?all=1#status"],
    ["/tenants/t\u00fcr", "/tenants/t%C3%BCr"],
    ["/a/../tenants", "/tenants"],
    ["//evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["\\evil.example", "/"],
    ["/\t/evil.example", "/"],
    ["/\n/evil.example", "/"],
    ["/\r\n/evil.example", "/"],
    ["/\u0000/evil.example", "/"],
    ["https://evil.example/", "/"],
    ["http://127.0.0.1:8080.evil.example/", "/"],
    ["tenants", "/"],
    ["", "/"],
    [`/${"a".repeat(2047)}`, `/${"a".repeat(2047)}`],
    [`/${"a".repeat(2048)}`, "/"],
    [undefined, "/"],
    [["/tenants/a", "//evil.example"], "/"],
  ])("returns to %j as %j after signing in", (asked, returned) => {
    expect(localPath(asked, new URL("http://127.0.0.1:8080"))).toBe(returned);
  });

  // After a real sign-in (the stand-in issuer's code, traded at its token endpoint), where the
  // browser is sent: resolved as a browser resolves it, it stays on the portal's origin.
  it.each(["/%09/evil.example", "/%0A/evil.example", "/%0D%0A/evil.example", "/%5Cevil.example", "//evil.example"])(
    "keeps a browser that asked to return to %s on the portal after signing in",
    async (encoded) => {
      const h = await apiServerHarness();
      const answer = await signInReturningTo(h, `/sign-in?returnTo=${encoded}`);
      expect(answer.statusCode).toBe(303);
      expect(new URL(answer.headers.location as string, h.publicUrl).origin).toBe(h.publicUrl.origin);
      expect(answer.headers.location).toBe("/");
      expect(answer.cookies.find((c) => c.name === "kubespaces_session")?.value).toBeTruthy();
    },
  );

  it("keeps the sign-in cookie within what browsers store, however long the returnTo", async () => {
    const h = await apiServerHarness();
    const start = await h.app.inject({ method: "GET", url: `/sign-in?returnTo=/${"a".repeat(6000)}` });
    // RFC 6265 6.1: browsers keep cookies of at least 4096 bytes (name, value and attributes); larger ones may be dropped.
    expect(String(start.headers["set-cookie"]).length).toBeLessThanOrEqual(4096);
    const asked = new URL(start.headers.location as string).searchParams;
    const transaction = start.cookies.find((c) => c.name === "kubespaces_sign_in")!;
    const code = h.issueCode("alice@example.com", asked.get("nonce")!);
    const answer = await h.app.inject({
      method: "GET",
      url: `/auth/callback?code=${code}&state=${asked.get("state")}`,
      headers: { cookie: `${transaction.name}=${transaction.value}` },
    });
    expect(answer.headers.location).toBe("/");
  });

  it("returns to the page it was asked to after signing in", async () => {
    const h = await apiServerHarness();
    const answer = await signInReturningTo(h, "/sign-in?returnTo=%2Ftenants%2Fatlas");
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/tenants/atlas");
  });

  it("checks a transaction's returnTo before the code is traded, so a bad one sealed earlier is no 500", async () => {
    const h = await apiServerHarness();
    const nonce = "nonce-of-an-older-transaction";
    const transaction = { verifier: "v".repeat(43), state: "older-state", nonce, returnTo: "/\n/evil.example" };
    const sealed = await h.seal.seal(transaction, "sign-in", Math.floor(Date.now() / 1000) + 600);
    const answer = await h.app.inject({
      method: "GET",
      url: `/auth/callback?code=${h.issueCode("alice@example.com", nonce)}&state=older-state`,
      headers: { cookie: `kubespaces_sign_in=${sealed}` },
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/");
  });

  it("signs out only with the page's CSRF token", async () => {
    const h = await apiServerHarness();
    const session = await h.sessionCookie("alice@example.com");
    const without = await h.app.inject({ method: "POST", url: "/sign-out", headers: { cookie: session } });
    expect(without.statusCode).toBe(403);
    const page = await h.app.inject({ method: "GET", url: "/", headers: { cookie: session } });
    const { cookie: csrfCookie, token } = formSessionOf(page);
    const signedOut = await h.app.inject({
      method: "POST",
      url: "/sign-out",
      headers: { cookie: `${session}; ${csrfCookie}`, "content-type": "application/x-www-form-urlencoded" },
      payload: `_csrf=${encodeURIComponent(token)}`,
    });
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.cookies.find((c) => c.name === "kubespaces_session")).toMatchObject({ value: "" });
  });

  it("serves every page under a Content-Security-Policy that allows no inline script", async () => {
    const h = await apiServerHarness();
    const answer = await h.app.inject({
      method: "GET",
      url: "/",
      headers: { cookie: await h.sessionCookie("a@example.com") },
    });
    const csp = answer.headers["content-security-policy"] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("upgrade-insecure-requests");
  });
});

/** Sends `line` and `headers` as they are over a fresh connection; the answer's status line and headers. */
function requestLine(port: number, line: string, headers: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = connect(port, "127.0.0.1", () =>
      // Written, not ended: the server closes the connection once it has answered (Connection: close).
      socket.write([line, ...headers, "Connection: close", "", ""].join("\r\n")),
    );
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(answer.split("\r\n\r\n")[0]!));
  });
}
