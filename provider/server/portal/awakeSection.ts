/**
 * The tenant page's awake time: the hours its control plane ran over the last 30 days, read from
 * its history (tenants/awakeTime.ts), and a small chart of each day's hours. A day's bar is as high
 * as its share of 24 hours, so a tenant that sleeps at night shows short bars at a glance.
 */
import { AWAKE_WINDOW_DAYS, type AwakeTime } from "../../tenants/awakeTime";
import { html, type Html } from "./html";

/** The chart's size in CSS pixels: one bar and one gap per day, and the tallest bar's height. */
const BAR_WIDTH = 8;
const BAR_GAP = 2;
const CHART_HEIGHT = 48;

/** One day's bar, with its date and hours as the bar's title (a pointer's tooltip, a screen reader's name). */
function bar(day: AwakeTime["days"][number], index: number): Html {
  const height = Math.max(day.hours > 0 ? 1 : 0, Math.round((day.hours / 24) * CHART_HEIGHT));
  return html`<rect
    class="awake-bar"
    x="${String(index * (BAR_WIDTH + BAR_GAP))}"
    y="${String(CHART_HEIGHT - height)}"
    width="${String(BAR_WIDTH)}"
    height="${String(height)}"
    ><title>${day.date}: ${String(day.hours)} h awake</title></rect
  >`;
}

/** The section. */
export function awakeSection(awake: AwakeTime): Html {
  const width = awake.days.length * (BAR_WIDTH + BAR_GAP) - BAR_GAP;
  const first = awake.days[0]?.date ?? "";
  const last = awake.days[awake.days.length - 1]?.date ?? "";
  return html`<section aria-labelledby="awake-title">
    <h2 id="awake-title">Awake time</h2>
    <p>
      Awake <span data-field="awake-hours" data-seconds="${String(awake.seconds)}">${String(awake.hours)}</span> hours
      in the last ${String(AWAKE_WINDOW_DAYS)} days, counted from the tenant's updates: from the start of each that
      brought it up to the end of each that put it to sleep or tore it down. Its quota is held while it is awake.
    </p>
    <svg
      class="awake-chart"
      role="img"
      aria-label="Hours awake each day from ${first} to ${last}"
      width="${String(width)}"
      height="${String(CHART_HEIGHT)}"
      viewBox="0 0 ${String(width)} ${String(CHART_HEIGHT)}"
    >
      ${awake.days.map(bar)}
    </svg>
  </section>`;
}
