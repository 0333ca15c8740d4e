/** The portal's `html` template: every interpolated value escaped, HTML made by it kept. */
import { describe, expect, it } from "vitest";
import { escapeHtml, html } from "../../provider/server/portal/html";

describe("html", () => {
  it("escapes every character that could end a text or a quoted attribute", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;",
    );
  });

  it("escapes interpolated text and numbers, and keeps the template's own markup", () => {
    const name = `"><script>alert(1)</script>`;
    expect(html`<p title="${name}">${name} ${42}</p>`.toString()).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; 42</p>',
    );
  });

  it("puts HTML made by html in as it is, joins lists, and leaves out undefined, null and false", () => {
    const items = ["a<b", "c"].map((text) => html`<li>${text}</li>`);
    // prettier-ignore
    const list = html`<ul>${items}</ul>${undefined}${null}${false}`;
    expect(list.toString()).toBe("<ul><li>a&lt;b</li><li>c</li></ul>");
  });

  it("escapes an object that only looks like HTML made by html", () => {
    const forged = { markup: "<b>", toString: () => "<b>" } as unknown as ReturnType<typeof html>;
    expect(html`${forged}`.toString()).toBe("&lt;b&gt;");
  });
});
