/**
 * The API against its own OpenAPI document, by Schemathesis (a property-based tester from PyPI,
 * installed pinned and hash-checked by support/schemathesisVenv.sh): the whole HTTP front as the
 * server builds it, listening on the loopback, over the real OwnedTenants on a stand-in host,
 * with the stand-in issuer's bearer token. Every operation is called with inputs generated from
 * the document, valid and invalid; every answer must be a documented status with a body that
 * matches its schema, and none may be a 5xx. The event stream is left out: it is endless by
 * design, and its first event is a Tenant that getTenant's answers already cover.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { API_PATHS } from "../../provider/contracts/tenantsApi";
import { apiServerHarness, type ApiServerHarness } from "./support/apiServerHarness";

const run = promisify(execFile);
const VENV_SCRIPT = path.join(__dirname, "support/schemathesisVenv.sh");
/** Checks of every answer (Schemathesis' names). */
const CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
];

let harness: ApiServerHarness | undefined;
/** Where Schemathesis keeps its cache (`.schemathesis/`): never the checkout. */
const workDir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-schemathesis-"));
afterAll(async () => {
  await harness?.app.close();
  rmSync(workDir, { recursive: true, force: true });
});

it(
  "answers every generated request with a documented status and body, and never a 5xx",
  { timeout: 300_000 },
  async () => {
    const { stdout: st } = await run("bash", [VENV_SCRIPT], { encoding: "utf8" });
    harness = await apiServerHarness();
    await harness.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = harness.app.server.address() as AddressInfo;
    const token = await harness.token("alice@example.com", { expiresIn: "30m" });
    const args = [
      "run",
      `http://127.0.0.1:${port}${API_PATHS.openApi}`,
      "--checks",
      CHECKS.join(","),
      "--exclude-path-regex",
      "/events$",
      "--phases",
      "examples,coverage,fuzzing",
      "--max-examples",
      "25",
      "--seed",
      "27",
      "--workers",
      "1",
      "--header",
      `Authorization: Bearer ${token}`,
    ];
    const result = await run(st.trim(), args, { cwd: workDir, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: `${error.stdout}\n${error.stderr}`,
      }),
    );
    expect(result.stdout, result.stdout).toMatch(/passed/);
    expect(result.code, result.stdout).toBe(0);
  },
);
