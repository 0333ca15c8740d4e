/**
 * `kubespaces login --server URL`: signs in to a kubespaces server with the device flow (the code
 * and its page on stderr, the browser opened where there is one), checks that the server accepts
 * the sign-in, keeps it, and records the server, so that every tenant command goes through it.
 * `kubespaces login` with no flags, in server mode, shows the server and the kept sign-in.
 */
import { decodeJwt } from "jose";
import { API_PATHS, type WhoAmI } from "../../contracts/tenantsApi";
import { openableUrl } from "../browserOpen";
import type { CommandEnv } from "../commandEnv";
import { readLoginSettings, writeLoginSettings } from "../loginSettings";
import { ServerApi } from "./serverApi";
import { signInWithDeviceFlow, type DeviceCodePrompt } from "./serverSignIn";
import { kubespacesServerUrl } from "./serverUrls";
import { readSignIn, writeSignIn } from "./signInTokens";
import { shownLine } from "../../util/terminalText";

/**
 * Signs in to the server `value` names and records it (on top of the recorded local settings,
 * unless `reset`); returns what to show.
 */
export async function signInToServer(env: CommandEnv, value: string, reset: boolean): Promise<Record<string, string>> {
  const server = kubespacesServerUrl(value);
  const signIn = await signInWithDeviceFlow(server, { onCode: (prompt) => showCode(env, server, prompt) });
  // The server is asked who the sign-in is before anything is kept: one it refuses is not recorded.
  const you = await new ServerApi(server, async () => signIn.idToken).json<WhoAmI>("GET", API_PATHS.whoAmI);
  writeSignIn(signIn);
  writeLoginSettings({ ...(reset ? {} : readLoginSettings()), server });
  env.stderr.write(`signed in to ${server}; every tenant command now goes through it\n`);
  return { server, user: you.owner, admin: you.isAdmin ? "yes" : "no", groups: you.groups.join(",") || "-" };
}

/** What to show of the recorded server and the kept sign-in, without asking the server. */
export function serverLoginShown(server: string): Record<string, string> {
  const signIn = readSignIn();
  const kept = signIn?.server === server ? signIn : undefined;
  if (!kept) return { server, "sign-in": `none: run \`kubespaces login --server ${server}\`` };
  const claims = decodeJwt(kept.idToken);
  const expires = new Date(kept.idTokenExpiresAt * 1000).toISOString();
  const state =
    kept.idTokenExpiresAt * 1000 > Date.now()
      ? `valid until ${expires}`
      : kept.refreshToken
        ? `expired at ${expires}; renewed at the next command`
        : `expired at ${expires}: run \`kubespaces login --server ${server}\``;
  return { server, user: String(claims.email ?? claims.sub ?? "-"), "sign-in": state };
}

/**
 * Tells the person where to confirm the code, and opens that page where a browser can be shown.
 * The page and the code are the identity provider's words, and the server chose the provider: they
 * are shown with their control characters visible, and a page that is not an https URL (openableUrl)
 * is never opened, only shown with a warning, for the person to judge.
 */
function showCode(env: CommandEnv, server: string, prompt: DeviceCodePrompt): void {
  const given = prompt.verificationUriComplete ?? prompt.verificationUri;
  const openable = openableUrl(given);
  const page = "url" in openable ? openable.url : given;
  const minutes = Math.max(1, Math.round(prompt.expiresInSeconds / 60));
  if ("refused" in openable)
    env.stderr.write(
      `kubespaces: warning: the identity provider's sign-in page is not opened, because ${openable.refused}; open it by hand only if you trust it\n`,
    );
  env.stderr.write(
    `To sign in to ${server}, open\n  ${shownLine(page)}\n${prompt.verificationUriComplete ? "and check that it shows" : "and enter"} the code ${shownLine(prompt.userCode)} (valid for ${minutes} min). Waiting for the sign-in...\n`,
  );
  if ("url" in openable) env.openBrowser?.(openable.url);
}
