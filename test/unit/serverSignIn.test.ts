/**
 * The browser's sign-in routes through the whole HTTP front, with a stand-in issuer (its metadata
 * only: the steps tested here never reach its endpoints): the redirect carries PKCE, state and
 * nonce; the transaction and the session are sealed, HTTP-only, Secure, SameSite=Lax cookies; a
 * callback that does not match its transaction is refused before any code is exchanged; nobody is
 * sent to another site; sign-out needs its CSRF token.
 */
import { formSessionOf } from "./support/portalHarness";
import { describe, expect, it } from "vitest";
import { safeReturnPath } from "../../provider/server/auth/browserSignIn";
import { apiServerHarness, ISSUER } from "./support/apiServerHarness";

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
    ["//evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example/", "/"],
    ["tenants", "/"],
    [undefined, "/"],
  ])("returns to %s as %s after signing in", (asked, returned) => {
    expect(safeReturnPath(asked)).toBe(returned);
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
