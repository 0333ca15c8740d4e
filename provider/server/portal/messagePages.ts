/**
 * The portal's pages that only say something: a tenant that is not there (the same page whether
 * it does not exist or belongs to someone else, so the portal never tells who owns what), a
 * refusal or a failure, and "sign in again".
 */
import { html } from "./html";
import { page, type PageFrame } from "./layout";
import { PORTAL_PATHS, signInPath } from "./portalPaths";

/** The frame of a message page: who is signed in, if anyone. */
export type MessageFrame = Omit<PageFrame, "title" | "current" | "script">;

/** Tenant `name` is not one the person may see. */
export function notFoundPage(frame: MessageFrame, name: string): string {
  return page(
    { ...frame, title: "Tenant not found" },
    html`<h1>Tenant not found</h1>
      <p>There is no tenant ${name} that you can see. It may have been deleted, or the address may be mistyped.</p>
      <p><a href="${PORTAL_PATHS.list}">Back to the tenants</a></p>`,
  );
}

/** A page that says what was refused or went wrong, and what to do. */
export function messagePage(frame: MessageFrame, title: string, message: string): string {
  return page(
    { ...frame, title },
    html`<h1>${title}</h1>
      <p>${message}</p>
      <p><a href="${PORTAL_PATHS.list}">Back to the tenants</a></p>`,
  );
}

/** A sign-in that was refused or expired: why, and a new one. */
export function signInRefusedPage(why: string): string {
  return page(
    { title: "Sign-in refused" },
    html`<h1>Sign-in refused</h1>
      <p>${why}</p>
      <p><a class="button" href="${signInPath(PORTAL_PATHS.list)}">Sign in again</a></p>`,
  );
}

/** A form came from someone who is not signed in (any more). */
export function signInAgainPage(returnTo: string): string {
  return page(
    { title: "Sign in again" },
    html`<h1>Sign in again</h1>
      <p>You are not signed in (any more), so nothing was changed. Sign in, then send the form again.</p>
      <p><a class="button" href="${signInPath(returnTo)}">Sign in</a></p>`,
  );
}
