/**
 * The docs' portal session in a real browser (Debian's headless Chromium through playwright-core)
 * against `kubespaces server` on the test bed and its local Dex: alice signs in, asks for a tenant
 * with the New tenant form, watches its page go Pending → Provisioning → Ready live, downloads the
 * kubeconfig and uses it with kubectl; bob, signed in beside her, cannot see her tenant by any
 * route; alice deletes it by typing its name, and nothing is left on the host. New tenant shows
 * the plan of what Create makes before Create, and the delete page what a delete removes before
 * the name is typed; neither preview leaves anything on the host. The refused form
 * blames only fields it shows; the Ready page follows the host quota without a reload, and says how
 * to connect to a tenant that is not exposed. axe-core checks every portal screen (Dex's own pages
 * are not the portal's), and each step's screenshot is kept under test/e2e/artifacts/portal/. The time from the Create click to the page showing Ready is printed
 * and written beside the screenshots. Waits are on what the page shows, never on time.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../provider/contracts/tenantsApi";
import { DEFAULT_MINIMUM_QUOTA } from "../../provider/generated/defaultMinimumQuota";
import { RESOURCE_QUOTA_NAME } from "../../provider/render/resourceQuota";
import { PORTAL_PATHS } from "../../provider/server/portal/portalPaths";
import {
  ARTIFACTS_DIR,
  axeViolations,
  describeViolations,
  launchBrowser,
  screenshot,
  signInAtDex,
} from "./support/browser";
import { readOrUndefined } from "./support/hostCluster";
import { newCliUser } from "./support/kubespacesCli";
import {
  dexPerson,
  startServedKubespaces,
  stopServedKubespaces,
  type DexPerson,
  type ServedKubespaces,
} from "./support/servedKubespaces";
import { expectNothingLeft, forwardedKubeconfig, tenantNamespace } from "./support/tenantAssertions";
import { testbedEnv } from "./support/testbed";
import { platformRevisionFile } from "./support/platformRevisions";

const run = promisify(execFile);
const ALICE = dexPerson("alice@example.com");
const BOB = dexPerson("bob@example.com");
const TENANT = "team-portal";
/** How long a tenant may take to become Ready, and to be torn down, on a loaded test bed. */
const READY_TIMEOUT_MS = 12 * 60_000;
const GONE_TIMEOUT_MS = 6 * 60_000;

/** kubectl as the test bed's admin. */
const kubectl = (...args: string[]) =>
  run("kubectl", args, { env: { ...process.env, KUBECONFIG: testbedEnv().KUBECONFIG }, encoding: "utf8" });

/**
 * Records, in every document of the context, each text the tenant page's phase shows and when
 * (the page's clock): a document's list starts with what the server rendered and grows only with
 * what its script wrote from the event stream, so a list with several phases proves a live page.
 */
const PHASE_RECORDER = `(() => {
  const seen = [];
  window.__kubespacesPhases = seen;
  const record = () => {
    const text = document.querySelector('[data-field="phase"]')?.textContent?.trim();
    if (text && seen[seen.length - 1]?.phase !== text) seen.push({ phase: text, at: Date.now() });
  };
  new MutationObserver(record).observe(document, { childList: true, subtree: true, characterData: true });
})()`;

/** The phases this document of the page has shown, in order, with the time each appeared. */
const phasesShown = (page: Page) =>
  page.evaluate("window.__kubespacesPhases ?? []") as Promise<{ phase: string; at: number }[]>;

/** The page's phase text, once it reads exactly `phase`. */
const phaseShows = (page: Page, phase: string, timeout: number) =>
  page
    .locator('[data-field="phase"]')
    .filter({ hasText: new RegExp(`^\\s*(?:${phase})\\s*$`) })
    .waitFor({ timeout });

/** A screenshot of a portal screen, and no violations from axe-core on it. */
async function portalScreen(page: Page, step: string): Promise<void> {
  await screenshot(page, step);
  expect(describeViolations(await axeViolations(page)), `axe-core on ${step} (${page.url()})`).toEqual([]);
}

/** Opens the portal in a fresh context and signs `person` in at Dex; the page ends on their tenant list. */
async function signIn(browser: Browser, url: string, person: DexPerson, step: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addInitScript(PHASE_RECORDER);
  const page = await context.newPage();
  await page.goto(`${url}${PORTAL_PATHS.list}`);
  // No session: the portal sends the browser to Dex, whose pages are not the portal's (no axe there).
  await page.locator("#login").waitFor();
  expect(new URL(page.url()).origin).not.toBe(url);
  await screenshot(page, step);
  await signInAtDex(page, person.email, person.password);
  await page.waitForURL(`${url}${PORTAL_PATHS.list}`);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Tenants");
  await expect(page.locator(".account").textContent()).resolves.toContain(person.email);
  return context;
}

/** The one page of `context`. */
const pageOf = (context: BrowserContext): Page => context.pages()[0];

describe("the portal in a browser: sign-in, New tenant, live status to Ready, kubeconfig, delete", () => {
  let browser: Browser;
  let served: ServedKubespaces;
  let alice: BrowserContext;
  let bob: BrowserContext | undefined;
  /** When alice clicked Create. */
  let createdAt: number;

  beforeAll(async () => {
    browser = await launchBrowser();
    served = await startServedKubespaces(newCliUser(), "portal");
  });

  afterAll(async () => {
    // A failed run leaves no tenant behind: the admin deletes it while the server still reconciles.
    if (served)
      await kubectl("delete", "tenant", TENANT, "--ignore-not-found", "--wait=true", "--timeout=600s").catch(
        () => undefined,
      );
    // The browser first: a page it left open holds the tenant's event stream, which the server waits for as it stops.
    await browser?.close();
    await stopServedKubespaces(served);
  });

  it("alice opens the portal, signs in at Dex and lands on her tenant list", async () => {
    alice = await signIn(browser, served.url, ALICE, "alice-at-dex");
    await portalScreen(pageOf(alice), "alice-tenant-list");
  });

  it("New tenant: a quota below the policy's minimum is refused beside its field, the values kept", async () => {
    const page = pageOf(alice);
    await page.locator("main").getByRole("link", { name: "New tenant" }).click();
    await page.waitForURL(`${served.url}${PORTAL_PATHS.newTenant}`);
    await portalScreen(page, "new-tenant");

    await page.getByLabel("Name", { exact: true }).fill(TENANT);
    await page.getByLabel("CPU", { exact: true }).fill("500m");
    await page.getByLabel("Memory", { exact: true }).fill(DEFAULT_MINIMUM_QUOTA.memory);
    await page.getByLabel("Storage", { exact: true }).fill(DEFAULT_MINIMUM_QUOTA.storage);
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Preview" }).click(),
    ]);
    expect(refused.status()).toBe(422);
    await page.locator(".error-summary").waitFor();
    expect(await page.title()).toMatch(/^Error: New tenant/);
    expect(await page.locator(".error-summary").textContent()).toMatch(/resources\.cpu/);
    // No problem blames a field the form does not show: the defaults' limits are worded from the CPU typed.
    expect(await page.locator("main").textContent()).not.toMatch(/limitRange|controlPlaneResources/);
    expect(await page.locator("#tenant-cpu-error").textContent()).toContain(
      "with 500m CPU, the tenant's own control plane needs",
    );
    const cpu = page.getByLabel("CPU", { exact: true });
    expect(await cpu.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe(TENANT);
    await portalScreen(page, "new-tenant-refused");
    expect(await readOrUndefined(() => tenantResource(TENANT))).toBeUndefined();
  });

  it("Preview: the plan of what Create makes is shown first, and nothing is made", async () => {
    const page = pageOf(alice);
    await page.getByLabel("CPU", { exact: true }).fill(DEFAULT_MINIMUM_QUOTA.cpu);
    await page.getByRole("button", { name: "Preview" }).click();
    await page.getByRole("heading", { name: `What creating ${TENANT} makes` }).waitFor();
    expect(await page.locator("[data-plan-summary]").textContent()).toMatch(
      /^[1-9]\d* to create, 0 to update, 0 to replace, 0 to delete$/,
    );
    await page
      .locator("[data-plan] tr", { hasText: `${TENANT}-vcluster` })
      .filter({ hasText: "Release" })
      .waitFor();
    await portalScreen(page, "new-tenant-plan");
    expect(await readOrUndefined(() => tenantResource(TENANT))).toBeUndefined();
    await expectNothingLeft(TENANT);
  });

  it("Create: the tenant page shows Pending, then Provisioning and Ready as they happen", async () => {
    const page = pageOf(alice);
    createdAt = Date.now();
    await page.getByRole("button", { name: "Create tenant" }).click();
    await page.waitForURL(`${served.url}${PORTAL_PATHS.tenant(TENANT)}`);
    await phaseShows(page, "Pending|Provisioning", 60_000);
    await portalScreen(page, "tenant-pending");
    let navigations = 0;
    page.on("framenavigated", (frame) => void (frame === page.mainFrame() && navigations++));

    await phaseShows(page, "Ready", READY_TIMEOUT_MS);
    const shown = await phasesShown(page);
    expect(shown.map((s) => s.phase)).toEqual(["Pending", "Provisioning", "Ready"]);
    const seconds = (shown[2].at - createdAt) / 1000;

    // The host quota, used against the ceiling as the ResourceQuota says, follows without a reload.
    await page.locator("[data-quota-table]").waitFor({ state: "visible", timeout: 60_000 });
    expect(await page.locator("[data-quota-none]").isHidden()).toBe(true);
    const { stdout } = await kubectl(
      "get",
      "resourcequota",
      RESOURCE_QUOTA_NAME,
      "-n",
      tenantNamespace(TENANT),
      "-o",
      "json",
    );
    const quota = JSON.parse(stdout).status as { hard: Record<string, string>; used: Record<string, string> };
    for (const [column, values] of [
      ["hard", quota.hard],
      ["used", quota.used],
    ] as const)
      for (const resource of ["limits.cpu", "limits.memory"])
        await page
          .locator(`[data-quota-${column}="${resource}"]`)
          .filter({ hasText: new RegExp(`^${values[resource]}$`) })
          .waitFor({ timeout: 60_000 });
    // Not exposed: the page says so, and how to connect through a port-forward.
    await page.locator('span[data-show-reach="inCluster"]', { hasText: "none: not exposed" }).waitFor();
    const portForward = `kubectl port-forward -n ${tenantNamespace(TENANT)} svc/${TENANT} 8443:443`;
    await page.locator("pre > code", { hasText: new RegExp(`^${portForward}$`) }).waitFor();
    expect(navigations, "the page was not reloaded: its script followed the status and the quota").toBe(0);
    await portalScreen(page, "tenant-ready");
    const line = `portal: Create to Ready ${seconds.toFixed(1)} s`;
    console.log(line);
    writeFileSync(path.join(ARTIFACTS_DIR, "portal", "create-to-ready.txt"), `${line}\n`);
    expect(await page.locator('[data-field="reason"]').first().textContent()).toBe("Provisioned");
  });

  it("the list shows the tenant Ready with its API URL, creation time and owner", async () => {
    const page = pageOf(alice);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tenants" }).click();
    await page.waitForURL(`${served.url}${PORTAL_PATHS.list}`);
    const row = page.getByRole("row", { name: new RegExp(TENANT) });
    const cells = (await row.locator("th, td").allTextContents()).map((text) => text.trim());
    expect(cells).toEqual([
      TENANT,
      "Ready",
      `https://${TENANT}.${tenantNamespace(TENANT)}.svc:443`,
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
      ALICE.email,
    ]);
    await portalScreen(page, "alice-tenant-list-ready");
  });

  it("the kubeconfig downloaded from the tenant page opens its virtual cluster with kubectl", async () => {
    const page = pageOf(alice);
    await page.getByRole("link", { name: TENANT, exact: true }).click();
    await page.waitForURL(`${served.url}${PORTAL_PATHS.tenant(TENANT)}`);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download kubeconfig" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${TENANT}-kubeconfig.yaml`);
    const kubeconfig = readFileSync((await download.path())!, "utf8");
    await screenshot(page, "kubeconfig-downloaded");

    // Its awake time, from the engine's history of its stack: up since its create started (not
    // before the click, not after this moment), today's bar the last of 30; axe-core passes the chart.
    const awake = page.locator('[data-field="awake-hours"]');
    const seconds = Number(await awake.getAttribute("data-seconds"));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual((Date.now() - createdAt) / 1000 + 1);
    const bars = await page.locator(".awake-chart rect title").allTextContents();
    expect(bars).toHaveLength(30);
    expect(bars.at(-1)).toMatch(new RegExp(`^${new Date().toISOString().slice(0, 10)}: [\\d.]+ h awake$`));
    const hours = Number(await awake.textContent());
    const barHours = bars.reduce((sum, title) => sum + Number(/: ([\d.]+) h/.exec(title)![1]), 0);
    expect(Math.abs(hours - barHours)).toBeLessThanOrEqual(0.1);
    await portalScreen(page, "tenant-awake-time");

    // The API URL does not resolve on the test bed: kubectl reaches the control plane's loopback
    // port, TLS still checking the name the kubeconfig carries; nothing else of the file changes.
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-portal-")), "kubeconfig");
    writeFileSync(file, forwardedKubeconfig(kubeconfig, TENANT).exportConfig(), { mode: 0o600 });
    const { stdout } = await run("kubectl", ["--kubeconfig", file, "get", "ns", "-o", "name"], { encoding: "utf8" });
    const namespaces = stdout.trim().split("\n");
    expect(namespaces).toEqual(expect.arrayContaining(["namespace/default", "namespace/kube-system"]));
    expect(namespaces).not.toContain(`namespace/${tenantNamespace(TENANT)}`);
  });

  it("bob, signed in beside her, does not see alice's tenant by any route", async () => {
    bob = await signIn(browser, served.url, BOB, "bob-at-dex");
    const page = pageOf(bob);
    expect(await page.locator("main").textContent()).not.toContain(TENANT);
    await portalScreen(page, "bob-tenant-list");

    const answer = await page.goto(`${served.url}${PORTAL_PATHS.tenant(TENANT)}`);
    expect(answer?.status()).toBe(404);
    await portalScreen(page, "bob-tenant-not-found");
    // His own session's CSRF token, so that the delete form is refused for the tenant, not the token.
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const refusals = {
      kubeconfig: await bob.request.get(`${served.url}${PORTAL_PATHS.kubeconfig(TENANT)}`),
      "delete page": await bob.request.get(`${served.url}${PORTAL_PATHS.delete(TENANT)}`),
      delete: await bob.request.post(`${served.url}${PORTAL_PATHS.delete(TENANT)}`, {
        form: { _csrf: csrf, confirm: TENANT },
        maxRedirects: 0,
      }),
      "API tenant": await bob.request.get(`${served.url}${API_PATHS.tenant(TENANT)}`),
      "API kubeconfig": await bob.request.get(`${served.url}${API_PATHS.tenantKubeconfig(TENANT)}`),
      "API events": await bob.request.get(`${served.url}${API_PATHS.tenantEvents(TENANT)}`, { timeout: 30_000 }),
    };
    expect(Object.fromEntries(Object.entries(refusals).map(([route, r]) => [route, r.status()]))).toEqual({
      kubeconfig: 404,
      "delete page": 404,
      delete: 404,
      "API tenant": 404,
      "API kubeconfig": 404,
      "API events": 404,
    });
    for (const refusal of Object.values(refusals)) expect(await refusal.text()).not.toContain("apiVersion: v1");
    expect((await tenantResource(TENANT)).metadata.deletionTimestamp).toBeUndefined();
  });

  it("an admin opens Platform revisions from the navigation, and a revision's page shows what it would do to alice's tenant", async () => {
    // Helm may take longer: the vCluster's release changes, whatever the tenant asked for.
    const file = platformRevisionFile("portal-fleet", { helmTimeoutSeconds: 1200 });
    const admin = await signIn(browser, served.url, dexPerson("admin@example.com"), "admin-at-dex");
    try {
      await kubectl("apply", "-f", file);
      await kubectl(
        "wait",
        "--for=jsonpath={.status.phase}=Previewed",
        "platformrevision/portal-fleet",
        "--timeout=300s",
      );
      const page = pageOf(admin);
      await page.getByRole("link", { name: "Platform revisions" }).click();
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Platform revisions");
      await portalScreen(page, "admin-revision-list");
      await page.getByRole("link", { name: "portal-fleet" }).click();
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
        "Platform revision portal-fleet",
      );
      const shown = await page.locator("main").textContent();
      expect(shown).toContain("Previewed");
      expect(shown).toContain(TENANT);
      // Its release's timeout among what changes.
      expect(shown).toMatch(
        /Generation 1 of its request would see: 0 to create, \d+ to update, 0 to replace, 0 to delete/,
      );
      expect(shown).toContain("Changed fields: kubernetes:helm.sh/v3:Release timeout");
      await portalScreen(page, "admin-revision-page");
      // Alice, no admin, is refused the same page.
      const refused = await alice.request.get(`${served.url}${PORTAL_PATHS.revision("portal-fleet")}`);
      expect(refused.status()).toBe(403);
    } finally {
      await admin.close();
      await kubectl("delete", "-f", file, "--ignore-not-found", "--wait=true");
    }
  });

  it("alice deletes it by typing its name, after its page showed what the delete removes: Deleting, then gone, nothing left", async () => {
    const page = pageOf(alice);
    await page.goto(`${served.url}${PORTAL_PATHS.tenant(TENANT)}`);
    await page.getByRole("link", { name: "Delete tenant…" }).click();
    await page.waitForURL(`${served.url}${PORTAL_PATHS.delete(TENANT)}`);
    expect(await page.locator("[data-plan-summary]").textContent()).toMatch(
      /^0 to create, 0 to update, 0 to replace, [1-9]\d* to delete$/,
    );
    await page
      .locator("[data-plan] tr", { hasText: `${TENANT}-vcluster` })
      .filter({ hasText: "delete" })
      .waitFor();
    await portalScreen(page, "delete-plan");
    expect((await tenantResource(TENANT)).metadata.deletionTimestamp).toBeUndefined();
    const confirm = page.getByLabel(`Type the tenant's name, ${TENANT}, to confirm`);
    await confirm.fill(`${TENANT}-typo`);
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Delete tenant" }).click(),
    ]);
    expect(refused.status()).toBe(422);
    await page.locator(".error-summary").waitFor();
    expect(await page.locator(".error-summary").textContent()).toContain("nothing was deleted");
    await portalScreen(page, "delete-refused");
    expect((await tenantResource(TENANT)).metadata.deletionTimestamp).toBeUndefined();

    await confirm.fill(TENANT);
    await portalScreen(page, "delete-confirmation");
    await page.getByRole("button", { name: "Delete tenant" }).click();
    await page.waitForURL(`${served.url}${PORTAL_PATHS.tenant(TENANT)}`);
    await phaseShows(page, "Deleting", 120_000);
    await portalScreen(page, "tenant-deleting");
    await phaseShows(page, "Deleted", GONE_TIMEOUT_MS);
    await page.getByText("This tenant is gone").waitFor();
    await portalScreen(page, "tenant-gone");
    const shown = (await phasesShown(page)).map((s) => s.phase);
    expect(shown.slice(shown.indexOf("Deleting"))).toEqual(["Deleting", "Deleted"]);

    expect(await readOrUndefined(() => tenantResource(TENANT))).toBeUndefined();
    await expectNothingLeft(TENANT);
  });
});

/** The Tenant resource `name` as the test bed's admin reads it; rejects with code 404 once it is gone. */
async function tenantResource(name: string): Promise<{ metadata: { deletionTimestamp?: string } }> {
  try {
    const { stdout } = await kubectl("get", "tenant", name, "-o", "json");
    return JSON.parse(stdout);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? "";
    if (stderr.includes("NotFound")) throw Object.assign(new Error(stderr), { code: 404 });
    throw error;
  }
}
