/**
 * `kubespaces server` with its API and portal, as the portal and server-mode end-to-end tests and
 * the API benchmark run it on the test bed: the built binary on a free loopback port, signing
 * people in at the local Dex it starts (its static users, provider/server/auth/localDexConfig.ts), and
 * the command's device-flow login completed in the test's browser as the person would. Waits are
 * on what the processes print, never on time.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { stringify } from "yaml";
import { LOCAL_DEX_USERS } from "../../../provider/server/auth/localDexConfig";
import { approveDevice } from "./browser";
import { startKubespaces, type CliUser, type Finished, type Running } from "./kubespacesCli";

/** A person of the local Dex: the email they sign in with (their owner name) and their password. */
export interface DexPerson {
  readonly email: string;
  readonly password: string;
}

/** The local Dex's static user `email`, with the password it publishes. */
export function dexPerson(email: string): DexPerson {
  const user = LOCAL_DEX_USERS.find((u) => u.email === email);
  if (!user) throw new Error(`the local Dex has no user ${email}: see provider/server/auth/localDexConfig.ts`);
  return { email: user.email, password: user.password };
}

/** A running server and the addresses of its API and portal, and of its metrics. */
export interface ServedKubespaces {
  /** The server process. */
  readonly running: Running;
  /** Where its API and portal answer, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  /** Where its metrics answer, on their own listener, e.g. `http://127.0.0.1:41235/metrics`; none with `metrics: false`. */
  readonly metricsUrl?: string;
}

/** What a replica prints when it serves its metrics: their URL. */
export const METRICS_AT = /metrics at (http:\/\/[^\s"]+)/;

/** Writes `config` as a server configuration file and returns its path. */
function configFile(config: object): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-server-config-")), "server.yaml");
  writeFileSync(file, stringify(config));
  return file;
}

/**
 * Starts `kubespaces server --id ID` for `user` with `config`, its API and portal and its metrics
 * each on a free loopback port (several run at once); resolves once it serves its API and portal
 * and reconciles its share of the Tenants.
 */
export async function startServedKubespaces(user: CliUser, id: string, config: object = {}): Promise<ServedKubespaces> {
  const args = ["server", "--id", id, "--config", configFile(config), ...FREE_PORTS];
  const running = startKubespaces(user, args);
  const served = /API and portal at (http:\/\/\S+?)\/? \(listening/;
  await running.printed(served);
  await running.printed(replicaReconciles(id));
  // The metrics listen before the API does: their line is printed by now, if they are on.
  return { running, url: served.exec(running.stderr)![1], metricsUrl: METRICS_AT.exec(running.stderr)?.[1] };
}

/** The API and portal, and the metrics, each on a free loopback port. */
const FREE_PORTS = ["--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0"];

/** What replica `id` prints once it reconciles its share of the Tenants. */
export const replicaReconciles = (id: string) => new RegExp(`replica ${id} reconciles its share`);

/** Stops the server (SIGTERM: it removes its Lease and stops its Dex) and waits until it has exited. */
export async function stopServedKubespaces(served: ServedKubespaces | undefined): Promise<void> {
  if (!served || served.running.child.exitCode !== null || served.running.child.signalCode !== null) return;
  served.running.child.kill("SIGTERM");
  await served.running.finished;
}

/** `user`'s environment without a display, so that the command prints the sign-in page and opens no browser. */
function withoutDisplay(user: CliUser): CliUser {
  const env = { ...user.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  return { ...user, env };
}

/**
 * `kubespaces login --server URL` as `person`: the command started as a process prints the
 * verification page on stderr, the person approves it at Dex in `browser`, and the command ends.
 */
export async function loginThroughDevice(
  browser: Browser,
  user: CliUser,
  url: string,
  person: DexPerson,
): Promise<Finished> {
  const login = startKubespaces(withoutDisplay(user), ["login", "--server", url]);
  const page = /open\n\s+(\S+)\n/;
  await login.printed(page);
  await approveDevice(browser, page.exec(login.stderr)![1], person.email, person.password);
  return login.finished;
}

/** The ID token the command kept at its login (`<home>/sign-in.json`): what it sends as its bearer token. */
export function keptIdToken(user: CliUser): string {
  const signIn = JSON.parse(readFileSync(path.join(user.home, "sign-in.json"), "utf8")) as { idToken: string };
  return signIn.idToken;
}

/** An answer of the API: its status and its body (JSON when it is JSON, else the text). */
export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** Calls the server's API at `route` with `token` as the bearer token (none: no Authorization header). */
export async function callApi(
  url: string,
  token: string | undefined,
  method: string,
  route: string,
  body?: object,
): Promise<ApiAnswer> {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: {
      accept: "application/json",
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { "content-type": "application/json" }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const json = (response.headers.get("content-type") ?? "").includes("json");
  return { status: response.status, body: json && text ? JSON.parse(text) : text };
}
