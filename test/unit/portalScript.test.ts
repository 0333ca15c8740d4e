/**
 * The portal's live-status script (static/portal.js) over the markup the tenant page renders: the
 * page's `data-*` elements become stand-in elements, the script runs in a VM context with a
 * stand-in EventSource, and the test sends it the API's events. A real browser runs it in the
 * end-to-end tier.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { beforeEach, describe, expect, it } from "vitest";
import { API_PATHS, TENANT_EVENTS } from "../../provider/contracts/tenantsApi";
import type { TenantView } from "../../provider/tenantResource/tenantReplies";
import { PORTAL_PATHS } from "../../provider/server/portal/portalPaths";
import { quotaRows, type QuotaRowsBody } from "../../provider/server/portal/quotaTable";
import { portalHarness } from "./support/portalHarness";
import { readyStatus, StandInTenantsForPeople, tenantView } from "./support/standInTenantsForPeople";

const SCRIPT = readFileSync(path.resolve(__dirname, "../../provider/server/portal/static/portal.js"), "utf8");

/** A stand-in for a DOM element: what the script reads and writes. */
interface StandInElement {
  readonly tag: string;
  readonly dataset: Record<string, string>;
  textContent: string;
  hidden: boolean;
}

/** A stand-in EventSource: records its URL and listeners, and whether it was closed. */
class StandInEventSource {
  static opened: StandInEventSource[] = [];
  readonly listeners = new Map<string, (event: { data: string }) => void>();
  closed = false;
  constructor(readonly url: string) {
    StandInEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: { data: string }) => void): void {
    this.listeners.set(type, listener);
  }
  close(): void {
    this.closed = true;
  }
  /** Delivers an event of `type` with `data` as JSON. */
  emit(type: string, data: unknown): void {
    this.listeners.get(type)?.({ data: JSON.stringify(data) });
  }
}

const unescape = (text: string): string =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const camel = (name: string): string => name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The page's elements that carry the script's `data-*` attributes, as stand-ins. */
function elementsOf(page: string): StandInElement[] {
  const tags = page.matchAll(/<([a-z0-9]+)\s([^>]*\bdata-(?:field|show-[a-z-]+|events|quota[a-z-]*)\b[^>]*)>([^<]*)/g);
  return [...tags].map(([, tag, attributes, text]) => {
    const pairs = [...attributes!.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)];
    const dataset = Object.fromEntries(
      pairs
        .filter(([, name]) => name!.startsWith("data-"))
        .map(([, name, value]) => [camel(name!.slice(5)), unescape(value ?? "")]),
    );
    return { tag: tag!, dataset, textContent: unescape(text!), hidden: pairs.some(([, name]) => name === "hidden") };
  });
}

/** What the script asked of the page's quota route, what the route answers, and the script's timer. */
const quotaRoute = {
  /** The URLs asked for, in order. */
  asked: [] as string[],
  /** The answer to the next asks. */
  answer: { rows: null } as QuotaRowsBody,
  /** The interval the script set: its callback and period, and whether it was cleared. */
  interval: undefined as { readonly tick: () => void; readonly ms: number; cleared: boolean } | undefined,
};

/** Whether the page is hidden (a background tab). */
let pageHidden = false;

/** Lets the script's pending promises (its asks of the quota route) settle. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** Runs the script over `elements`, as the browser would once the page loaded. */
function runScript(elements: StandInElement[]): void {
  const has = (element: StandInElement, selector: string) =>
    selector.split(", ").some((one) => camel(one.slice(6, -1)) in element.dataset);
  const document = {
    querySelector: (selector: string) => elements.find((e) => has(e, selector)) ?? null,
    querySelectorAll: (selector: string) => elements.filter((e) => has(e, selector)),
    get hidden() {
      return pageHidden;
    },
  };
  const fetch = async (url: string) => {
    quotaRoute.asked.push(url);
    const body = quotaRoute.answer;
    return { ok: true, json: async () => body };
  };
  const setInterval = (tick: () => void, ms: number) => (quotaRoute.interval = { tick, ms, cleared: false });
  const clearInterval = (timer: { cleared: boolean }) => (timer.cleared = true);
  vm.runInNewContext(SCRIPT, { document, EventSource: StandInEventSource, fetch, setInterval, clearInterval });
}

const field = (elements: StandInElement[], name: string) =>
  elements.filter((e) => e.dataset.field === name).map((e) => e.textContent);
const shownFor = (elements: StandInElement[], phases: string) =>
  elements.filter((e) => e.dataset.showPhases === phases).map((e) => !e.hidden);

const provisioning = tenantView("team-atlas", "alice@example.com", {
  phase: "Provisioning",
  message: "installing the vCluster chart",
  conditions: [{ type: "Ready", status: "Unknown", reason: "Provisioning", message: "installing the vCluster chart" }],
});
const ready: TenantView = { ...provisioning, status: readyStatus("team-atlas") };

let elements: StandInElement[];
let stream: StandInEventSource;

beforeEach(async () => {
  StandInEventSource.opened = [];
  Object.assign(quotaRoute, { asked: [], answer: { rows: null }, interval: undefined });
  pageHidden = false;
  const portal = await portalHarness(new StandInTenantsForPeople().put(provisioning));
  const page = (await portal.get("/tenants/team-atlas", "alice@example.com")).body.replace(/\s+/g, " ");
  elements = elementsOf(page);
  runScript(elements);
  stream = StandInEventSource.opened[0]!;
});

describe("the live-status script", () => {
  it("follows the tenant's event stream, the API's path from the page", () => {
    expect(StandInEventSource.opened.map((s) => s.url)).toEqual([API_PATHS.tenantEvents("team-atlas")]);
  });

  it("shows each change: phase, reason, message, endpoints, and the kubeconfig link once Ready", () => {
    expect(field(elements, "phase")).toEqual(["Provisioning"]);
    expect(shownFor(elements, "Ready Sleeping")).toEqual([false]);

    stream.emit(TENANT_EVENTS.tenant, ready);

    expect(field(elements, "phase")).toEqual(["Ready"]);
    expect(field(elements, "reason")).toEqual(["Provisioned", "Provisioned"]);
    expect(field(elements, "message")).toEqual(Array(2).fill("virtual cluster of tenant team-atlas is ready"));
    expect(field(elements, "since")).toEqual(["2026-12-01 10:07 UTC"]);
    expect(field(elements, "apiServerUrl")).toEqual(["https://team-atlas.example.com:443"]);
    expect(field(elements, "appsDomain")).toEqual(["not yet known"]);
    expect(shownFor(elements, "Ready Sleeping")).toEqual([true]);
    expect(shownFor(elements, "Pending Provisioning Failed AwaitingApproval Previewed")).toEqual([false]);
  });

  it("shows what to do for the reason a tenant failed with, and only that", () => {
    stream.emit(TENANT_EVENTS.tenant, {
      ...provisioning,
      status: {
        phase: "Failed",
        message: "the quota could not be applied",
        conditions: [
          { type: "Ready", status: "False", reason: "QuotaFailed", message: "the quota could not be applied" },
        ],
      },
    });
    const hints = elements.filter((e) => e.dataset.showReasons);
    expect(hints.filter((e) => !e.hidden).map((e) => e.dataset.showReasons)).toEqual(["QuotaFailed"]);
  });

  it("says the tenant is gone when the stream says it was deleted, hides what no longer applies, and stops", () => {
    stream.emit(TENANT_EVENTS.deleted, { name: "team-atlas" });
    expect(field(elements, "phase")).toEqual(["Deleted"]);
    expect(shownFor(elements, "Deleted")).toEqual([true]);
    expect(shownFor(elements, "Pending Provisioning Ready Sleeping Failed AwaitingApproval Previewed")).toEqual([
      false,
      false,
    ]);
    expect(stream.closed).toBe(true);
  });
});

describe("the live way in", () => {
  const shownReach = (reach: string) => elements.filter((e) => e.dataset.showReach === reach).map((e) => !e.hidden);

  it("says how to connect once the tenant turns Ready without exposure, its namespace filled in", () => {
    expect(shownReach("inCluster")).toEqual([false, false]);
    expect(shownReach("unknown exposed")).toEqual([true]);

    stream.emit(TENANT_EVENTS.tenant, ready);
    expect(shownReach("inCluster")).toEqual([true, true]);
    expect(shownReach("unknown exposed")).toEqual([false]);
    expect(new Set(field(elements, "namespace"))).toEqual(new Set(["kubespaces-tenant-team-atlas"]));

    stream.emit(TENANT_EVENTS.tenant, {
      ...ready,
      status: { ...ready.status, appsDomain: "team-atlas.apps.example.com" },
    });
    expect(shownReach("inCluster")).toEqual([false, false]);
    expect(shownReach("exposed")).toEqual([true]);
    expect(field(elements, "appsDomain")).toEqual(["team-atlas.apps.example.com"]);
  });
});

describe("the live host quota", () => {
  const quota = {
    hard: { "requests.cpu": "4", "limits.cpu": "4", "requests.memory": "8Gi", "limits.memory": "8Gi" },
    used: { "requests.cpu": "1", "limits.cpu": "3", "requests.memory": "2Gi", "limits.memory": "4Gi" },
  };
  const cells = (column: "quotaUsed" | "quotaHard" | "quotaShare") =>
    Object.fromEntries(elements.filter((e) => column in e.dataset).map((e) => [e.dataset[column], e.textContent]));
  const shown = (marker: string) => elements.filter((e) => marker in e.dataset).map((e) => !e.hidden);

  it("shows used against the ceiling once the tenant turns Ready, without a reload", async () => {
    expect(shown("quotaNone")).toEqual([true]);
    expect(shown("quotaTable")).toEqual([false]);
    stream.emit(TENANT_EVENTS.tenant, provisioning);
    await settled();
    expect(shown("quotaNone")).toEqual([true]);

    quotaRoute.answer = { rows: quotaRows(quota) };
    stream.emit(TENANT_EVENTS.tenant, ready);
    await settled();

    expect(shown("quotaNone")).toEqual([false]);
    expect(shown("quotaTable")).toEqual([true]);
    expect(cells("quotaUsed")).toEqual({
      "requests.cpu": "1",
      "limits.cpu": "3",
      "requests.memory": "2Gi",
      "limits.memory": "4Gi",
      "requests.storage": "0",
    });
    expect(cells("quotaHard")["limits.cpu"]).toBe("4");
    expect(cells("quotaShare")["limits.cpu"]).toBe("75%");
    expect(cells("quotaHard")["requests.storage"]).toBe("no ceiling");
  });

  it("asks the page's quota route at the first event and at each new phase, and every 10 s while shown", async () => {
    const url = PORTAL_PATHS.quota("team-atlas");
    stream.emit(TENANT_EVENTS.tenant, provisioning);
    stream.emit(TENANT_EVENTS.tenant, provisioning);
    stream.emit(TENANT_EVENTS.tenant, ready);
    expect(quotaRoute.asked).toEqual([url, url]);

    quotaRoute.answer = { rows: quotaRows({ ...quota, used: { ...quota.used, "limits.cpu": "4" } }) };
    expect(quotaRoute.interval?.ms).toBe(10_000);
    quotaRoute.interval!.tick();
    await settled();
    expect(quotaRoute.asked).toEqual([url, url, url]);
    expect(cells("quotaShare")["limits.cpu"]).toBe("100%");

    pageHidden = true;
    quotaRoute.interval!.tick();
    expect(quotaRoute.asked).toHaveLength(3);
  });

  it("stops asking once the tenant is gone", () => {
    stream.emit(TENANT_EVENTS.deleted, { name: "team-atlas" });
    expect(quotaRoute.interval?.cleared).toBe(true);
  });
});
