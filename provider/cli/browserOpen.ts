/**
 * Opening a URL in the person's browser, where there is one to open: on Linux with a display
 * (`xdg-open`), on macOS outside an SSH session (`open`). Anywhere else, and whenever the opener is
 * missing or fails, nothing happens: the URL is printed anyway, so sign-in never depends on it.
 */
import { spawn } from "node:child_process";

/** The opener for this machine, or undefined when no browser can be shown here. */
function opener(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  if (platform === "linux") return env.DISPLAY || env.WAYLAND_DISPLAY ? "xdg-open" : undefined;
  if (platform === "darwin") return env.SSH_CONNECTION || env.SSH_TTY ? undefined : "open";
  return undefined;
}

/** Opens `url` in a browser when this machine has one to show; returns whether it tried. */
export function openBrowser(url: string, env = process.env, platform = process.platform): boolean {
  const command = opener(env, platform);
  if (!command) return false;
  try {
    const child = spawn(command, [url], { detached: true, stdio: "ignore" });
    child.on("error", () => {}); // no opener installed: the printed URL is enough
    child.unref();
    return true;
  } catch {
    return false;
  }
}
