/**
 * The server's JSON API through the whole HTTP front (real plugins, real OwnedTenants, stand-in
 * host and issuer): who may call it, what it refuses and with which words, and that it never
 * lets one person at another's tenant.
 */
import { request as httpRequest } from "node:http";
import { formSessionOf, type FormSession } from "./support/portalHarness";
import { describe, expect, it } from "vitest";
import { API_PATHS, CSRF_HEADER } from "../../provider/contracts/tenantsApi";
import { checkRequest } from "../../provider/tenants/requestCheck";
import { RequestInvalidError } from "../../provider/tenants/tenantsErrors";
import { PreviewsBusyError } from "../../provider/server/people/previewPool";
import { revisionTenantOf, withPreviews } from "../../provider/server/revisions/fleetPreview";
import { ADMIN_GROUP, apiServerHarness, ISSUER, type ApiServerHarness } from "./support/apiServerHarness";

const ALICE = "alice@example.com";
const BOB = "bob@example.com";
const SMALL = { resources: { cpu: "4", memory: "8Gi", storage: "20Gi" } };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Sends a change as a browser with `session` and the CSRF state `csrf`: the token as a header, or as a form field beside `form`. */
function sendWithCsrf(
  h: ApiServerHarness,
  method: "DELETE" | "POST",
  url: string,
  session: string,
  csrf: FormSession,
  form: string,
) {
  const cookie = `${session}; ${csrf.cookie}`;
  if (form === "header") return h.app.inject({ method, url, headers: { cookie, [CSRF_HEADER]: csrf.token } });
  return h.app.inject({
    method,
    url,
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    payload: `_csrf=${encodeURIComponent(csrf.token)}&${form}`,
  });
}

async function create(h: ApiServerHarness, email: string, name: string, spec: object = SMALL) {
  return h.app.inject({
    method: "POST",
    url: API_PATHS.tenants,
    headers: bearer(await h.token(email)),
    payload: { name, spec },
  });
}

describe("who may call the API", () => {
  it("refuses a request with no token or session, and says how to sign in", async () => {
    const h = await apiServerHarness();
    const answer = await h.app.inject({ method: "GET", url: API_PATHS.tenants });
    expect(answer.statusCode).toBe(401);
    expect(answer.json().error).toMatchObject({ kind: "unauthenticated", message: expect.stringContaining("sign in") });
  });

  it.each([
    [
      "a forged signature",
      (h: ApiServerHarness) => h.forgerKey().then((key) => h.token(ALICE, { key })),
      "signature does not verify",
    ],
    [
      "an expired token",
      (h: ApiServerHarness) => h.token(ALICE, { expiresIn: Math.floor(Date.now() / 1000) - 3600 }),
      "expired",
    ],
    ["another client's token", (h: ApiServerHarness) => h.token(ALICE, { audience: "someone-else" }), "another client"],
    [
      "another issuer's token",
      (h: ApiServerHarness) => h.token(ALICE, { issuer: "https://evil.example" }),
      "another issuer",
    ],
    [
      "an unverified email",
      (h: ApiServerHarness) => h.token(ALICE, { claims: { email_verified: false } }),
      "not verified",
    ],
    ["no identity claim", (h: ApiServerHarness) => h.token("", {}), "no email claim"],
    ["text that is no JWT", async () => "not-a-token", "not a signed JWT"],
  ])("refuses %s, naming what is wrong and quoting nothing of it", async (_what, tokenOf, words) => {
    const h = await apiServerHarness();
    const token = await tokenOf(h);
    const answer = await h.app.inject({ method: "GET", url: API_PATHS.tenants, headers: bearer(token) });
    expect(answer.statusCode).toBe(401);
    expect(answer.json().error.message).toContain(words);
    expect(answer.body).not.toContain(token);
  });

  // As Kubernetes' OIDC authenticator does: with the email as the identity, an email_verified
  // claim that is present must be the boolean true.
  it.each([["false"], [0], [null], ["true"], [false], [{}]])(
    "refuses an email whose email_verified is %j",
    async (emailVerified) => {
      const h = await apiServerHarness();
      const token = await h.token(ALICE, { claims: { email_verified: emailVerified as never } });
      const answer = await h.app.inject({ method: "GET", url: API_PATHS.whoAmI, headers: bearer(token) });
      expect(answer.statusCode).toBe(401);
      expect(answer.json().error.message).toContain("email_verified");
    },
  );

  it.each([
    ["true", true],
    ["absent", undefined],
  ])("accepts an email whose email_verified is %s", async (_what, emailVerified) => {
    const h = await apiServerHarness();
    const token = await h.token(ALICE, { claims: { email_verified: emailVerified } });
    const answer = await h.app.inject({ method: "GET", url: API_PATHS.whoAmI, headers: bearer(token) });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().owner).toBe(ALICE);
  });

  it("answers whoami from the verified token, with admin from the admin group", async () => {
    const h = await apiServerHarness();
    const answer = await h.app.inject({
      method: "GET",
      url: API_PATHS.whoAmI,
      headers: bearer(await h.token(ALICE, { groups: ["team-a", ADMIN_GROUP] })),
    });
    expect(answer.json()).toEqual({ owner: ALICE, groups: ["team-a", ADMIN_GROUP], isAdmin: true });
  });

  it("tells the command how to sign in without a token", async () => {
    const h = await apiServerHarness();
    const answer = await h.app.inject({ method: "GET", url: API_PATHS.signIn });
    expect(answer.json()).toMatchObject({ issuer: ISSUER, clientId: "kubespaces-cli" });
  });
});

describe("creating a tenant", () => {
  it("makes the caller the owner and answers the tenant as Pending", async () => {
    const h = await apiServerHarness();
    const answer = await create(h, ALICE, "atlas");
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toMatchObject({
      metadata: { name: "atlas" },
      spec: { owner: ALICE },
      status: { phase: "Pending" },
    });
    expect((await h.host.tenants.get("atlas"))?.spec).toMatchObject({ owner: ALICE, ...SMALL });
  });

  it("never takes the owner from the body, even an admin's", async () => {
    const h = await apiServerHarness();
    const answer = await h.app.inject({
      method: "POST",
      url: API_PATHS.tenants,
      headers: bearer(await h.token(ALICE, { groups: [ADMIN_GROUP] })),
      payload: { name: "atlas", spec: { ...SMALL, owner: BOB } },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.problems).toEqual([
      "owner: must not be given; the signed-in person owns what they create",
    ]);
    expect(await h.host.tenants.list()).toEqual([]);
  });

  it("refuses a bad request with the component's own message and problems, and stores nothing", async () => {
    const h = await apiServerHarness();
    const spec = { resources: { cpu: "100m", memory: "lots" } };
    const answer = await create(h, ALICE, "atlas", spec);
    let expected: RequestInvalidError | undefined;
    try {
      checkRequest("atlas", { ...spec, owner: ALICE } as never, { owner: ALICE, groups: [], isAdmin: false }, {});
    } catch (error) {
      expected = error as RequestInvalidError;
    }
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toEqual({ kind: "invalid", message: expected!.message, problems: expected!.problems });
    expect(expected!.problems.some((p) => p.startsWith("resources.memory"))).toBe(true);
    expect(await h.host.tenants.list()).toEqual([]);
  });

  it("refuses a body of the wrong shape, naming the field", async () => {
    const h = await apiServerHarness();
    const answer = await h.app.inject({
      method: "POST",
      url: API_PATHS.tenants,
      headers: bearer(await h.token(ALICE)),
      payload: { spec: SMALL },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.message).toContain("name");
  });

  it("answers 409 for a name that is taken, by anyone", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const answer = await create(h, BOB, "atlas");
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error.kind).toBe("conflict");
    expect((await h.host.tenants.get("atlas"))?.spec).toMatchObject({ owner: ALICE });
  });

  it("lands concurrent creates of two people", async () => {
    const h = await apiServerHarness();
    const answers = await Promise.all([create(h, ALICE, "atlas"), create(h, BOB, "borealis")]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
    expect((await h.host.tenants.list()).map((t) => t.metadata.name).sort()).toEqual(["atlas", "borealis"]);
  });

  it("limits creates per person, not per server", async () => {
    const h = await apiServerHarness({ createsPerMinute: 2 });
    const alice = [await create(h, ALICE, "a1"), await create(h, ALICE, "a2"), await create(h, ALICE, "a3")];
    expect(alice.map((a) => a.statusCode)).toEqual([201, 201, 429]);
    expect(alice[2].json().error).toMatchObject({ kind: "rateLimited", message: expect.stringContaining("at most 2") });
    expect((await create(h, BOB, "b1")).statusCode).toBe(201);
  });
  it("limits the portal's New tenant form too, with a page that says to wait", async () => {
    const h = await apiServerHarness({ createsPerMinute: 1 });
    const session = await h.sessionCookie(ALICE);
    const post = async (name: string) => {
      const page = await h.app.inject({ method: "GET", url: "/tenants/new", headers: { cookie: session } });
      const { cookie: csrfCookie, token } = formSessionOf(page);
      return h.app.inject({
        method: "POST",
        url: "/tenants",
        headers: { cookie: `${session}; ${csrfCookie}`, "content-type": "application/x-www-form-urlencoded" },
        payload: `_csrf=${encodeURIComponent(token)}&name=${name}&cpu=4&memory=8Gi&storage=20Gi`,
      });
    };
    expect((await post("a1")).statusCode).toBe(303);
    const limited = await post("a2");
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain("Too many requests");
    expect((await h.host.tenants.list()).map((t) => t.metadata.name)).toEqual(["a1"]);
  });
});

describe("previews", () => {
  async function preview(h: ApiServerHarness, email: string, name: string, body: object) {
    return h.app.inject({
      method: "POST",
      url: API_PATHS.tenantPreview(name),
      headers: bearer(await h.token(email)),
      payload: body,
    });
  }

  it("of a create answers the plan of the caller's request and stores nothing", async () => {
    const h = await apiServerHarness();
    const answer = await preview(h, ALICE, "atlas", { operation: "create", spec: SMALL });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      name: "atlas",
      operation: "create",
      plan: { creates: 6, updates: 0, replaces: 0, deletes: 0 },
    });
    expect(answer.json().plan.steps).toContainEqual({
      op: "create",
      type: "kubernetes:core/v1:Namespace",
      name: "atlas",
      diffs: [],
    });
    expect(h.previews.ran).toEqual([{ name: "atlas", request: { owner: ALICE, ...SMALL } }]);
    expect(await h.host.tenants.list()).toEqual([]);
  });

  it("of a delete answers what the teardown removes, and deletes nothing", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const answer = await preview(h, ALICE, "atlas", { operation: "delete" });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().plan).toMatchObject({ creates: 0, deletes: 6 });
    expect(h.host.deleted).toEqual([]);
  });

  it("of another person's tenant is not found, exactly as one that does not exist, and runs nothing", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const asBob = await preview(h, BOB, "atlas", { operation: "delete" });
    const missing = await preview(h, BOB, "nosuch", { operation: "delete" });
    expect(asBob.statusCode).toBe(404);
    expect(asBob.json()).toEqual(JSON.parse(missing.body.replaceAll("nosuch", "atlas")));
    expect(h.previews.ran).toEqual([]);
  });

  it.each([
    ["a create of a name that is taken", { operation: "create", spec: SMALL }, 409, "conflict", "exists already"],
    [
      "a create that breaks a rule",
      { operation: "create", spec: { resources: { cpu: "lots" } } },
      400,
      "invalid",
      "resources.cpu",
    ],
    ["a create that names an owner", { operation: "create", spec: { owner: BOB } }, 400, "invalid", "owner"],
    [
      "a delete given a request",
      { operation: "delete", spec: SMALL },
      400,
      "invalid",
      "a delete's preview takes no request",
    ],
    ["an operation no preview has", { operation: "update" }, 400, "invalid", "operation"],
  ])("is refused for %s, and runs nothing", async (_case, body, status, kind, words) => {
    const h = await apiServerHarness();
    await create(h, BOB, "atlas");
    const answer = await preview(h, ALICE, "atlas", body);
    expect(answer.statusCode).toBe(status);
    expect(answer.json().error).toMatchObject({ kind, message: expect.stringContaining(words) });
    expect(h.previews.ran).toEqual([]);
  });

  it("are limited per person, apart from creates", async () => {
    const h = await apiServerHarness({ createsPerMinute: 2 });
    const body = { operation: "create", spec: SMALL };
    const answers = [
      await preview(h, ALICE, "a1", body),
      await preview(h, ALICE, "a2", body),
      await preview(h, ALICE, "a3", body),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 429]);
    expect(answers[2].json().error).toMatchObject({
      kind: "rateLimited",
      message: expect.stringMatching(/^too many previews: at most 2 a minute/),
    });
    expect(h.previews.ran).toHaveLength(2);
    expect((await preview(h, BOB, "b1", body)).statusCode).toBe(200);
    expect((await create(h, ALICE, "a1")).statusCode).toBe(201);
  });

  it("are answered 503, overloaded, with a Retry-After, when the replica runs as many as it may", async () => {
    const h = await apiServerHarness();
    h.previews.nextError = new PreviewsBusyError(2, "and 2 more wait", 15);
    const answer = await preview(h, ALICE, "atlas", { operation: "create", spec: SMALL });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers["retry-after"]).toBe("15");
    expect(answer.json()).toEqual({
      error: {
        kind: "overloaded",
        message:
          "this replica is running 2 previews already, as many as it runs at once, and 2 more wait; nothing was run: try again in 15 s",
      },
    });
  });
});

describe("another person's tenant", () => {
  const routes = [
    ["get", "GET", API_PATHS.tenant("atlas")],
    ["delete", "DELETE", API_PATHS.tenant("atlas")],
    ["kubeconfig", "GET", API_PATHS.tenantKubeconfig("atlas")],
    ["events", "GET", API_PATHS.tenantEvents("atlas")],
  ] as const;

  it.each(routes)("is not found by %s, exactly as a tenant that does not exist", async (_route, method, url) => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const asBob = await h.app.inject({ method, url, headers: bearer(await h.token(BOB)) });
    const missing = await h.app.inject({
      method,
      url: url.replace("atlas", "nosuch"),
      headers: bearer(await h.token(BOB)),
    });
    expect(asBob.statusCode).toBe(404);
    expect(asBob.json()).toEqual(JSON.parse(missing.body.replaceAll("nosuch", "atlas")));
    expect(h.host.deleted).toEqual([]);
  });

  it("is left out of the list, unless an admin asks for all", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const list = async (token: string, all: boolean) =>
      (
        await h.app.inject({
          method: "GET",
          url: `${API_PATHS.tenants}${all ? "?all=true" : ""}`,
          headers: bearer(token),
        })
      )
        .json()
        .items.map((t: { metadata: { name: string } }) => t.metadata.name);
    expect(await list(await h.token(BOB), true)).toEqual([]);
    expect(await list(await h.token(ALICE), false)).toEqual(["atlas"]);
    expect(await list(await h.token(BOB, { groups: [ADMIN_GROUP] }), true)).toEqual(["atlas"]);
  });

  it("hands its kubeconfig to no admin: only to its owner", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const ref = { name: "atlas-kubeconfig", namespace: "kubespaces-tenant-atlas", key: "config" };
    h.host.secrets.set(`${ref.namespace}/${ref.name}/${ref.key}`, "apiVersion: v1\nkind: Config\n");
    h.host.writeStatus("atlas", { phase: "Ready", conditions: [], message: "ready", kubeconfigSecretRef: ref });
    const url = API_PATHS.tenantKubeconfig("atlas");
    const admin = await h.app.inject({
      method: "GET",
      url,
      headers: bearer(await h.token(BOB, { groups: [ADMIN_GROUP] })),
    });
    const owner = await h.app.inject({ method: "GET", url, headers: bearer(await h.token(ALICE)) });
    expect(admin.statusCode).toBe(404);
    expect(owner.statusCode).toBe(200);
    expect(owner.headers["cache-control"]).toBe("no-store");
    expect(owner.body).toBe("apiVersion: v1\nkind: Config\n");
    // Where the kubeconfig is kept is not shown.
    const view = await h.app.inject({
      method: "GET",
      url: API_PATHS.tenant("atlas"),
      headers: bearer(await h.token(ALICE)),
    });
    expect(view.json().status.kubeconfigSecretRef).toBeUndefined();
  });
});

describe("a tenant's history", () => {
  it("lists its updates for its owner and the admins, newest first, and nobody else", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    h.histories.add("atlas", 1, { owner: ALICE, resources: { cpu: "2", memory: "4Gi" } });
    h.histories.add("atlas", 2, { owner: ALICE, resources: { cpu: "4", memory: "8Gi" } }, "tighter");
    const url = API_PATHS.tenantHistory("atlas");
    const owner = await h.app.inject({ method: "GET", url, headers: bearer(await h.token(ALICE)) });
    expect(owner.statusCode).toBe(200);
    expect(
      owner
        .json()
        .items.map((u: { version: number; record: { generation: number } }) => [u.version, u.record.generation]),
    ).toEqual([
      [2, 2],
      [1, 1],
    ]);
    expect(owner.json().items[0].record.platformRevision).toBe("tighter");
    const admin = await h.app.inject({
      method: "GET",
      url,
      headers: bearer(await h.token(BOB, { groups: [ADMIN_GROUP] })),
    });
    expect(admin.statusCode).toBe(200);
    const other = await h.app.inject({ method: "GET", url, headers: bearer(await h.token(BOB)) });
    expect(other.statusCode).toBe(404);
  });

  it("rolls back to an earlier update's request: a new generation of the Tenant, recorded in the audit log", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    h.histories.add("atlas", 1, { owner: ALICE, resources: { cpu: "5", memory: "6Gi" } });
    const rollback = async (token: string, version: unknown) =>
      h.app.inject({
        method: "POST",
        url: API_PATHS.tenantRollback("atlas"),
        headers: { ...bearer(token), "content-type": "application/json" },
        payload: JSON.stringify({ version }),
      });
    expect((await rollback(await h.token(BOB), 1)).statusCode).toBe(404);
    const unknown = await rollback(await h.token(ALICE), 7);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe("tenant atlas has no update 7 that recorded its request");
    expect((await rollback(await h.token(ALICE), "one")).json().error.message).toMatch(/version/);

    const answer = await rollback(await h.token(ALICE), 1);
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toMatchObject({
      metadata: { name: "atlas", generation: 2 },
      spec: { owner: ALICE, resources: { cpu: "5", memory: "6Gi" } },
    });
    expect((await h.host.tenants.get("atlas"))?.spec.resources).toEqual({ cpu: "5", memory: "6Gi" });
    expect(h.auditLines.map((line) => JSON.parse(line)).filter((l) => l.action === "tenant.rollback")).toEqual([
      expect.objectContaining({ actor: BOB, tenant: "atlas", outcome: "notFound" }),
      expect.objectContaining({ actor: ALICE, tenant: "atlas", outcome: "invalid" }),
      expect.objectContaining({ actor: ALICE, tenant: "atlas", outcome: "ok" }),
    ]);
  });

  it("refuses a rollback to a request whose expiry has passed, which would delete the tenant with its data", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const spec = (await h.host.tenants.get("atlas"))!.spec;
    h.histories.add("atlas", 1, { ...spec, expiresAt: "2020-01-01T00:00:00Z" });
    const answer = await h.app.inject({
      method: "POST",
      url: API_PATHS.tenantRollback("atlas"),
      headers: { ...bearer(await h.token(ALICE)), "content-type": "application/json" },
      payload: JSON.stringify({ version: 1 }),
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.problems).toEqual([
      "expiresAt: update 1's 2020-01-01T00:00:00Z has passed; a rollback never brings back an expiry in the past (change the tenant with a new expiresAt instead)",
    ]);
    expect((await h.host.tenants.get("atlas"))!.spec).toEqual(spec);
  });

  it("refuses a rollback to another owner's request: it never gives the tenant away", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    h.histories.add("atlas", 1, { owner: BOB, resources: { cpu: "2", memory: "4Gi" } });
    const answer = await h.app.inject({
      method: "POST",
      url: API_PATHS.tenantRollback("atlas"),
      headers: { ...bearer(await h.token(ALICE)), "content-type": "application/json" },
      payload: JSON.stringify({ version: 1 }),
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.problems).toEqual([`version: its request's owner is not the tenant's owner (${ALICE})`]);
    expect((await h.host.tenants.get("atlas"))?.spec.owner).toBe(ALICE);
  });
});

describe("sleep and wake", () => {
  it("put a tenant to sleep and wake it for its owner, changing only `sleep`, each audited; another person is told it is not found", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const post = async (token: string, url: string) => h.app.inject({ method: "POST", url, headers: bearer(token) });
    expect((await post(await h.token(BOB), API_PATHS.tenantSleep("atlas"))).statusCode).toBe(404);
    const spec = (await h.host.tenants.get("atlas"))!.spec;

    const slept = await post(await h.token(ALICE), API_PATHS.tenantSleep("atlas"));
    expect(slept.statusCode).toBe(202);
    expect(slept.json()).toMatchObject({ metadata: { name: "atlas", generation: 2 }, spec: { sleep: true } });
    expect((await h.host.tenants.get("atlas"))!.spec).toEqual({ ...spec, sleep: true });
    // Asleep already: nothing changes, no new generation.
    const again = await post(await h.token(ALICE), API_PATHS.tenantSleep("atlas"));
    expect(again.json().metadata.generation).toBe(2);

    const woken = await post(await h.token(ALICE), API_PATHS.tenantWake("atlas"));
    expect(woken.statusCode).toBe(202);
    expect((await h.host.tenants.get("atlas"))!.spec).toEqual({ ...spec, sleep: false });
    const audited = h.auditLines.map((line) => JSON.parse(line)).filter((l) => /^tenant\.(sleep|wake)$/.test(l.action));
    expect(audited.map((l) => [l.action, l.actor, l.outcome])).toEqual([
      ["tenant.sleep", BOB, "notFound"],
      ["tenant.sleep", ALICE, "ok"],
      ["tenant.sleep", ALICE, "ok"],
      ["tenant.wake", ALICE, "ok"],
    ]);
  });
});

describe("snapshot and restore", () => {
  it("ask the server through the Tenant's annotations, for its owner only, each audited; a restore names a snapshot", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const post = async (token: string, url: string, body?: object) =>
      h.app.inject({
        method: "POST",
        url,
        headers: { ...bearer(token), ...(body && { "content-type": "application/json" }) },
        ...(body && { payload: JSON.stringify(body) }),
      });
    expect((await post(await h.token(BOB), API_PATHS.tenantSnapshots("atlas"))).statusCode).toBe(404);
    const taken = await post(await h.token(ALICE), API_PATHS.tenantSnapshots("atlas"));
    expect(taken.statusCode).toBe(202);
    const asked = (await h.host.tenants.get("atlas"))!.metadata.annotations?.["kubespaces.io/snapshot"];
    expect(Number.isNaN(Date.parse(asked ?? ""))).toBe(false);

    expect(
      (await post(await h.token(ALICE), API_PATHS.tenantRestore("atlas"), { snapshot: "../other" })).statusCode,
    ).toBe(400);
    expect((await post(await h.token(ALICE), API_PATHS.tenantRestore("atlas"), {})).statusCode).toBe(400);
    const restored = await post(await h.token(ALICE), API_PATHS.tenantRestore("atlas"), {
      snapshot: "atlas-20261205t063012z",
    });
    expect(restored.statusCode).toBe(202);
    expect((await h.host.tenants.get("atlas"))!.metadata.annotations).toMatchObject({
      "kubespaces.io/restore-from": "atlas-20261205t063012z",
    });
    const audited = h.auditLines
      .map((line) => JSON.parse(line))
      .filter((l) => /^tenant\.(snapshot|restore)$/.test(l.action));
    expect(audited.map((l) => [l.action, l.actor, l.outcome])).toEqual([
      ["tenant.snapshot", BOB, "notFound"],
      ["tenant.snapshot", ALICE, "ok"],
      ["tenant.restore", ALICE, "invalid"],
      ["tenant.restore", ALICE, "ok"],
    ]);
  });
});

describe("a name no tenant can have", () => {
  // Sent as they are on the wire (node:http, no URL normalization), as curl --path-as-is would:
  // in a Kubernetes client's path, "" or "." names the collection and ".." the API group.
  const names = ["", ".", "%2E", "..", "%2E%2E", "Atlas", "a".repeat(64)];
  const routes = [
    ["the API's get", "GET", (name: string) => `/api/v1/tenants/${name}`],
    ["the API's delete", "DELETE", (name: string) => `/api/v1/tenants/${name}`],
    ["the API's kubeconfig", "GET", (name: string) => `/api/v1/tenants/${name}/kubeconfig`],
    ["the API's events", "GET", (name: string) => `/api/v1/tenants/${name}/events`],
    ["the portal's tenant page", "GET", (name: string) => `/tenants/${name}`],
    ["the portal's kubeconfig", "GET", (name: string) => `/tenants/${name}/kubeconfig`],
    ["the portal's delete form", "POST", (name: string) => `/tenants/${name}/delete`],
  ] as const;

  it.each(routes)(
    "is refused by %s with 400, naming the field and the rule, before the host is asked",
    async (_route, method, path) => {
      const h = await apiServerHarness();
      await create(h, ALICE, "atlas");
      // An admin, who may see every tenant: the collection read as one tenant was theirs to see.
      const session = await h.sessionCookie("admin@example.com", [ADMIN_GROUP]);
      const csrf = formSessionOf(await h.app.inject({ method: "GET", url: "/", headers: { cookie: session } }));
      const headers = path("x").startsWith("/api")
        ? bearer(await h.token("admin@example.com", { groups: [ADMIN_GROUP] }))
        : { cookie: `${session}; ${csrf.cookie}`, "content-type": "application/x-www-form-urlencoded" };
      const base = await h.app.listen({ host: "127.0.0.1", port: 0 });
      try {
        h.host.asked.length = 0;
        const answers: Record<string, { status: number; words: boolean }> = {};
        for (const name of names) {
          const body = method === "POST" ? `_csrf=${encodeURIComponent(csrf.token)}&confirm=${name}` : undefined;
          const answer = await onTheWire(base, method, path(name), headers, body);
          const text = answer.body.replaceAll("&#39;", "'");
          answers[name] = {
            status: answer.status,
            words: /name: must be (a DNS-1123 label|at most 63 characters)/.test(text),
          };
        }
        expect(answers).toEqual(Object.fromEntries(names.map((name) => [name, { status: 400, words: true }])));
        expect(h.host.asked).toEqual([]);
        expect(h.host.deleted).toEqual([]);
      } finally {
        await h.app.close();
      }
    },
  );

  it("is refused in the API's words, with its problems", async () => {
    const h = await apiServerHarness();
    const answer = await h.app.inject({
      method: "GET",
      url: API_PATHS.tenant("Atlas"),
      headers: bearer(await h.token(ALICE)),
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toEqual({
      kind: "invalid",
      message: expect.stringContaining('no tenant can be named "Atlas"'),
      problems: [
        `name: must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit (got "Atlas")`,
      ],
    });
  });
});

describe("a browser's session", () => {
  it("must send its CSRF token to delete; with it, the delete is asked for", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const session = await h.sessionCookie(ALICE);
    const url = API_PATHS.tenant("atlas");
    const without = await h.app.inject({ method: "DELETE", url, headers: { cookie: session } });
    expect(without.statusCode).toBe(403);
    expect(without.json().error.kind).toBe("csrf");
    expect(h.host.deleted).toEqual([]);
    const page = await h.app.inject({ method: "GET", url: "/tenants/new", headers: { cookie: session } });
    const { cookie: csrfCookie, token } = formSessionOf(page);
    const withToken = await h.app.inject({
      method: "DELETE",
      url,
      headers: { cookie: `${session}; ${csrfCookie}`, [CSRF_HEADER]: token },
    });
    expect(withToken.statusCode).toBe(202);
    expect(h.host.deleted).toEqual(["atlas"]);
  });

  // Whoever can set a cookie for the portal's site (a sibling subdomain, another port on the same
  // host) can plant their own CSRF cookie in a victim's browser, beside the victim's session.
  const changes = [
    ["the API's delete", "DELETE", API_PATHS.tenant("atlas"), "header"],
    ["the portal's delete form", "POST", "/tenants/atlas/delete", "confirm=atlas"],
    ["the portal's New tenant form", "POST", "/tenants", "name=planted&cpu=4&memory=8Gi&storage=20Gi"],
  ] as const;

  it.each(changes)(
    "refuses %s with another person's CSRF cookie and token beside the victim's session",
    async (_what, method, url, form) => {
      const h = await apiServerHarness();
      await create(h, ALICE, "atlas");
      const mallory = await h.sessionCookie("mallory@example.com");
      const planted = formSessionOf(
        await h.app.inject({ method: "GET", url: "/tenants/new", headers: { cookie: mallory } }),
      );
      const answer = await sendWithCsrf(h, method, url, await h.sessionCookie(ALICE), planted, form);
      expect(answer.statusCode).toBe(403);
      expect(h.host.deleted).toEqual([]);
      expect((await h.host.tenants.list()).map((t) => t.metadata.name)).toEqual(["atlas"]);
    },
  );

  it("refuses the CSRF token of an earlier session of the same person", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const earlier = await h.sessionCookie(ALICE);
    const token = formSessionOf(await h.app.inject({ method: "GET", url: "/", headers: { cookie: earlier } }));
    const answer = await sendWithCsrf(
      h,
      "DELETE",
      API_PATHS.tenant("atlas"),
      await h.sessionCookie(ALICE),
      token,
      "header",
    );
    expect(answer.statusCode).toBe(403);
    expect(h.host.deleted).toEqual([]);
  });

  it("is not a session when its cookie was changed", async () => {
    const h = await apiServerHarness();
    const session = await h.sessionCookie(ALICE);
    const tampered = session.slice(0, -4) + (session.endsWith("AAAA") ? "BBBB" : "AAAA");
    const answer = await h.app.inject({ method: "GET", url: API_PATHS.whoAmI, headers: { cookie: tampered } });
    expect(answer.statusCode).toBe(401);
  });
});

describe("a failure the server did not foresee", () => {
  /** A harness whose host fails as @kubernetes/client-node does: a message of several lines, the response's headers among them, and the HTTP status as `code`. */
  async function failingHost() {
    const h = await apiServerHarness();
    const thrown = Object.assign(
      new Error(
        'HTTP-Code: 500\nMessage: Unknown API Status Code!\nBody: {"message":"etcdserver: request timed out"}\nHeaders: {"audit-id":"x"}',
      ),
      { code: 500, body: { kind: "Status", message: "etcdserver: request timed out" } },
    );
    h.host.tenants.get = async () => Promise.reject(thrown);
    const answer = await h.app.inject({
      method: "GET",
      url: API_PATHS.tenant("atlas"),
      headers: bearer(await h.token(ALICE)),
    });
    return { h, answer };
  }

  it("is a bare 500 in the API's error shape", async () => {
    const { answer } = await failingHost();
    expect(answer.statusCode).toBe(500);
    expect(answer.json().error).toEqual({ kind: "internal", message: "the server failed; its log says why" });
  });

  it("is one line in the server's log: the API server's words, not client-node's dump", async () => {
    const { h } = await failingHost();
    expect(h.logLines).toEqual(["GET /api/v1/tenants/atlas: etcdserver: request timed out (HTTP 500)"]);
  });

  it("is in the server's log when a portal page fails too", async () => {
    const { h } = await failingHost();
    const page = await h.app.inject({
      method: "GET",
      url: "/tenants/atlas",
      headers: { cookie: await h.sessionCookie(ALICE) },
    });
    expect(page.statusCode).toBe(500);
    expect(h.logLines.at(-1)).toBe("GET /tenants/atlas: etcdserver: request timed out (HTTP 500)");
  });

  it("is in the server's log when a tenant's event stream breaks", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    h.host.watchTenant = async function* () {
      yield* [];
      throw new Error("the watch broke");
    };
    const answer = await h.app.inject({
      method: "GET",
      url: API_PATHS.tenantEvents("atlas"),
      headers: bearer(await h.token(ALICE)),
    });
    expect(answer.body).toContain("event: tenant");
    expect(h.logLines).toEqual(["GET /api/v1/tenants/atlas/events: the watch broke"]);
  });
});

describe("the audit log", () => {
  it("records who did what to which tenant, and never a token", async () => {
    const h = await apiServerHarness();
    const token = await h.token(ALICE);
    await h.app.inject({
      method: "POST",
      url: API_PATHS.tenants,
      headers: bearer(token),
      payload: { name: "atlas", spec: SMALL },
    });
    await h.app.inject({ method: "DELETE", url: API_PATHS.tenant("atlas"), headers: bearer(await h.token(BOB)) });
    const records = h.auditLines.map((line) => JSON.parse(line));
    expect(records).toEqual([
      { time: expect.any(String), actor: ALICE, action: "tenant.create", tenant: "atlas", outcome: "ok" },
      {
        time: expect.any(String),
        actor: BOB,
        action: "tenant.delete",
        tenant: "atlas",
        outcome: "notFound",
      },
    ]);
    expect(h.auditLines.join("\n")).not.toContain(token.slice(0, 20));
  });

  it("records what the portal's forms do too", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const session = await h.sessionCookie(ALICE);
    const page = await h.app.inject({ method: "GET", url: "/tenants/atlas", headers: { cookie: session } });
    const { cookie: csrfCookie, token } = formSessionOf(page);
    const deleted = await h.app.inject({
      method: "POST",
      url: "/tenants/atlas/delete",
      headers: { cookie: `${session}; ${csrfCookie}`, "content-type": "application/x-www-form-urlencoded" },
      payload: `_csrf=${encodeURIComponent(token)}&confirm=atlas`,
    });
    expect(deleted.statusCode).toBe(303);
    expect(JSON.parse(h.auditLines.at(-1)!)).toMatchObject({
      actor: ALICE,
      action: "tenant.delete",
      tenant: "atlas",
      outcome: "ok",
    });
  });
});

describe("a tenant's event stream", () => {
  /** Reads server-sent events from `url` until `until` says enough; returns them. */
  async function readEvents(
    url: string,
    headers: Record<string, string>,
    until: (events: { id: string; event: string; data: string }[]) => boolean,
  ) {
    const abort = new AbortController();
    const response = await fetch(url, { headers, signal: abort.signal });
    const events: { id: string; event: string; data: string }[] = [];
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of response.body!) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const field = (name: string) => block.match(new RegExp(`^${name}: ?(.*)$`, "m"))?.[1] ?? "";
        if (!block.startsWith(":")) events.push({ id: field("id"), event: field("event"), data: field("data") });
      }
      if (until(events)) break;
    }
    abort.abort();
    return events;
  }

  it("sends the tenant, then each change with its version as id, and resumes after Last-Event-ID", async () => {
    const h = await apiServerHarness();
    await create(h, ALICE, "atlas");
    const base = await h.app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const headers = bearer(await h.token(ALICE));
      const url = `${base}${API_PATHS.tenantEvents("atlas")}`;
      const first = readEvents(url, headers, (events) => events.length === 3);
      // The reconciler's writes, once the stream follows the tenant.
      await waitForStreams(h);
      h.host.writeStatus("atlas", { phase: "Provisioning", conditions: [], message: "provisioning" });
      h.host.writeStatus("atlas", { phase: "Ready", conditions: [], message: "ready" });
      const events = await first;
      expect(events.map((e) => [e.event, JSON.parse(e.data).status.phase])).toEqual([
        ["tenant", "Pending"],
        ["tenant", "Provisioning"],
        ["tenant", "Ready"],
      ]);
      expect(events.map((e) => Number(e.id))).toEqual([...events.map((e) => Number(e.id))].sort((a, b) => a - b));
      // A client that saw the Provisioning event and comes back gets what it missed, and nothing again.
      const resumed = await readEvents(url, { ...headers, "last-event-id": events[1].id }, (e) => e.length === 1);
      expect(resumed.map((e) => [e.id, JSON.parse(e.data).status.phase])).toEqual([[events[2].id, "Ready"]]);
      // The deletion ends the stream with `deleted` (the streams before have let go of their watches).
      await expect.poll(() => h.host.watchers()).toBe(0);
      const end = readEvents(url, { ...headers, "last-event-id": events[2].id }, (e) =>
        e.some((x) => x.event === "deleted"),
      );
      await waitForStreams(h);
      h.host.remove("atlas");
      expect((await end).map((e) => e.event)).toEqual(["deleted"]);
    } finally {
      await h.app.close();
    }
  });

  it("ends for the old owner once an admin gives the tenant to someone else", async () => {
    const h = await apiServerHarness();
    await create(h, BOB, "atlas");
    const base = await h.app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const url = `${base}${API_PATHS.tenantEvents("atlas")}`;
      const events = readEvents(url, bearer(await h.token(BOB)), (e) => e.length === 2);
      await waitForStreams(h);
      h.host.editSpec("atlas", { ...SMALL, owner: "carol@example.com" });
      h.host.writeStatus("atlas", { phase: "Ready", conditions: [], message: "carol's now" });
      expect((await events).map((e) => [e.event, e.data])).toEqual([
        ["tenant", expect.stringContaining(BOB)],
        ["deleted", "{}"],
      ]);
      await expect.poll(() => h.host.watchers()).toBe(0);
    } finally {
      await h.app.close();
    }
  });
});

/** Waits until the stand-in host has a watcher (a stream is following). */
async function waitForStreams(h: ApiServerHarness): Promise<void> {
  await expect.poll(() => h.host.watchers()).toBeGreaterThan(0);
}

/** A request sent as it is written, path included (node:http does not normalize `.` or `..`). */
function onTheWire(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(base), { method, path, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

describe("platform revisions", () => {
  const status = withPreviews(
    undefined,
    [revisionTenantOf("team-atlas", 1, { failure: "resources.cpu: 6 is above" }, new Date())],
    new Set(["team-atlas", "team-borealis"]),
  );
  const revision = (name: string, created: string) => ({
    metadata: { name, creationTimestamp: created },
    spec: { platform: { quota: { ceilings: { cpu: "4" } } } },
    status,
  });

  it("are read by the admins, newest first, each with its policy and fleet preview", async () => {
    const h = await apiServerHarness();
    h.revisions.set("older", revision("older", "2026-12-01T00:00:00Z"));
    h.revisions.set("tighter", revision("tighter", "2026-12-02T00:00:00Z"));
    const headers = bearer(await h.token(ALICE, { groups: [ADMIN_GROUP] }));
    const list = await h.app.inject({ method: "GET", url: API_PATHS.platformRevisions, headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((r: { name: string }) => r.name)).toEqual(["tighter", "older"]);
    const one = await h.app.inject({ method: "GET", url: API_PATHS.platformRevision("tighter"), headers });
    expect(one.json()).toEqual({
      name: "tighter",
      createdAt: "2026-12-02T00:00:00Z",
      platform: { quota: { ceilings: { cpu: "4" } } },
      status: JSON.parse(JSON.stringify(status)),
    });
    const missing = await h.app.inject({ method: "GET", url: API_PATHS.platformRevision("gone"), headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe("platform revision gone not found");
  });

  it("are refused to anyone else, who learns nothing of them", async () => {
    const h = await apiServerHarness();
    h.revisions.set("tighter", revision("tighter", "2026-12-02T00:00:00Z"));
    const headers = bearer(await h.token(BOB));
    for (const url of [
      API_PATHS.platformRevisions,
      API_PATHS.platformRevision("tighter"),
      API_PATHS.platformRevision("gone"),
    ]) {
      const answer = await h.app.inject({ method: "GET", url, headers });
      expect(answer.statusCode, url).toBe(403);
      expect(answer.json().error).toEqual({
        kind: "refused",
        message: "only the platform's admins may read platform revisions",
      });
    }
    expect((await h.app.inject({ method: "GET", url: API_PATHS.platformRevisions })).statusCode).toBe(401);
  });
});
