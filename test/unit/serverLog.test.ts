/**
 * The server's log: one JSON line per event with a level, a time and, for HTTP requests, a request
 * id that the answer carries back; never a query string (a sign-in's code), a header or an audit
 * line, which go to a stream of their own.
 */
import { expect, it } from "vitest";
import { API_PATHS } from "../../provider/contracts/tenantsApi";
import { REQUEST_ID_HEADER, serverLogger } from "../../provider/server/serverLog";
import { apiServerHarness } from "./support/apiServerHarness";

it("logs each request as JSON lines with its level and id, sent back in x-request-id, without its query or headers", async () => {
  const written: string[] = [];
  const logger = serverLogger({ write: (text) => written.push(text) }, { replica: "replica-a" });
  const h = await apiServerHarness({ logger });
  const token = await h.token("alice@example.com");
  const answer = await h.app.inject({
    method: "POST",
    url: `${API_PATHS.tenants}?code=the-sign-in-code&state=xyz`,
    headers: { authorization: `Bearer ${token}` },
    payload: { name: "atlas", spec: {} },
  });
  logger.warn("watch: the API server closed the watch");

  const lines = written.join("").trimEnd().split("\n");
  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const requestId = answer.headers[REQUEST_ID_HEADER];
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  const ofRequest = records.filter((r) => r.reqId === requestId);
  expect(ofRequest.map((r) => [r.level, r.msg])).toEqual([
    ["info", "incoming request"],
    ["info", "request completed"],
  ]);
  expect(ofRequest[0]).toMatchObject({
    name: "kubespaces-server",
    replica: "replica-a",
    req: { method: "POST", path: API_PATHS.tenants },
  });
  expect(ofRequest[1]).toMatchObject({ res: { statusCode: 201 } });
  expect(records.at(-1)).toMatchObject({ level: "warn", msg: "watch: the API server closed the watch" });
  for (const record of records) expect(typeof record.time).toBe("string");

  const text = written.join("");
  for (const secret of ["the-sign-in-code", token, "authorization"]) expect(text).not.toContain(secret);
  // The audit line of the create went to the audit stream only.
  expect(h.auditLines).toHaveLength(1);
  expect(text).not.toContain("tenant.create");
});
