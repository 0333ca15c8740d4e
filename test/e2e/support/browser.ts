/**
 * A real browser for the end-to-end tests: Debian's headless Chromium (installed by
 * `test/testbed/testbed.sh build`) driven by playwright-core, pinned to the release built for it.
 * Also axe-core on a page, screenshots kept as test artifacts, and the sign-in at the local Dex
 * (its password form and its device page, web/templates/password.html and device.html of Dex).
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { AxeResults, Result } from "axe-core";
import { chromium, type Browser, type Page } from "playwright-core";
import { REPO_ROOT } from "./testbed";

/** The Chromium the tests drive: KUBESPACES_CHROMIUM, or Debian's chromium-headless-shell. */
export const CHROMIUM = process.env.KUBESPACES_CHROMIUM ?? "/usr/bin/chromium-headless-shell";

/** Where screenshots go (gitignored): `<suite>/NN-<step>.png`. */
export const ARTIFACTS_DIR = path.join(REPO_ROOT, "test/e2e/artifacts");

// axe-core is injected as its script: @axe-core/playwright needs Node 22.
const AXE_SCRIPT = path.join(REPO_ROOT, "node_modules/axe-core/axe.min.js");

/** Launches headless Chromium; close it when done. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no Chromium at ${CHROMIUM}: run test/testbed/testbed.sh build (as root it installs Debian's chromium-headless-shell with apt-get), or set KUBESPACES_CHROMIUM to a Chromium 156`,
    );
  return chromium.launch({ executablePath: CHROMIUM, headless: true });
}

/** The accessibility violations axe-core finds on the page as it is now. */
export async function axeViolations(page: Page): Promise<Result[]> {
  // Evaluated, not added as a <script>: the portal's Content-Security-Policy (scripts from the
  // server only) refuses an inline script tag, and stays in force for the page's own script.
  await page.evaluate(`${readFileSync(AXE_SCRIPT, "utf8")}\n;undefined`);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(options: object): Promise<AxeResults> } }).axe;
    return (await axe.run({ resultTypes: ["violations"] })).violations;
  });
}

/** One line per violation (rule, impact, help, the elements), for a test's failure message. */
export const describeViolations = (violations: readonly Result[]): string[] =>
  violations.map(
    (v) => `${v.id} (${v.impact ?? "no impact"}): ${v.help}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );

/** Screenshots taken so far in this process, per suite: the next one's number. */
const taken = new Map<string, number>();

/**
 * Saves a full-page screenshot as `test/e2e/artifacts/<suite>/NN-<step>.png`, numbered in the
 * order taken in this process (the suite's folder is emptied at its first), and returns its path.
 */
export async function screenshot(page: Page, step: string, suite = "portal"): Promise<string> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(step))
    throw new Error(`screenshot step "${step}" must be lowercase words joined by "-"`);
  const dir = path.join(ARTIFACTS_DIR, suite);
  const count = taken.get(suite) ?? 0;
  if (count === 0) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  taken.set(suite, count + 1);
  const file = path.join(dir, `${String(count + 1).padStart(2, "0")}-${step}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Signs in on Dex's password form, which the page shows or is on its way to, and waits until Dex
 * has sent the browser on; throws when Dex refuses the password.
 */
export async function signInAtDex(page: Page, email: string, password: string): Promise<void> {
  await page.locator("#login").waitFor();
  const form = page.url();
  await page.locator("#login").fill(email);
  await page.locator("#password").fill(password);
  await page.locator("#submit-login").click();
  const outcome = await Promise.race([
    page.waitForURL((url) => !url.pathname.endsWith("/auth/local/login")).then(() => "on" as const),
    page
      .locator("#login-error")
      .waitFor()
      .then(() => "refused" as const),
  ]);
  if (outcome === "refused") throw new Error(`Dex refused the password of ${email} (at ${new URL(form).pathname})`);
}

/**
 * Completes a device-flow login as a person would: opens `verificationUriComplete` in a fresh
 * browser context (Dex's device page, the user code filled in), submits it, signs in, and checks
 * that Dex says the login succeeded.
 */
export async function approveDevice(
  browser: Browser,
  verificationUriComplete: string,
  email: string,
  password: string,
): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(verificationUriComplete);
    await page.locator("#submit-login").click();
    await signInAtDex(page, email, password);
    const heading = (await page.locator("h2").first().textContent())?.trim() ?? "";
    if (!heading.startsWith("Login Successful"))
      throw new Error(`Dex did not approve the device for ${email}: its page says "${heading}"`);
  } finally {
    await context.close();
  }
}
