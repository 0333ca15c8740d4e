/**
 * Opening a URL in the person's browser, where there is one to open: on Linux with a display
 * (`xdg-open`), on macOS outside an SSH session (`open`). Anywhere else, and whenever the opener is
 * missing or fails, nothing happens: the URL is printed anyway, so sign-in never depends on it.
 *
 * The URL comes from elsewhere (the identity provider a server names chooses the sign-in page), and
 * an opener acts on any scheme it knows (`file:`, `smb:`, a desktop's custom handlers) and on
 * options. So only a web page is opened (openableUrl); anything else is for the person to judge.
 */
import { spawn } from "node:child_process";
import { isLoopbackHttp } from "../util/loopbackUrl";

/** A URL the command may open, as it will be opened, or why it may not. */
export type OpenableUrl = { readonly url: string } | { readonly refused: string };

/** The characters a URL to open must not hold: C0 controls, DEL and C1 controls (the parser would drop or encode them silently). */
// eslint-disable-next-line no-control-regex -- these are the characters to find
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Whether `value` may be opened: an https URL, or http on this machine's loopback (the local Dex),
 * with no control characters, parsed by the WHATWG URL parser. What is opened is the URL the
 * parser serializes, so it starts with its scheme and can never be read as an option.
 */
export function openableUrl(value: string): OpenableUrl {
  if (CONTROLS.test(value)) return { refused: "it holds control characters" };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { refused: "it is not a URL" };
  }
  if (url.protocol === "https:" || isLoopbackHttp(url)) return { url: url.href };
  if (url.protocol === "http:") return { refused: "it is plain http to a host that is not this machine" };
  return { refused: `only https pages are opened, and it is a ${url.protocol} URL` };
}

/** The opener for this machine, or undefined when no browser can be shown here. */
function opener(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  if (platform === "linux") return env.DISPLAY || env.WAYLAND_DISPLAY ? "xdg-open" : undefined;
  if (platform === "darwin") return env.SSH_CONNECTION || env.SSH_TTY ? undefined : "open";
  return undefined;
}

/**
 * Opens `url` in a browser when it is openable (openableUrl) and this machine has a browser to
 * show; returns whether it tried. The URL goes as the opener's only argument, not after `--`:
 * xdg-open refuses `--` as an unknown option, and a serialized URL never starts with `-`.
 */
export function openBrowser(url: string, env = process.env, platform = process.platform): boolean {
  const openable = openableUrl(url);
  const command = opener(env, platform);
  if (!("url" in openable) || !command) return false;
  try {
    const child = spawn(command, [openable.url], { detached: true, stdio: "ignore" });
    child.on("error", () => {}); // no opener installed: the printed URL is enough
    child.unref();
    return true;
  } catch {
    return false;
  }
}
