/**
 * The portal's pages and forms through Fastify's inject, over a stand-in for the tenants port
 * (support/standInTenantsForPeople.ts) and a stand-in auth layer (support/portalHarness.ts), with
 * the real cookie, CSRF and form-body plugins.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import Fastify from "fastify";
import { revisionTenantOf, withPreviews } from "../../provider/server/revisions/fleetPreview";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { API_PATHS } from "../../provider/contracts/tenantsApi";
import { PORTAL_PATHS } from "../../provider/server/portal/portalPaths";
import { portalRoutes } from "../../provider/server/portal/portalRoutes";
import { HostUnavailableError } from "../../provider/tenants/tenantsErrors";
import { PreviewsBusyError } from "../../provider/server/people/previewPool";
import { portalHarness, type PortalHarness } from "./support/portalHarness";
import { readyStatus, StandInTenantsForPeople, tenantView } from "./support/standInTenantsForPeople";

const alice = "alice@example.com";
const bob = "bob@example.com";

const readyAtlas = tenantView("team-atlas", alice, {
  ...readyStatus("team-atlas"),
  appsDomain: "apps.team-atlas.example.com",
});

let portal: PortalHarness;
let tenants: StandInTenantsForPeople;

beforeEach(async () => {
  tenants = new StandInTenantsForPeople()
    .put(readyAtlas)
    .put(tenantView("team-borealis", bob, { phase: "Provisioning", message: "installing the vCluster chart" }));
  tenants.kubeconfigs.set("team-atlas", "apiVersion: v1\nkind: Config\n");
  portal = await portalHarness(tenants);
});

/**
 * A page's markup with its layout's whitespace squeezed (the templates are formatted by Prettier),
 * so that tests can look for elements as written on one line.
 */
const markup = (answer: { readonly body: string }): string =>
  answer.body
    .replace(/\s+/g, " ")
    .replace(/\s*\/?>/g, ">")
    .replace(/>\s+</g, "><");

/** The text of the element with `id`'s following control, roughly: enough to find attributes on it. */
const controlTag = (body: string, id: string): string =>
  new RegExp(`<(input|select)[^>]*id="${id}"[^>]*>`).exec(body)?.[0] ?? "";

describe("someone who is not signed in", () => {
  it.each([PORTAL_PATHS.list, PORTAL_PATHS.newTenant, "/tenants/team-atlas", "/tenants/team-atlas/kubeconfig"])(
    "is sent to sign in from %s, and back after",
    async (url) => {
      const answer = await portal.get(url);
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toBe(`/sign-in?returnTo=${encodeURIComponent(url)}`);
    },
  );

  it("is answered 401 to a form, and nothing changes", async () => {
    const create = await portal.submit(PORTAL_PATHS.newTenant, PORTAL_PATHS.create, { name: "team-new" }, { as: "" });
    expect(create.statusCode).toBe(401);
    expect(markup(create)).toContain(`href="/sign-in?returnTo=${encodeURIComponent(PORTAL_PATHS.newTenant)}"`);
    const remove = await portal.submit(
      "/tenants/team-atlas",
      "/tenants/team-atlas/delete",
      { confirm: "team-atlas" },
      { as: "" },
    );
    expect(remove.statusCode).toBe(401);
    expect(tenants.created).toEqual([]);
    expect(tenants.deleted).toEqual([]);
  });
});

describe("the tenant list", () => {
  it("says the person's use against the platform's caps per owner when it sets any, and nothing when none", async () => {
    expect(markup(await portal.get(PORTAL_PATHS.list, alice))).not.toContain("data-caps");
    tenants.caps = { tenants: 3, awake: 1, cpu: "24" };
    expect(markup(await portal.get(PORTAL_PATHS.list, alice))).toContain(
      "<p data-caps>Your use against the platform's caps: tenants 1 of 3, awake 1 of 1, cpu 0 of 24.</p>",
    );
  });

  it("shows only what the port returns for the person, with phase, API URL, created and owner", async () => {
    const answer = await portal.get(PORTAL_PATHS.list, alice);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(markup(answer)).toContain('<a href="/tenants/team-atlas">team-atlas</a>');
    expect(markup(answer)).toContain("<td>Ready</td>");
    expect(markup(answer)).toContain("<code>https://team-atlas.example.com:443</code>");
    expect(markup(answer)).toContain('<time datetime="2026-12-01T10:00:00.000Z">2026-12-01 10:00 UTC</time>');
    expect(markup(answer)).toContain(`<td>${alice}</td>`);
    expect(markup(answer)).not.toContain("team-borealis");
    expect(markup(answer)).toContain(`href="${PORTAL_PATHS.newTenant}"`);
    expect(markup(answer)).not.toContain("Show every tenant");
  });

  it("shows an admin every tenant with ?all=1, and ignores it for anyone else", async () => {
    const admin = await portal.get("/?all=1", "root@example.com", true);
    expect(markup(admin)).toContain("team-atlas");
    expect(markup(admin)).toContain("team-borealis");
    expect(markup(admin)).toContain("Show only yours");
    const mine = await portal.get("/", "root@example.com", true);
    expect(markup(mine)).not.toContain("team-atlas</a>");
    expect(markup(mine)).toContain('href="/?all=1"');
    const notAdmin = await portal.get("/?all=1", alice);
    expect(markup(notAdmin)).not.toContain("team-borealis");
  });

  it("says so when the person has no tenant", async () => {
    const answer = await portal.get(PORTAL_PATHS.list, "carol@example.com");
    expect(markup(answer)).toContain("You have no tenants yet.");
    expect(markup(answer)).not.toContain("<table>");
  });
});

describe("the New tenant form", () => {
  it("labels every field, and names the signed-in person beside a Sign out form", async () => {
    const answer = await portal.get(PORTAL_PATHS.newTenant, alice);
    for (const field of ["name", "cpu", "memory", "storage", "podSecurity"]) {
      expect(markup(answer)).toContain(`<label for="tenant-${field}">`);
      expect(controlTag(markup(answer), `tenant-${field}`)).toContain(`name="${field}"`);
    }
    expect(markup(answer)).toMatch(
      /<form method="post" action="\/sign-out">\s*<input type="hidden" name="_csrf" value="[^"]+">/,
    );
    expect(markup(answer)).toContain(`Signed in as <strong>${alice}</strong>`);
    expect(markup(answer)).not.toContain('role="alert"');
  });

  it("is previewed first: its one button is Preview, and no Create is offered before a plan", async () => {
    const body = markup(await portal.get(PORTAL_PATHS.newTenant, alice));
    expect(body).toContain(`<form method="post" action="${PORTAL_PATHS.previewCreate}" novalidate>`);
    expect(body).toContain('<button type="submit">Preview</button>');
    expect(body).not.toContain(`action="${PORTAL_PATHS.create}"`);
  });

  it("shows what creating would make, then a Create form with exactly the previewed values; nothing is created", async () => {
    const values = { name: "team-new", cpu: "4", memory: "8Gi", storage: "", podSecurity: "restricted" };
    const answer = await portal.submit(PORTAL_PATHS.newTenant, PORTAL_PATHS.previewCreate, values);
    expect(answer.statusCode).toBe(200);
    const body = markup(answer);
    expect(body).toContain('<h2 id="plan-title">What creating team-new makes</h2>');
    expect(body).toContain("<strong data-plan-summary>6 to create, 0 to update, 0 to replace, 0 to delete</strong>");
    expect(body).toContain("<tr><td>create</td><td>Namespace</td><td><code>team-new</code></td><td>—</td></tr>");
    // The provider's "same" step is no change, so the plan leaves it out.
    expect(body).not.toContain("providers:kubernetes");
    const createForm = new RegExp(`<form method="post" action="${PORTAL_PATHS.create}">([\\s\\S]*?)</form>`).exec(
      body,
    )?.[1];
    for (const [field, value] of Object.entries(values))
      expect(createForm).toContain(`<input type="hidden" name="${field}" value="${value}">`);
    expect(createForm).toContain('<button type="submit">Create tenant</button>');
    // The form stays editable above it; a changed value is previewed again before it can be created.
    expect(controlTag(body, "tenant-cpu")).toContain('value="4"');
    expect(body).toContain('<button type="submit" class="button-secondary">Preview again</button>');
    expect(tenants.previews.ran).toEqual([
      {
        name: "team-new",
        request: { owner: alice, resources: { cpu: "4", memory: "8Gi" }, isolation: { podSecurity: "restricted" } },
      },
    ]);
    expect(tenants.created).toEqual([]);
  });

  it.each([
    ["a refused request", { name: "team-small", cpu: "500m", memory: "4Gi" }, 422, "with 500m CPU"],
    ["a name that is taken", { name: "team-borealis" }, 409, "a tenant named team-borealis exists already"],
  ])(
    "is not previewed for %s: the form comes back as a refused create does, with no plan",
    async (_c, values, status, words) => {
      const answer = await portal.submit(PORTAL_PATHS.newTenant, PORTAL_PATHS.previewCreate, values);
      expect(answer.statusCode).toBe(status);
      expect(markup(answer)).toContain(words);
      expect(markup(answer)).not.toContain("data-plan");
      expect(tenants.previews.ran).toEqual([]);
    },
  );

  it("creates the tenant for the person and sends them to its page", async () => {
    const answer = await portal.submit(PORTAL_PATHS.newTenant, PORTAL_PATHS.create, {
      name: "team-new",
      cpu: "4",
      memory: " 8Gi ",
      storage: "",
      podSecurity: "restricted",
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/tenants/team-new");
    expect(tenants.created).toEqual([
      {
        name: "team-new",
        request: { owner: alice, resources: { cpu: "4", memory: "8Gi" }, isolation: { podSecurity: "restricted" } },
      },
    ]);
  });

  it("comes back with the values kept, the service's problems in a summary and beside each field", async () => {
    const answer = await portal.submit(PORTAL_PATHS.newTenant, PORTAL_PATHS.create, {
      name: "Team_Bad",
      cpu: "lots",
      memory: "8Gi",
      podSecurity: "restricted",
    });
    expect(answer.statusCode).toBe(422);
    expect(markup(answer)).toContain("<title>Error: New tenant · KubeSpaces</title>");
    // The service's own words (the component's rules), as the stand-in's real validation gives them.
    const nameProblem = `name: must be a DNS-1123 label (lower-case letters, digits and &#39;-&#39;), got &quot;Team_Bad&quot;`;
    expect(markup(answer)).toContain(nameProblem);
    expect(markup(answer)).toMatch(/resources\.cpu: [^<]*lots/);

    const summary = /<div class="error-summary" role="alert" tabindex="-1" autofocus[^>]*>([\s\S]*?)<\/div>/.exec(
      markup(answer),
    )?.[1];
    expect(summary).toContain(`<a href="#tenant-name">${nameProblem}</a>`);
    expect(summary).toContain('<a href="#tenant-cpu">resources.cpu');

    const cpu = controlTag(markup(answer), "tenant-cpu");
    expect(cpu).toContain('value="lots"');
    expect(cpu).toContain('aria-invalid="true"');
    expect(cpu).toContain('aria-describedby="tenant-cpu-hint tenant-cpu-error"');
    expect(markup(answer)).toMatch(
      /<div class="field-error" id="tenant-cpu-error"><p><span class="visually-hidden">Error: <\/span>resources\.cpu:/,
    );
    const memory = controlTag(markup(answer), "tenant-memory");
    expect(memory).toContain('value="8Gi"');
    expect(memory).not.toContain("aria-invalid");
    expect(markup(answer)).toContain('<option value="restricted" selected>restricted</option>');
    expect(markup(answer)).not.toContain('<option value="baseline" selected>');
    expect(tenants.created).toEqual([]);
  });

  it("blames no field it does not show: a CPU too small for the defaults is worded beside CPU", async () => {
    const answer = await portal.submit(PORTAL_PATHS.newTenant, PORTAL_PATHS.create, {
      name: "team-small",
      cpu: "500m",
      memory: "4Gi",
      storage: "10Gi",
    });
    expect(answer.statusCode).toBe(422);
    const body = markup(answer);
    expect(body).not.toMatch(/limitRange|controlPlaneResources/);
    const cpuErrors = /<div class="field-error" id="tenant-cpu-error">([\s\S]*?)<\/div>/.exec(body)?.[1] ?? "";
    expect(cpuErrors).toContain(
      "with 500m CPU, the tenant&#39;s own control plane needs 1 CPU, more than the whole tenant has",
    );
    expect(cpuErrors).toContain("with 500m CPU, each container that sets no limit of its own is given 1 CPU");
    expect(body).toContain('<a href="#tenant-cpu">with 500m CPU, the tenant&#39;s own control plane needs 1 CPU');
    expect(tenants.created).toEqual([]);
  });

  it("says the name is taken when the port refuses it as a conflict", async () => {
    const answer = await portal.submit(PORTAL_PATHS.newTenant, PORTAL_PATHS.create, { name: "team-borealis" });
    expect(answer.statusCode).toBe(409);
    expect(markup(answer)).toContain(
      '<a href="#tenant-name">name: a tenant named team-borealis exists already; pick another name</a>',
    );
    expect(controlTag(markup(answer), "tenant-name")).toContain('value="team-borealis"');
  });

  it.each([
    ["without its CSRF token", { withToken: false }],
    ["with a token from another browser", { foreign: true }],
  ])("is refused %s, and nothing is created", async (_case, how) => {
    const answer = await (async () => {
      if (!("foreign" in how))
        return portal.submit(PORTAL_PATHS.newTenant, PORTAL_PATHS.create, { name: "team-x" }, how);
      const other = await portal.get(PORTAL_PATHS.newTenant, alice);
      const token = /name="_csrf" value="([^"]+)"/.exec(other.body)![1];
      return portal.app.inject({
        method: "POST",
        url: PORTAL_PATHS.create,
        headers: { "x-stand-in-actor": alice, "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ name: "team-x", _csrf: token }).toString(),
      });
    })();
    expect(answer.statusCode).toBe(403);
    expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(markup(answer)).toContain("nothing was changed");
    expect(tenants.created).toEqual([]);
  });
});

describe("the tenant page", () => {
  it("shows the live status, conditions, endpoints, quota, the kubeconfig link and the delete form", async () => {
    tenants.quotas.set("team-atlas", {
      hard: {
        "requests.cpu": "4",
        "limits.cpu": "4",
        "requests.memory": "8Gi",
        "limits.memory": "8Gi",
        "requests.storage": "10Gi",
      },
      used: { "requests.cpu": "1", "limits.cpu": "3", "requests.memory": "2Gi", "limits.memory": "4Gi" },
    });
    const answer = await portal.get("/tenants/team-atlas", alice);
    expect(answer.statusCode).toBe(200);
    const body = markup(answer);
    expect(body).toContain(
      `<div class="status" role="status" aria-live="polite" aria-atomic="true" data-events="${API_PATHS.tenantEvents("team-atlas")}">`,
    );
    expect(body).toContain('<strong data-field="phase">Ready</strong>');
    expect(body).toContain('<td data-field="reason">Provisioned</td>');
    expect(body).toContain(
      '<code data-field="apiServerUrl" data-empty="not yet known">https://team-atlas.example.com:443</code>',
    );
    expect(body).toContain(
      '<code data-field="namespace" data-empty="not yet known">kubespaces-tenant-team-atlas</code>',
    );
    expect(body).toContain(
      '<th scope="row"><code>limits.cpu</code></th><td data-quota-used="limits.cpu">3</td><td data-quota-hard="limits.cpu">4</td><td data-quota-share="limits.cpu">75%</td>',
    );
    expect(body).toContain(
      '<td data-quota-used="requests.storage">0</td><td data-quota-hard="requests.storage">10Gi</td><td data-quota-share="requests.storage">0%</td>',
    );
    expect(body).toContain(`<section aria-labelledby="quota-title" data-quota="${PORTAL_PATHS.quota("team-atlas")}">`);
    expect(body).toContain("When pods in the tenant stay Pending, check this first");
    expect(body).toContain("<table data-quota-table>");
    expect(body).toMatch(/<p data-quota-none hidden>/);
    expect(body).toMatch(
      /<p data-show-phases="Ready Sleeping"><a class="button" href="\/tenants\/team-atlas\/kubeconfig"/,
    );
    // The way to the delete page, which shows what a delete removes before the name is typed.
    expect(body).toContain('<a class="button button-danger" href="/tenants/team-atlas/delete">Delete tenant…</a>');
    expect(body).not.toContain('<form method="post" action="/tenants/team-atlas/delete"');
    expect(body).not.toContain("data-plan");
    expect(body).toContain(`<script type="module" src="${PORTAL_PATHS.script}"></script>`);
    // Hints of other phases and reasons are there for the script, hidden.
    expect(body).toMatch(/<p class="hint-box" data-show-phases="Failed" data-show-reasons="InvalidRequest" hidden>/);
  });

  it("says what failed and what to do when the tenant is Failed", async () => {
    tenants.put(
      tenantView("team-broken", alice, {
        phase: "Failed",
        message: "the request breaks a rule: resources.cpu above the ceiling",
        conditions: [
          { type: "Ready", status: "False", reason: "InvalidRequest", message: "the request breaks a rule" },
        ],
      }),
    );
    const body = markup(await portal.get("/tenants/team-broken", alice));
    expect(body).toContain('<dd data-field="reason" data-empty="none yet">InvalidRequest</dd>');
    expect(body).toMatch(
      /<p class="hint-box" data-show-phases="Failed" data-show-reasons="InvalidRequest"><strong>What to do:<\/strong> The request breaks a rule/,
    );
    expect(body).toMatch(/data-show-reasons="QuotaFailed" hidden>/);
    expect(body).toMatch(/<p data-show-phases="Ready Sleeping" hidden><a class="button"/);
    expect(body).toContain("<p data-quota-none> The tenant's namespace has no quota yet");
  });

  it("offers a tenant's kubeconfig to its owner only", async () => {
    const admin = await portal.get("/tenants/team-atlas", "root@example.com", true);
    expect(admin.statusCode).toBe(200);
    expect(markup(admin)).not.toContain("/tenants/team-atlas/kubeconfig");
    expect(markup(admin)).toContain("Only the tenant's owner can download its kubeconfig.");
  });
});

describe("the tenant page's way in", () => {
  it("says a Ready tenant without exposure is not exposed, and how to connect through a port-forward", async () => {
    tenants.put(
      tenantView("team-inside", alice, {
        ...readyStatus("team-inside"),
        apiServerUrl: "https://team-inside.kubespaces-tenant-team-inside.svc:443",
      }),
    );
    const body = markup(await portal.get("/tenants/team-inside", alice));
    expect(body).toContain(
      '<code data-field="appsDomain" data-empty="not yet known" data-show-reach="unknown exposed" hidden>not yet known</code>',
    );
    expect(body).toContain('<span data-show-reach="inCluster">none: not exposed outside the host cluster</span>');
    expect(body).toContain('<div class="hint-box" data-show-reach="inCluster"><p><strong>How to connect:</strong>');
    expect(body).toContain(
      '<pre><code>kubectl port-forward -n <span data-field="namespace">kubespaces-tenant-team-inside</span> svc/team-inside 8443:443</code></pre>',
    );
    expect(body).toContain(
      "kubectl --kubeconfig team-inside-kubeconfig.yaml --server https://127.0.0.1:8443 --tls-server-name team-inside.<span",
    );
    expect(body).toContain(
      "<code>kubespaces tenant kubeconfig team-inside --merge --server https://127.0.0.1:8443</code>",
    );
    expect(body).toMatch(/<p data-show-reach="exposed" hidden> This tenant is published through the platform/);
  });

  it("says an exposed tenant is reached through the gateway, and hides the port-forward", async () => {
    const body = markup(await portal.get("/tenants/team-atlas", alice));
    expect(body).toContain('<div class="hint-box" data-show-reach="inCluster" hidden>');
    expect(body).toMatch(/<p data-show-reach="exposed"> This tenant is published through the platform/);
    expect(body).toContain('data-show-reach="inCluster" hidden>none: not exposed');
  });
});

describe("the tenant page's host quota", () => {
  it("says there is none yet without asking for a reload, its table hidden for the script to fill", async () => {
    const body = markup(await portal.get("/tenants/team-atlas", alice));
    expect(body).toContain("<p data-quota-none> The tenant's namespace has no quota yet");
    expect(body).not.toMatch(/[Rr]eload/);
    expect(body).toContain("<table data-quota-table hidden>");
  });

  it("is the quota route's JSON for the page's script: the rows as the page shows them, or none yet, never cached", async () => {
    const none = await portal.get(PORTAL_PATHS.quota("team-atlas"), alice);
    expect(none.statusCode).toBe(200);
    expect(none.headers["cache-control"]).toBe("no-store");
    expect(none.json()).toEqual({ rows: null });

    tenants.quotas.set("team-atlas", { hard: { "limits.cpu": "4" }, used: { "limits.cpu": "1" } });
    const rows = (await portal.get(PORTAL_PATHS.quota("team-atlas"), alice)).json().rows;
    expect(rows).toHaveLength(5);
    expect(rows[1]).toEqual({ resource: "limits.cpu", used: "1", hard: "4", share: "25%" });
    expect(rows[0]).toEqual({ resource: "requests.cpu", used: "0", hard: "no ceiling", share: "not applicable" });
  });

  it("is not found for another person, the same as a tenant that does not exist, and needs a sign-in", async () => {
    tenants.quotas.set("team-borealis", { hard: { "limits.cpu": "4" }, used: { "limits.cpu": "1" } });
    for (const url of [PORTAL_PATHS.quota("team-borealis"), PORTAL_PATHS.quota("team-nowhere")]) {
      const answer = await portal.get(url, alice);
      expect(answer.statusCode).toBe(404);
      expect(answer.body).not.toContain("limits.cpu");
    }
    const anonymous = await portal.get(PORTAL_PATHS.quota("team-atlas"));
    expect(anonymous.statusCode).toBe(303);
  });
});

describe("another person's tenant", () => {
  it("is not found on its page, its kubeconfig and its delete form, the same as a tenant that does not exist", async () => {
    const page = await portal.get("/tenants/team-borealis", alice);
    const missing = await portal.get("/tenants/team-nowhere", alice);
    const kubeconfig = await portal.get("/tenants/team-borealis/kubeconfig", alice);
    const remove = await portal.submit(PORTAL_PATHS.list, "/tenants/team-borealis/delete", {
      confirm: "team-borealis",
    });
    for (const answer of [page, missing, kubeconfig, remove]) {
      expect(answer.statusCode).toBe(404);
      expect(markup(answer)).toContain("<h1>Tenant not found</h1>");
    }
    const sameness = (body: string, name: string) =>
      body.replaceAll(name, "NAME").replace(/name="_csrf" value="[^"]+"/g, "CSRF");
    expect(sameness(markup(page), "team-borealis")).toBe(sameness(markup(missing), "team-nowhere"));
    expect(markup(page)).not.toContain(bob);
    expect(tenants.deleted).toEqual([]);
  });
});

describe("the held plan on the tenant page", () => {
  it.each(["AwaitingApproval", "Previewed"] as const)(
    "is shown while the tenant is %s, for the script to hide after",
    async (phase) => {
      const step = { op: "create", type: "kubernetes:core/v1:Namespace", name: "team-held", diffs: [] };
      const plan = {
        generation: 2,
        specSha256: "ab".repeat(32),
        creates: 1,
        updates: 0,
        replaces: 0,
        deletes: 0,
        steps: [step],
      };
      tenants.put(tenantView("team-held", alice, { phase, message: "held", plan }));
      const body = markup(await portal.get("/tenants/team-held", alice));
      expect(body).toContain(
        '<section aria-labelledby="plan-title" data-plan data-show-phases="AwaitingApproval Previewed"><h2 id="plan-title">The plan of generation 2</h2>',
      );
      expect(body).toContain("<strong data-plan-summary>1 to create, 0 to update, 0 to replace, 0 to delete</strong>");
    },
  );
});

describe("the delete page", () => {
  it("shows what a delete removes before the name is typed, with the confirmation form; nothing is deleted", async () => {
    const answer = await portal.get(PORTAL_PATHS.delete("team-atlas"), alice);
    expect(answer.statusCode).toBe(200);
    const body = markup(answer);
    expect(body).toContain("<h1>Delete tenant team-atlas</h1>");
    expect(body).toContain("<strong data-plan-summary>0 to create, 0 to update, 0 to replace, 6 to delete</strong>");
    expect(body).toContain("<tr><td>delete</td><td>Namespace</td><td><code>team-atlas</code></td><td>—</td></tr>");
    expect(body.indexOf("data-plan")).toBeLessThan(body.indexOf('id="delete-confirm"'));
    expect(body).toContain('<form method="post" action="/tenants/team-atlas/delete" novalidate>');
    expect(tenants.previews.ran).toEqual([{ name: "team-atlas" }]);
    expect(tenants.deleted).toEqual([]);
  });

  it("is not found for another person's tenant, and previews nothing", async () => {
    const answer = await portal.get(PORTAL_PATHS.delete("team-borealis"), alice);
    expect(answer.statusCode).toBe(404);
    expect(tenants.previews.ran).toEqual([]);
  });
});

describe("deleting", () => {
  it("is refused when the typed name is not the tenant's, with the page shown again, and nothing is deleted", async () => {
    const answer = await portal.submit("/tenants/team-atlas/delete", "/tenants/team-atlas/delete", {
      confirm: "team-atlaz",
    });
    expect(answer.statusCode).toBe(422);
    expect(markup(answer)).toContain("<title>Error: Delete tenant team-atlas · KubeSpaces</title>");
    expect(markup(answer)).toContain("6 to delete");
    const problem = "confirm: type the tenant&#39;s name, team-atlas, exactly to delete it; nothing was deleted";
    expect(markup(answer)).toContain(`<a href="#delete-confirm">${problem}</a>`);
    const confirm = controlTag(markup(answer), "delete-confirm");
    expect(confirm).toContain('value="team-atlaz"');
    expect(confirm).toContain('aria-invalid="true"');
    expect(tenants.deleted).toEqual([]);
  });

  it("asks for the teardown when the name is typed, and goes back to the tenant page, which then shows it", async () => {
    const answer = await portal.submit("/tenants/team-atlas", "/tenants/team-atlas/delete", {
      confirm: " team-atlas ",
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/tenants/team-atlas");
    expect(tenants.deleted).toEqual(["team-atlas"]);
    const after = await portal.get("/tenants/team-atlas", alice);
    expect(markup(after)).toContain("Its deletion was asked for at");
    expect(markup(after)).not.toContain("/tenants/team-atlas/delete");
  });

  it("needs the CSRF token", async () => {
    const answer = await portal.submit(
      "/tenants/team-atlas",
      "/tenants/team-atlas/delete",
      { confirm: "team-atlas" },
      { withToken: false },
    );
    expect(answer.statusCode).toBe(403);
    expect(tenants.deleted).toEqual([]);
  });
});

describe("the history", () => {
  it("lists the updates on the tenant page, each with a Roll back form that asks for its request again", async () => {
    tenants.histories.add("team-atlas", 1, { owner: alice, resources: { cpu: "3", memory: "4Gi" } });
    tenants.histories.add("team-atlas", 2, { owner: alice, resources: { cpu: "4", memory: "4Gi" } }, "tighter");
    const page = markup(await portal.get("/tenants/team-atlas", alice));
    expect(page).toContain('<h2 id="history-title">History</h2>');
    const rows = [...page.matchAll(/<tr>\s*<th scope="row">(\d+)<\/th>([\s\S]*?)<\/tr>/g)];
    expect(rows.map((row) => row[1])).toEqual(["2", "1"]);
    expect(rows[0][2]).toContain("<td>tighter</td>");
    expect(rows[1][2]).toContain("<td>the server&#39;s policy</td>");
    expect(rows[1][2]).toContain('<input type="hidden" name="version" value="1">');

    const answer = await portal.submit("/tenants/team-atlas", "/tenants/team-atlas/rollback", { version: "1" });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/tenants/team-atlas");
    expect(tenants.rolledBack).toEqual([{ name: "team-atlas", version: 1 }]);
  });

  it("needs the CSRF token to roll back", async () => {
    tenants.histories.add("team-atlas", 1, { owner: alice, resources: { cpu: "3", memory: "4Gi" } });
    const answer = await portal.submit(
      "/tenants/team-atlas",
      "/tenants/team-atlas/rollback",
      { version: "1" },
      { withToken: false },
    );
    expect(answer.statusCode).toBe(403);
    expect(tenants.rolledBack).toEqual([]);
  });
});

describe("the awake time", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows the hours awake over the last 30 days from the history, with a bar for each day", async () => {
    // Only the clock is faked: the window ends on the page's "now".
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-02T00:00:00.000Z"));
    // Made at 00:00 on 1 December, asleep from 01:00, woken at 03:00: awake 1 h, then 21 h until now.
    tenants.histories.add("team-atlas", 1, { owner: alice, resources: { cpu: "3", memory: "4Gi" } });
    tenants.histories.add("team-atlas", 2, { owner: alice, resources: { cpu: "3", memory: "4Gi" }, sleep: true });
    tenants.histories.add("team-atlas", 3, { owner: alice, resources: { cpu: "3", memory: "4Gi" }, sleep: false });
    const page = markup(await portal.get("/tenants/team-atlas", alice));
    expect(page).toContain('<h2 id="awake-title">Awake time</h2>');
    expect(page).toContain(
      'Awake <span data-field="awake-hours" data-seconds="82800">23</span> hours in the last 30 days',
    );
    const bars = [...page.matchAll(/<title>(\d{4}-\d\d-\d\d): ([\d.]+) h awake<\/title>/g)];
    expect(bars).toHaveLength(30);
    expect(bars.at(-1)?.slice(1)).toEqual(["2026-12-02", "0"]);
    expect(bars.at(-2)?.slice(1)).toEqual(["2026-12-01", "23"]);
    expect(bars.slice(0, -2).every((bar) => bar[2] === "0")).toBe(true);
  });
});

describe("the Sleep section", () => {
  it("puts a running tenant to sleep with its form, and offers a sleeping one the Wake form", async () => {
    const page = markup(await portal.get("/tenants/team-atlas", alice));
    expect(page).toContain('<h2 id="sleep-title">Sleep</h2>');
    expect(page).toMatch(
      /<form method="post" action="\/tenants\/team-atlas\/sleep">[\s\S]*?Put tenant to sleep<\/button>/,
    );
    const slept = await portal.submit("/tenants/team-atlas", "/tenants/team-atlas/sleep", {});
    expect(slept.statusCode).toBe(303);
    expect(slept.headers.location).toBe("/tenants/team-atlas");
    expect(tenants.tenants.get("team-atlas")!.spec.sleep).toBe(true);

    const asleep = markup(await portal.get("/tenants/team-atlas", alice));
    expect(asleep).toMatch(/<form method="post" action="\/tenants\/team-atlas\/wake">[\s\S]*?Wake tenant<\/button>/);
    expect((await portal.submit("/tenants/team-atlas", "/tenants/team-atlas/wake", {})).statusCode).toBe(303);
    expect(tenants.tenants.get("team-atlas")!.spec.sleep).toBe(false);
  });

  it("needs the CSRF token to change the tenant's sleep", async () => {
    const answer = await portal.submit("/tenants/team-atlas", "/tenants/team-atlas/sleep", {}, { withToken: false });
    expect(answer.statusCode).toBe(403);
    expect(tenants.tenants.get("team-atlas")!.spec.sleep).toBeUndefined();
  });

  it("shows when the tenant expires", async () => {
    const tenant = tenants.tenants.get("team-atlas")!;
    tenants.put({ ...tenant, spec: { ...tenant.spec, expiresAt: "2027-01-31T18:00:00Z" } });
    expect(markup(await portal.get("/tenants/team-atlas", alice))).toMatch(
      /Expires: <time datetime="2027-01-31T18:00:00.000Z">2027-01-31 18:00 UTC<\/time>, and is then deleted\./,
    );
  });
});

describe("the Snapshots section", () => {
  it("lists the snapshots newest first, each with a Restore form, and takes one with its form", async () => {
    const tenant = tenants.tenants.get("team-atlas")!;
    const snapshots = [
      { name: "team-atlas-1", takenAt: "2026-12-05T06:00:00Z", url: "s3://b/1" },
      { name: "team-atlas-2", takenAt: "2026-12-05T07:00:00Z", url: "s3://b/2" },
    ];
    tenants.put({ ...tenant, status: { ...tenant.status, snapshots } });
    const page = markup(await portal.get("/tenants/team-atlas", alice));
    expect(page).toContain('<h2 id="snapshots-title">Snapshots</h2>');
    const rows = [...page.matchAll(/<th scope="row">(team-atlas-\d)<\/th>/g)].map((row) => row[1]);
    expect(rows).toEqual(["team-atlas-2", "team-atlas-1"]);
    expect(page).toContain('<input type="hidden" name="snapshot" value="team-atlas-1">');

    expect((await portal.submit("/tenants/team-atlas", "/tenants/team-atlas/snapshots", {})).statusCode).toBe(303);
    expect(tenants.snapshotsAsked).toEqual(["team-atlas"]);
    const restored = await portal.submit("/tenants/team-atlas", "/tenants/team-atlas/restore", {
      snapshot: "team-atlas-1",
    });
    expect(restored.statusCode).toBe(303);
    expect(tenants.restoresAsked).toEqual([{ name: "team-atlas", snapshot: "team-atlas-1" }]);
  });

  it("needs the CSRF token to take or restore", async () => {
    const answer = await portal.submit(
      "/tenants/team-atlas",
      "/tenants/team-atlas/snapshots",
      {},
      { withToken: false },
    );
    expect(answer.statusCode).toBe(403);
    expect(tenants.snapshotsAsked).toEqual([]);
  });
});

describe("the kubeconfig download", () => {
  it("is an attachment named after the tenant, never cached", async () => {
    const answer = await portal.get("/tenants/team-atlas/kubeconfig", alice);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-disposition"]).toBe('attachment; filename="team-atlas-kubeconfig.yaml"');
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.headers["content-type"]).toBe("application/yaml; charset=utf-8");
    expect(answer.body).toBe("apiVersion: v1\nkind: Config\n");
  });

  it("is refused with the service's words before the tenant is Ready", async () => {
    tenants.put(tenantView("team-young", alice, { phase: "Provisioning", message: "installing the vCluster chart" }));
    const answer = await portal.get("/tenants/team-young/kubeconfig", alice);
    expect(answer.statusCode).toBe(409);
    expect(answer.headers["content-disposition"]).toBeUndefined();
    expect(markup(answer)).toContain("tenant team-young is Provisioning, not Ready: installing the vCluster chart");
  });
});

describe("every value a page shows", () => {
  const attack = `<script>alert("x")</script>'&`;
  const escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;";

  it("is escaped: a tenant's message, endpoints, owner, conditions and quota come out as text", async () => {
    tenants.put(
      tenantView(
        "team-evil",
        alice,
        {
          phase: "Failed",
          message: attack,
          apiServerUrl: attack,
          appsDomain: attack,
          namespace: attack,
          conditions: [
            {
              type: "Ready",
              status: "False",
              reason: "ProvisioningFailed",
              message: attack,
              lastTransitionTime: attack,
            },
          ],
        },
        { creationTimestamp: attack },
      ),
    );
    tenants.quotas.set("team-evil", { hard: { "requests.cpu": attack }, used: { "requests.cpu": attack } });
    const pages = [await portal.get("/tenants/team-evil", alice), await portal.get("/", alice)];
    for (const { body } of pages) {
      expect(body).toContain(escaped);
      expect(body).not.toContain("<script>");
    }
    expect(markup(pages[0]).split(escaped).length - 1).toBeGreaterThanOrEqual(7);
  });

  it("is escaped in a refused form, the typed values included", async () => {
    const answer = await portal.submit(PORTAL_PATHS.newTenant, PORTAL_PATHS.create, { name: attack, cpu: attack });
    expect(answer.statusCode).toBe(422);
    expect(markup(answer)).toContain(`value="${escaped}"`);
    expect(markup(answer)).not.toContain("<script>");
  });
});

describe("the markup", () => {
  it("needs nothing a strict Content-Security-Policy forbids: no inline script, style or event handler", async () => {
    tenants.put(tenantView("team-failed", alice, { phase: "Failed" }));
    const bodies = await Promise.all(
      ["/", PORTAL_PATHS.newTenant, "/tenants/team-atlas", "/tenants/team-failed", "/tenants/none"].map(async (url) =>
        markup(await portal.get(url, alice)),
      ),
    );
    for (const body of bodies) {
      expect(body).toMatch(/^<!doctype html>\s*<html lang="en">/);
      expect(body).toContain('<a class="skip-link" href="#main">');
      expect(body).toContain('<main id="main" tabindex="-1">');
      expect(body).not.toMatch(/<script(?![^>]*\ssrc=)/);
      expect(body).not.toMatch(/<style|\sstyle=/);
      expect(body).not.toMatch(/\son[a-z]+=/);
    }
  });

  it.each([
    [PORTAL_PATHS.stylesheet, "text/css; charset=utf-8", "portal.css"],
    [PORTAL_PATHS.script, "text/javascript; charset=utf-8", "portal.js"],
  ])("serves %s from the package's file, to anyone", async (url, type, file) => {
    const answer = await portal.get(url);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe(type);
    const onDisk = readFileSync(path.resolve(__dirname, "../../provider/server/portal/static", file), "utf8");
    expect(answer.body).toBe(onDisk);
  });
});

describe("failures", () => {
  it("are a page that says so, without the failure's details, which go to the log", async () => {
    tenants.list = async () => {
      throw new Error("token=abc at https://10.0.0.1:6443");
    };
    const answer = await portal.get(PORTAL_PATHS.list, alice);
    expect(answer.statusCode).toBe(500);
    expect(markup(answer)).toContain("<h1>Something went wrong</h1>");
    expect(answer.body).not.toContain("token=abc");
    expect(portal.failures).toEqual(["/: token=abc at https://10.0.0.1:6443"]);
  });

  it("and the service's refusals are pages in its words", async () => {
    tenants.quota = async () => {
      throw new HostUnavailableError("the host cluster does not answer; try again later");
    };
    const answer = await portal.get("/tenants/team-atlas", alice);
    expect(answer.statusCode).toBe(503);
    expect(markup(answer)).toContain("<p>the host cluster does not answer; try again later</p>");
  });

  it("and a preview the replica has no place for is a busy page that says when to try again", async () => {
    tenants.previews.nextError = new PreviewsBusyError(2, "and 2 more wait", 15);
    const values = { name: "team-new", cpu: "4", memory: "8Gi" };
    const answer = await portal.submit(PORTAL_PATHS.newTenant, PORTAL_PATHS.previewCreate, values);
    expect(answer.statusCode).toBe(503);
    expect(answer.headers["retry-after"]).toBe("15");
    expect(markup(answer)).toContain("<h1>Server busy</h1>");
    expect(markup(answer)).toContain(
      "<p>this replica is running 2 previews already, as many as it runs at once, and 2 more wait; nothing was run: try again in 15 s</p>",
    );
  });
});

describe("registering the portal", () => {
  it("fails, naming what the app must register first, on an app without the cookie, CSRF and form plugins", async () => {
    const app = Fastify();
    await expect(
      app.register(portalRoutes, {
        tenants: new StandInTenantsForPeople(),
        revisions: { list: async () => [], get: async () => undefined },
        actorOf: () => undefined,
        csrfBinding: () => "",
        logFailure: () => {},
      }),
    ).rejects.toThrow(
      "portalRoutes needs these registered on the app first: @fastify/csrf-protection (reply.generateCsrf), @fastify/csrf-protection (app.csrfProtection), @fastify/formbody",
    );
  });
});

describe("the platform revisions' pages", () => {
  const steps = [{ op: "update", type: "kubernetes:core/v1:ResourceQuota", name: "kubespaces-quota", diffs: ["spec"] }];
  const at = new Date("2026-12-05T00:00:00Z");
  const tighter = {
    metadata: { name: "tighter", creationTimestamp: "2026-12-05T00:00:00Z" },
    spec: { platform: { quota: { ceilings: { cpu: "4" } } } },
    status: {
      ...withPreviews(
        undefined,
        [
          revisionTenantOf("team-small", 2, { steps }, at),
          revisionTenantOf("team-large", 1, { failure: "resources.cpu: 6 is above <the ceiling>" }, at),
          { ...revisionTenantOf("team-same", 1, { steps: [] }, at), appliedGeneration: 1 },
        ],
        new Set(["team-small", "team-large", "team-same"]),
      ),
      rollout: {
        phase: "Halted" as const,
        wave: 1,
        waves: 3,
        applied: 1,
        halt: { tenant: "team-large", reason: "its preview failed", at: "2026-12-05T01:00:00.000Z" },
        message: "halted in wave 1: tenant team-large: its preview failed",
      },
    },
  };

  it("list the revisions for an admin, linked from the navigation, with each one's sum", async () => {
    const portal = await portalHarness();
    portal.revisions.set("tighter", tighter);
    const home = markup(await portal.get("/", "admin@example.com", true));
    expect(home).toMatch(/<a href="\/platformrevisions"\s*>Platform revisions<\/a>/);
    const answer = await portal.get("/platformrevisions", "admin@example.com", true);
    expect(answer.statusCode).toBe(200);
    const row = /<tr>\s*<th scope="row"><a href="\/platformrevisions\/tighter">tighter<\/a><\/th>([\s\S]*?)<\/tr>/.exec(
      markup(answer),
    );
    expect(row![1].match(/<td>([^<]*)<\/td>/g)).toEqual([
      "<td>Previewed</td>",
      "<td>3</td>",
      "<td>1</td>",
      "<td>1</td>",
      "<td>Halted</td>",
    ]);
  });

  it("show one revision: its rollout, each tenant's plan, nothing to change, or why its preview failed, escaped", async () => {
    const portal = await portalHarness();
    portal.revisions.set("tighter", tighter);
    const page = markup(await portal.get("/platformrevisions/tighter", "admin@example.com", true));
    expect(page).toContain(
      "<strong>Previewed</strong>: previewed on every tenant (3): 1 would change, 1 would not, 1 failed",
    );
    expect(page).toContain("<code>kubernetes:core/v1:ResourceQuota spec</code>");
    expect(page).toContain('<h2 id="tenant-team-small">team-small</h2>');
    expect(page).toContain("0 to create, 1 to update, 0 to replace, 0 to delete");
    expect(page).toContain("<span data-reason>resources.cpu: 6 is above &lt;the ceiling&gt;</span>");
    expect(page).toContain(
      "Nothing would change for generation 1 of its request (it runs the revision since generation 1).",
    );
    expect(page).toContain(
      "Rollout: <strong>Halted</strong> (wave 1 of 3): halted in wave 1: tenant team-large: its preview failed",
    );
    const missing = await portal.get("/platformrevisions/gone", "admin@example.com", true);
    expect(missing.statusCode).toBe(404);
    expect(markup(missing)).toContain("platform revision gone not found");
  });

  it("are refused to anyone else, who finds no link to them and learns nothing of them", async () => {
    const portal = await portalHarness();
    portal.revisions.set("tighter", tighter);
    expect(markup(await portal.get("/", "alice@example.com"))).not.toContain("/platformrevisions");
    for (const url of ["/platformrevisions", "/platformrevisions/tighter", "/platformrevisions/gone"]) {
      const answer = await portal.get(url, "alice@example.com");
      expect(answer.statusCode, url).toBe(403);
      expect(markup(answer), url).toContain("only the platform&#39;s admins may read platform revisions");
      expect(markup(answer), url).not.toContain("team-small");
    }
  });
});
