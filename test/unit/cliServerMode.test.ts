/**
 * The `kubespaces` command in server mode, in-process: `login --server` signs in with the device
 * flow at a stand-in identity provider (the test's "browser" confirms the code), and every tenant
 * command then goes through a stand-in kubespaces server that answers the API as
 * contracts/tenantsApi.ts says. What is asserted is what a user sees (stdout, stderr, the exit
 * code, the same codes as local mode) and what reached the server.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { API_PATHS } from "../../provider/contracts/tenantsApi";
import { openBrowser } from "../../provider/cli/browserOpen";
import type { CommandEnv, OutputStream } from "../../provider/cli/commandEnv";
import { EXIT } from "../../provider/cli/exitCodes";
import { openDoor } from "../../provider/cli/openDoor";
import { runCli } from "../../provider/cli/runCli";
import { StandInIdentityProvider } from "./support/standInIdentityProvider";
import { StandInKubespacesServer } from "./support/standInKubespacesServer";
import { temporaryFolderEach } from "./support/temporaryFolder";

const OWNER = "alice@example.com";

/** A captured stream, not a terminal. */
class Captured implements OutputStream {
  text = "";
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

const home = temporaryFolderEach("kubespaces-server-mode-");
const saved = { home: process.env.KUBESPACES_HOME, kubeconfig: process.env.KUBECONFIG };
let idp: StandInIdentityProvider;
let server: StandInKubespacesServer;

beforeEach(async () => {
  process.env.KUBESPACES_HOME = path.join(home(), "kubespaces");
  process.env.KUBECONFIG = path.join(home(), "kubeconfig");
  idp = await new StandInIdentityProvider().start();
  server = await new StandInKubespacesServer(idp).start();
});
afterEach(async () => {
  await server.stop();
  await idp.stop();
  for (const [name, value] of [
    ["KUBESPACES_HOME", saved.home],
    ["KUBECONFIG", saved.kubeconfig],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

/** What a run of the command showed. */
interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `kubespaces ...args` in-process, with the binary's door and a "browser" that confirms sign-in codes. */
const kubespaces = (...args: string[]): Promise<Run> => kubespacesOpening((url) => void fetch(url), ...args);

/** Runs `kubespaces ...args` in-process, with the binary's door and `openBrowser` as the machine's opener. */
async function kubespacesOpening(openBrowser: (url: string) => void, ...args: string[]): Promise<Run> {
  const stdout = new Captured();
  const stderr = new Captured();
  const env: CommandEnv = { stdout, stderr, door: openDoor, openBrowser };
  const code = await runCli("0.0.0-test", ["node", "kubespaces", ...args], env);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Starts `kubespaces ...args` in-process, with the binary's door; its output can be read while it runs. */
function started(...args: string[]): { stdout: Captured; stderr: Captured; finished: Promise<number> } {
  const stdout = new Captured();
  const stderr = new Captured();
  const env: CommandEnv = { stdout, stderr, door: openDoor };
  return { stdout, stderr, finished: runCli("0.0.0-test", ["node", "kubespaces", ...args], env) };
}

/** The SIGINT listeners added since `before`: a Ctrl-C stand-in calls them, as the process would. */
const addedInterrupts = (before: readonly unknown[]) => process.listeners("SIGINT").filter((l) => !before.includes(l));

const signInFile = () => path.join(process.env.KUBESPACES_HOME!, "sign-in.json");
const settingsFile = () => path.join(process.env.KUBESPACES_HOME!, "settings.json");
const keptSignIn = () => JSON.parse(readFileSync(signInFile(), "utf8")) as Record<string, string | number>;

/** Signs in as alice. */
async function signIn(): Promise<void> {
  const run = await kubespaces("login", "--server", server.url);
  expect(run.code, run.stderr).toBe(0);
}

/** The requests that reached the stand-in, as "METHOD path". */
const requestLines = () => server.seen.map((r) => r.line);

describe("login --server", () => {
  it("signs in with the device flow, keeps the tokens owner-only and never prints them, and records the server", async () => {
    const run = await kubespaces("login", "--server", `${server.url}/`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      new RegExp(
        `To sign in to ${server.url}, open\\n  ${idp.issuer}/device\\?user_code=([A-F0-9-]+)\\nand check that it shows the code \\1 `,
      ),
    );
    expect(run.stdout).toMatch(/^SETTING\s+VALUE\nserver\s+http:\/\/127\.0\.0\.1:\d+\nuser\s+alice@example\.com\n/);
    const kept = keptSignIn();
    expect(Object.keys(kept).sort()).toEqual(
      ["clientId", "idToken", "idTokenExpiresAt", "issuer", "refreshToken", "server"].sort(),
    );
    expect(statSync(signInFile()).mode & 0o777).toBe(0o600);
    for (const token of [kept.idToken, kept.refreshToken]) {
      expect(run.stdout).not.toContain(token);
      expect(run.stderr).not.toContain(token);
    }
    expect(JSON.parse(readFileSync(settingsFile(), "utf8"))).toEqual({ server: server.url });
    expect(idp.grants).toEqual(expect.arrayContaining(["urn:ietf:params:oauth:grant-type:device_code"]));

    const shown = await kubespaces("login");
    expect(shown.stdout).toMatch(/user\s+alice@example\.com\nsign-in\s+valid until \d{4}-/);
  });

  it.each([
    "file:///var/kubespaces/state",
    "s3://tenants-state",
    "gs://tenants-state",
    "azblob://tenants",
    "https://api.pulumi.com",
  ])("refuses %s, a Pulumi state backend, pointing at --backend, and records nothing", async (backend) => {
    const run = await kubespaces("login", "--server", backend);
    expect(run.code).toBe(EXIT.invalid);
    expect(run.stderr).toContain(
      `--server ${backend} is a Pulumi state backend, not a kubespaces server: record a backend with \`kubespaces login --backend ${backend}\``,
    );
    expect(server.seen).toEqual([]);
  });

  it("refuses plain http to a server that is not on this machine", async () => {
    const run = await kubespaces("login", "--server", "http://kubespaces.example.com");
    expect(run.code).toBe(EXIT.invalid);
    expect(run.stderr).toContain("plain http is allowed only for a server on this machine");
  });

  it("refuses an identity provider on plain http that is not on this machine, before any sign-in", async () => {
    server.issuer = "http://dex.example.com/dex";
    const run = await kubespaces("login", "--server", server.url);
    expect(run.code).toBe(EXIT.error);
    expect(run.stderr).toContain(
      "signs in at http://dex.example.com/dex, which is neither https nor on this machine's loopback",
    );
    expect(idp.grants).toEqual([]);
  });

  it("refuses local mode's flags beside --server", async () => {
    const run = await kubespaces("login", "--server", server.url, "--backend", "s3://tenants-state");
    expect(run.code).toBe(EXIT.invalid);
    expect(run.stderr).toContain("--backend belong to local mode; give them without --server");
  });

  it("--backend goes back to local mode and forgets the sign-in; a local setting alone is refused while signed in", async () => {
    await signIn();
    const refused = await kubespaces("login", "--user", "bob@example.com");
    expect(refused.code).toBe(EXIT.invalid);
    expect(refused.stderr).toContain(
      `you are signed in to ${server.url}: switch to local mode with --backend URL or --context NAME`,
    );

    const local = await kubespaces("login", "--backend", `file://${home()}`);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).toContain(`local mode: signed out of ${server.url}`);
    expect(JSON.parse(readFileSync(settingsFile(), "utf8"))).toEqual({ backendUrl: `file://${home()}` });
    expect(() => statSync(signInFile())).toThrow(/ENOENT/);
  });
});

describe("the identity provider's sign-in page", () => {
  it.each([
    ["a file", "file:///etc/passwd", "only https pages are opened, and it is a file: URL"],
    ["a share", "smb://attacker.example.com/share/run.desktop", "only https pages are opened, and it is a smb: URL"],
    [
      "a custom scheme",
      "x-terminal-handler://run?cmd=id",
      "only https pages are opened, and it is a x-terminal-handler: URL",
    ],
    ["script", "javascript:alert(1)", "only https pages are opened, and it is a javascript: URL"],
    ["an option", "--help", "it is not a URL"],
    ["an option and a URL", "-a Terminal https://idp.example.com/device", "it is not a URL"],
    [
      "plain http to another host",
      "http://idp.example.com/device",
      "it is plain http to a host that is not this machine",
    ],
    ["a line break", "https://idp.example.com/device\n--new-window", "it holds control characters"],
    ["an escape", "https://idp.example.com/\x1b]8;;file:///etc\x07device", "it holds control characters"],
    ["a C1 control", "https://idp.example.com/\x9bdevice", "it holds control characters"],
  ])("%s is shown with a warning, never opened, and the sign-in still works", async (_, page, why) => {
    idp.verificationPage = page;
    const opened: string[] = [];
    const run = await kubespacesOpening((url) => opened.push(url), "login", "--server", server.url);
    expect(run.code, run.stderr).toBe(0);
    expect(opened).toEqual([]);
    expect(run.stderr).toContain(
      `kubespaces: warning: the identity provider's sign-in page is not opened, because ${why}; open it by hand only if you trust it\n`,
    );
    // eslint-disable-next-line no-control-regex -- the characters to find
    expect(run.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it("an https page is opened as the URL parser writes it, with no warning", async () => {
    idp.verificationPage = "https://IDP.example.com:443/device?user_code=AB CD";
    const opened: string[] = [];
    const run = await kubespacesOpening((url) => opened.push(url), "login", "--server", server.url);
    expect(run.code, run.stderr).toBe(0);
    expect(opened).toEqual(["https://idp.example.com/device?user_code=AB%20CD"]);
    expect(run.stderr).toContain("open\n  https://idp.example.com/device?user_code=AB%20CD\n");
    expect(run.stderr).not.toContain("warning");
  });

  it("the machine's opener itself never starts for a page the check refuses", () => {
    for (const page of ["file:///etc/passwd", "--help", "http://idp.example.com/device"])
      expect(openBrowser(page, { DISPLAY: ":0" }, "linux")).toBe(false);
  });
});

describe("tenant commands through the server", () => {
  beforeEach(signIn);

  it("create posts the request without an owner and follows it Pending -> Provisioning -> Ready", async () => {
    const run = await kubespaces("tenant", "create", "team-atlas", "--cpu", "8", "--memory", "16Gi");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /team-atlas: Pending\n[\s\S]*team-atlas: Pending -> Provisioning\n[\s\S]*team-atlas: Provisioning -> Ready\n/,
    );
    expect(run.stdout).toMatch(
      /^NAME\s+PHASE\s+API\nteam-atlas\s+Ready\s+https:\/\/team-atlas\.kubespaces\.example\.com\n$/,
    );
    expect(server.seen.find((r) => r.line === "POST /api/v1/tenants")?.body).toEqual({
      name: "team-atlas",
      spec: { resources: { cpu: "8", memory: "16Gi" } },
    });
    const listed = await kubespaces("tenant", "list");
    expect(listed.stdout).toMatch(/^NAME\s+OWNER\s+PHASE\s+API\nteam-atlas\s+alice@example\.com\s+Ready/);
  });

  it("a create that fails exits 3 with the reason, and prints the Failed tenant", async () => {
    server.nextScript = [
      { phase: "Provisioning", reason: "Provisioning", message: "provisioning" },
      { phase: "Failed", reason: "QuotaFailed", message: "exceeded quota: team-fail-quota" },
    ];
    const run = await kubespaces("tenant", "create", "team-fail", "--cpu", "4", "--memory", "8Gi");
    expect(run.code).toBe(EXIT.failed);
    expect(run.stdout).toMatch(/team-fail\s+Failed/);
    expect(run.stderr).toContain("kubespaces: tenant team-fail failed (QuotaFailed): exceeded quota: team-fail-quota");
  });

  it("a request the server refuses exits 2 with the component's problems; nothing is created", async () => {
    const run = await kubespaces("tenant", "create", "ok-name", "--memory", "lots");
    expect(run.code).toBe(EXIT.invalid);
    expect(run.stderr).toContain("resources.memory: must be a Kubernetes quantity");
    expect((await kubespaces("tenant", "get", "ok-name")).code).toBe(EXIT.notFound);
  });

  it("a tenant that is not there (or not yours) exits 4", async () => {
    server.seed("bobs-tenant", "bob@example.com");
    for (const name of ["nope", "bobs-tenant"]) {
      const run = await kubespaces("tenant", "get", name);
      expect(run.code).toBe(EXIT.notFound);
      expect(run.stderr).toContain(`kubespaces: tenant ${name} not found`);
    }
  });

  it("--owner is refused with the reason, and nothing is created", async () => {
    const owner = await kubespaces("tenant", "create", "team-atlas", "--owner", "bob@example.com");
    expect(owner.code).toBe(EXIT.invalid);
    expect(owner.stderr).toContain(
      `--owner is refused through the server ${server.url}: the server takes the owner from your sign-in`,
    );
    expect(requestLines().filter((line) => !line.startsWith("GET /api/v1/whoami"))).not.toContain(
      "POST /api/v1/tenants",
    );
  });

  it("--preview asks the server for the plan and prints it as local mode does; nothing is created or deleted", async () => {
    const creating = await kubespaces("tenant", "create", "team-atlas", "--cpu", "4", "--memory", "8Gi", "--preview");
    expect(creating.code, creating.stderr).toBe(0);
    expect(creating.stdout).toMatch(/^Preview of creating tenant team-atlas; nothing was changed\.\n/);
    expect(creating.stdout).toMatch(/^ {2}\+ {2}create {3}kubernetes:core\/v1:Namespace +team-atlas$/m);
    expect(creating.stdout).toMatch(/\n6 to create, 0 to update, 0 to replace, 0 to delete\n$/);
    const posted = server.seen.find((s) => s.line === `POST ${API_PATHS.tenantPreview("team-atlas")}`);
    expect(posted?.body).toEqual({ operation: "create", spec: { resources: { cpu: "4", memory: "8Gi" } } });

    server.seed("team-borealis", OWNER);
    const deleting = await kubespaces("tenant", "delete", "team-borealis", "--preview");
    expect(deleting.code, deleting.stderr).toBe(0);
    expect(deleting.stdout).toMatch(/^Preview of deleting tenant team-borealis; nothing was changed\.\n/);
    expect(deleting.stdout).toMatch(/\n0 to create, 0 to update, 0 to replace, 6 to delete\n$/);
    expect(requestLines()).not.toContain("POST /api/v1/tenants");
    expect(requestLines()).not.toContain(`DELETE ${API_PATHS.tenant("team-borealis")}`);
  });

  it("--preview of another person's tenant is not found, as everywhere", async () => {
    server.seed("team-bob", "bob@example.com");
    const run = await kubespaces("tenant", "delete", "team-bob", "--preview");
    expect(run.code).toBe(EXIT.notFound);
    expect(run.stderr).toContain("tenant team-bob not found");
    expect(server.previews.ran).toEqual([]);
  });

  it("list --all asks the server for every tenant", async () => {
    const run = await kubespaces("tenant", "list", "--all");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("no tenants\n");
    expect(requestLines()).toContain("GET /api/v1/tenants?all=true");
  });

  it("get --wait resumes with Last-Event-ID after the connection drops, missing no change", async () => {
    server.nextScript = [
      { phase: "Provisioning", reason: "Provisioning", message: "provisioning the virtual cluster" },
      { phase: "Provisioning", reason: "Provisioning", message: "waiting for the control plane" },
      { phase: "Ready", reason: "Provisioned", message: "the virtual cluster is ready" },
    ];
    server.seed("team-atlas", OWNER);
    server.dropAfter = { phase: "Provisioning", stepsWhileAway: 2 };
    const run = await kubespaces("tenant", "get", "team-atlas", "--wait");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/team-atlas\s+Ready/);
    // Sent only while the command was away: only a resumption gets it.
    expect(run.stderr).toContain("team-atlas: waiting for the control plane\n");
    const streams = server.seen.filter((r) => r.line === "GET /api/v1/tenants/team-atlas/events");
    expect(streams.map((r) => r.lastEventId)).toEqual([undefined, server.droppedAfter]);
  });

  it("get -w prints each phase change and goes on following the settled tenant until Ctrl-C (exit 130)", async () => {
    server.seed("team-atlas", OWNER);
    const before = process.listeners("SIGINT");
    const watching = started("tenant", "get", "team-atlas", "-w");
    await vi.waitFor(() => expect(watching.stdout.text).toMatch(/team-atlas\s+Ready/));
    expect(watching.stdout.text).toMatch(
      /^NAME\s+PHASE\s+API\nteam-atlas\s+Pending\s+-\nteam-atlas\s+Provisioning\s+-\nteam-atlas\s+Ready\s+https:\/\/team-atlas\./,
    );
    const interrupt = addedInterrupts(before);
    expect(interrupt).toHaveLength(1);
    interrupt[0]("SIGINT");
    expect(await watching.finished).toBe(EXIT.interrupted);
    expect(addedInterrupts(before)).toEqual([]);
  });

  it("get -w ends (exit 0) when the tenant is deleted, after its Deleting row", async () => {
    server.nextScript = [];
    server.seed("team-atlas", OWNER);
    const watching = started("tenant", "get", "team-atlas", "-w");
    await vi.waitFor(() =>
      expect(server.seen.map((r) => r.line)).toContain(`GET ${API_PATHS.tenantEvents("team-atlas")}`),
    );
    expect((await kubespaces("tenant", "delete", "team-atlas")).code).toBe(0);
    expect(await watching.finished).toBe(EXIT.ok);
    expect(watching.stdout.text).toMatch(/\nteam-atlas\s+Deleting\s+-\n$/);
    expect(watching.stderr.text).toBe("tenant team-atlas was deleted\n");
  });

  it("create --wait=false posts the request and prints the tenant as it stands, following nothing", async () => {
    const run = await kubespaces("tenant", "create", "team-atlas", "--cpu", "8", "--wait=false");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^NAME\s+PHASE\s+API\nteam-atlas\s+Pending\s+-\n$/);
    expect(run.stderr).toBe(
      `tenant team-atlas is asked for; the server ${server.url} goes on with it: follow it with \`kubespaces tenant get team-atlas -w\`\n`,
    );
    expect(requestLines()).toContain("POST /api/v1/tenants");
    expect(requestLines()).not.toContain(`GET ${API_PATHS.tenantEvents("team-atlas")}`);
  });

  it("delete asks the server and follows the teardown until the tenant is gone", async () => {
    await kubespaces("tenant", "create", "team-atlas", "--defaults");
    const run = await kubespaces("tenant", "delete", "team-atlas");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("team-atlas: Ready -> Deleting\n");
    expect(run.stderr).toContain("team-atlas: Deleting -> Deleted\n");
    expect(run.stdout).toBe(
      `tenant team-atlas deleted by ${server.url}: its namespace and everything in it are removed\n`,
    );
    expect((await kubespaces("tenant", "get", "team-atlas")).code).toBe(EXIT.notFound);
  });

  it("kubeconfig prints the tenant's kubeconfig, and --merge merges it into $KUBECONFIG (mode 0600)", async () => {
    await kubespaces("tenant", "create", "team-atlas", "--defaults");
    const printed = await kubespaces("tenant", "kubeconfig", "team-atlas");
    expect(printed.code, printed.stderr).toBe(0);
    expect(parse(printed.stdout)).toMatchObject({
      "current-context": "team-atlas",
      contexts: [{ name: "team-atlas" }],
    });
    const merged = await kubespaces("tenant", "kubeconfig", "team-atlas", "--merge");
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stderr).toContain(`merged context team-atlas into ${process.env.KUBECONFIG}`);
    expect(parse(readFileSync(process.env.KUBECONFIG!, "utf8")).contexts[0].name).toBe("team-atlas");
    expect(statSync(process.env.KUBECONFIG!).mode & 0o777).toBe(0o600);
  });

  it("a stack lock the server waited out is exit 5, and says only the server's admin can remove it", async () => {
    const message =
      "tenant team-atlas's stack is still locked by another update after 600s (holder unknown); try again later";
    server.nextError = { status: 409, kind: "busy", message };
    const run = await kubespaces("tenant", "create", "team-atlas", "--cpu", "8");
    expect(run.code).toBe(EXIT.busy);
    expect(run.stderr).toBe(
      `kubespaces: ${message}\nif no update of tenant team-atlas runs on the server any more, its stack's lock stays until the server's admin removes it (\`pulumi cancel\` on the server's state backend)\n`,
    );
  });

  it("list follows the table with your use against the server's caps per owner on stderr, when it sets any", async () => {
    await kubespaces("tenant", "create", "team-atlas", "--cpu", "8", "--memory", "16Gi");
    expect((await kubespaces("tenant", "list")).stderr).toBe("");
    server.caps = { tenants: 2, memory: "32Gi" };
    const run = await kubespaces("tenant", "list");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^NAME\s+OWNER\s+PHASE\s+API\nteam-atlas\s/);
    expect(run.stderr).toBe("your use against the platform's caps: tenants 1 of 2, memory 0Gi of 32Gi\n");
    // Not beside JSON: stderr stays for progress and errors there.
    expect((await kubespaces("tenant", "list", "-o", "json")).stderr).toBe("");
  });

  it("a sign-in the server does not accept says to log in again (exit 1)", async () => {
    const kept = keptSignIn();
    const forged = `${String(kept.idToken).slice(0, -6)}AAAAAA`;
    writeFileSync(signInFile(), JSON.stringify({ ...kept, idToken: forged }), { mode: 0o600 });
    const run = await kubespaces("tenant", "list");
    expect(run.code).toBe(EXIT.error);
    expect(run.stderr).toContain(
      `does not accept your sign-in (the ID token is missing, forged or expired): run \`kubespaces login --server ${server.url}\` again`,
    );
    expect(run.stderr).not.toContain(forged);
  });
});

describe("what the server or another person wrote reaches the terminal inert", () => {
  beforeEach(signIn);

  const OSC52 = "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07";
  const TITLE = "\x1b]0;you are root\x07";
  const CLEAR = "\x1b[2J";
  const CSI = "\x9b2J";
  /** Any character a terminal acts on, line breaks aside. */
  // eslint-disable-next-line no-control-regex -- the characters to find
  const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

  it("a tenant's events, status and reason: shown as escapes by get --wait, exact in -o yaml", async () => {
    const message = `quota ${OSC52}${CLEAR} exceeded ${CSI}`;
    server.nextScript = [
      { phase: "Provisioning", reason: "Provisioning", message: "provisioning" },
      { phase: "Provisioning", reason: "Provisioning", message: `provisioning ${TITLE}` },
      { phase: "Failed", reason: `QuotaFailed${TITLE}`, message },
    ];
    server.seed("team-evil", OWNER);
    const run = await kubespaces("tenant", "get", "team-evil", "--wait");
    expect(run.code).toBe(EXIT.failed);
    for (const text of [run.stdout, run.stderr]) expect(text).not.toMatch(ACTIVE);
    expect(run.stderr).toContain("team-evil: provisioning \\x1b]0;you are root\\x07\n");
    expect(run.stderr).toContain(
      "kubespaces: tenant team-evil failed (QuotaFailed\\x1b]0;you are root\\x07): quota \\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07\\x1b[2J exceeded \\x9b2J\n",
    );

    const yaml = await kubespaces("tenant", "get", "team-evil", "-o", "yaml");
    expect(yaml.stdout).not.toMatch(ACTIVE);
    expect(parse(yaml.stdout).status).toMatchObject({ phase: "Failed", message });
  });

  it("an error the server's answers carry: shown as escapes", async () => {
    server.issuer = `https://dex.example.com/${TITLE}${CSI}`;
    const run = await kubespaces("login", "--server", server.url);
    expect(run.code).toBe(EXIT.error);
    expect(run.stderr).not.toMatch(ACTIVE);
    expect(run.stderr).toContain("dex.example.com/\\x1b]0;you are root\\x07\\x9b2J");
  });
});

describe("an expired ID token", () => {
  beforeEach(signIn);

  /** Keeps an ID token that expired a minute ago, with the refresh token of the sign-in. */
  async function expire(): Promise<void> {
    const expired = await idp.idToken(undefined, -60);
    writeFileSync(
      signInFile(),
      JSON.stringify({ ...keptSignIn(), idToken: expired, idTokenExpiresAt: Math.floor(Date.now() / 1000) - 60 }),
      { mode: 0o600 },
    );
  }

  it("is renewed with the refresh token before the request, and the renewed one is kept", async () => {
    await expire();
    const run = await kubespaces("tenant", "list");
    expect(run.code, run.stderr).toBe(0);
    expect(idp.grants.at(-1)).toBe("refresh_token");
    expect(Number(keptSignIn().idTokenExpiresAt)).toBeGreaterThan(Date.now() / 1000);
    expect(statSync(signInFile()).mode & 0o777).toBe(0o600);
  });

  it("that cannot be renewed says to log in again", async () => {
    await expire();
    idp.refreshTokensValid = false;
    const run = await kubespaces("tenant", "list");
    expect(run.code).toBe(EXIT.error);
    expect(run.stderr).toContain(
      `your sign-in to ${server.url} has expired and could not be renewed (invalid_grant: refresh token revoked): run \`kubespaces login --server ${server.url}\` again`,
    );
  });
});
