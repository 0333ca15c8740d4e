/**
 * The frame of every portal page: the document's language and title, the stylesheet (and, on
 * pages that ask for it, the script) from the portal's own routes, a skip link, the site's
 * navigation with the signed-in person and a Sign out form, and the page's `<main>`.
 */
import type { Actor } from "../../tenants/ports";
import { csrfField } from "./formParts";
import { html, type Html } from "./html";
import { PORTAL_PATHS } from "./portalPaths";

/** The site's name, last in every title. */
const SITE = "KubeSpaces";

/** Which navigation entry a page is, for `aria-current`. */
export type NavEntry = "list" | "newTenant" | "revisions";

/** What the frame of one page shows. */
export interface PageFrame {
  /** The page's title, before the site's name; also its `<h1>` unless the body brings its own. */
  readonly title: string;
  /** The signed-in person; none on pages for people who are not signed in. */
  readonly actor?: Actor;
  /** The CSRF token, for the Sign out form (needed with `actor`). */
  readonly csrfToken?: string;
  /** The navigation entry this page is, if any. */
  readonly current?: NavEntry;
  /** Whether the page loads the portal's script (live status). */
  readonly script?: boolean;
}

function navLink(href: string, text: string, entry: NavEntry, current: NavEntry | undefined): Html {
  return html`<li><a href="${href}" ${entry === current && html` aria-current="page"`}>${text}</a></li>`;
}

function siteHeader(frame: PageFrame): Html {
  const { actor, csrfToken } = frame;
  return html`<header class="site-header">
    <a class="brand" href="${PORTAL_PATHS.list}">${SITE}</a>
    ${
      actor &&
      html`<nav aria-label="Main">
          <ul>
            ${navLink(PORTAL_PATHS.list, "Tenants", "list", frame.current)}
            ${navLink(PORTAL_PATHS.newTenant, "New tenant", "newTenant", frame.current)}
            ${actor.isAdmin && navLink(PORTAL_PATHS.revisions, "Platform revisions", "revisions", frame.current)}
          </ul>
        </nav>
        <div class="account">
          <span>Signed in as <strong>${actor.owner}</strong>${actor.isAdmin && " (admin)"}</span>
          <form method="post" action="${PORTAL_PATHS.signOut}">
            ${csrfField(csrfToken ?? "")}
            <button type="submit" class="button-secondary">Sign out</button>
          </form>
        </div>`
    }
  </header>`;
}

/** A whole page: the frame around `body`, which is the content of `<main>`. */
export function page(frame: PageFrame, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${frame.title} · ${SITE}</title>
        <link rel="stylesheet" href="${PORTAL_PATHS.stylesheet}" />
        ${frame.script && html`<script type="module" src="${PORTAL_PATHS.script}"></script>`}
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to main content</a>
        ${siteHeader(frame)}
        <main id="main" tabindex="-1">${body}</main>
      </body>
    </html> `.toString();
}
