/**
 * The parts of the command's server client that need no server: reading an event stream, turning
 * the API's error answers into the exit codes of local mode, the URL rules of sign-in, and when a
 * browser is opened.
 */
import { describe, expect, it } from "vitest";
import { openBrowser } from "../../provider/cli/browserOpen";
import { serverSentEvents, type ServerSentEvent } from "../../provider/cli/serverMode/serverSentEvents";
import { CliError, EXIT, exitCodeOfKind } from "../../provider/cli/exitCodes";
import { errorOfAnswer } from "../../provider/cli/serverMode/serverErrors";
import { kubespacesServerUrl } from "../../provider/cli/serverMode/serverUrls";
import type { ApiErrorKind } from "../../provider/contracts/tenantsApi";
import { RequestInvalidError, TenantsError } from "../../provider/tenants/tenantsErrors";
import { thrownBy } from "./support/thrown";

/** The events of a body that arrives in `chunks`. */
async function eventsOf(chunks: readonly string[]): Promise<ServerSentEvent[]> {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const events: ServerSentEvent[] = [];
  for await (const event of serverSentEvents(body)) events.push(event);
  return events;
}

describe("serverSentEvents", () => {
  it("reads events split anywhere, with CRLF, CR or LF, joining data lines and keeping the last id", async () => {
    const events = await eventsOf([
      "\uFEFFid: 7\r",
      '\nevent: tenant\r\ndata: {"a":\n',
      "data:1}\n\n: a comment\n\ndata: second\r\r",
      "id: 9\nevent: deleted\ndata: {}\n\n",
      "event: tenant\ndata: cut off",
    ]);
    expect(events).toEqual([
      { event: "tenant", data: '{"a":\n1}', id: "7" },
      { event: "message", data: "second", id: "7" },
      { event: "deleted", data: "{}", id: "9" },
    ]);
  });

  it("dispatches nothing for a blank event, and ignores an id with NULL in it", async () => {
    expect(await eventsOf(["event: tenant\n\nid: a\0b\ndata: x\n\n"])).toEqual([{ event: "message", data: "x" }]);
  });
});

describe("errorOfAnswer", () => {
  const context = { server: "https://kubespaces.example.com", tenant: "team-atlas" };
  const exitOf = (error: Error): number =>
    error instanceof TenantsError ? exitCodeOfKind(error.kind) : (error as CliError).code;

  it.each<[ApiErrorKind, number]>([
    ["invalid", EXIT.invalid],
    ["conflict", EXIT.invalid],
    ["refused", EXIT.invalid],
    ["notFound", EXIT.notFound],
    ["notReady", EXIT.error],
    ["failed", EXIT.failed],
    ["busy", EXIT.busy],
    ["hostUnavailable", EXIT.error],
    ["interrupted", EXIT.interrupted],
    ["unauthenticated", EXIT.error],
    ["rateLimited", EXIT.error],
    ["overloaded", EXIT.error],
    ["internal", EXIT.error],
  ])("maps kind %s to exit code %d, as local mode exits, keeping the server's message", (kind, code) => {
    const error = errorOfAnswer(400, JSON.stringify({ error: { kind, message: `the ${kind} message` } }), context);
    expect(exitOf(error)).toBe(code);
    expect(error.message).toContain(`the ${kind} message`);
  });

  it("keeps an invalid request's problems", () => {
    const body = { error: { kind: "invalid", message: "refused", problems: ["resources.cpu: must be a quantity"] } };
    const error = errorOfAnswer(400, JSON.stringify(body), context);
    expect(error).toBeInstanceOf(RequestInvalidError);
    expect((error as RequestInvalidError).problems).toEqual(["resources.cpu: must be a quantity"]);
  });

  it("reads an answer without an error body (a proxy's page) by its status", () => {
    expect(exitOf(errorOfAnswer(404, "<html>not here</html>", context))).toBe(EXIT.notFound);
    const unauthenticated = errorOfAnswer(401, "", context);
    expect(unauthenticated.message).toContain("run `kubespaces login --server https://kubespaces.example.com` again");
    expect(errorOfAnswer(502, "Bad Gateway", context).message).toBe(
      "the server https://kubespaces.example.com failed: the server https://kubespaces.example.com answered HTTP 502",
    );
  });
});

describe("kubespacesServerUrl", () => {
  it.each([
    ["https://kubespaces.example.com/", "https://kubespaces.example.com"],
    ["https://example.com/kubespaces/", "https://example.com/kubespaces"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080"],
    ["http://localhost:8080/", "http://localhost:8080"],
    ["http://[::1]:8080", "http://[::1]:8080"],
  ])("takes %s as %s", (value, url) => {
    expect(kubespacesServerUrl(value)).toBe(url);
  });

  it.each([
    ["kubespaces.example.com", "must be the URL of a kubespaces server"],
    ["ftp://kubespaces.example.com", "must be an https:// URL"],
    ["http://10.0.0.1:8080", "plain http is allowed only for a server on this machine"],
    ["https://me:secret@kubespaces.example.com", "must not carry a user name or password"],
    ["https://kubespaces.example.com/?next=1", "must have no query (?) or fragment (#)"],
  ])("refuses %s with exit code 2", (value, message) => {
    const error = thrownBy(() => kubespacesServerUrl(value)) as CliError;
    expect(error.code).toBe(EXIT.invalid);
    expect(error.message).toContain(message);
    expect(error.message).not.toContain("secret");
  });
});

describe("openBrowser", () => {
  it("tries nothing where no browser can be shown: Linux without a display, macOS over SSH, Windows", () => {
    expect(openBrowser("https://idp.example.com/device", {}, "linux")).toBe(false);
    expect(openBrowser("https://idp.example.com/device", { SSH_CONNECTION: "10.0.0.1 22" }, "darwin")).toBe(false);
    expect(openBrowser("https://idp.example.com/device", {}, "win32")).toBe(false);
  });
});
