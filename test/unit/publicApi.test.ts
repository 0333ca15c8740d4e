/** What the package exports: what a program needs, validation without Pulumi, and no internal children. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import * as api from "../../provider/index";

const root = path.resolve(__dirname, "../..");

it("exports the Tenant, the TenantCrd, the KubespacesServer and the pure validation and rendering, and keeps the children internal", () => {
  expect(Object.keys(api).sort()).toEqual([
    "KubespacesServer",
    "SAFE_OVERRIDE_PATHS",
    "Tenant",
    "TenantCrd",
    "TenantFilesError",
    "TenantSet",
    "TenantValidationError",
    "parseTenantDocuments",
    "readTenantFiles",
    "renderTenant",
    "tenantRequestSchema",
    "validateRequest",
    "validateTenant",
  ]);
});

it("validates a tenant without loading @pulumi/pulumi", () => {
  // A fresh Node process, so that nothing this test file loaded counts.
  const script = `
    const { validateTenant, TenantValidationError } = require("./provider/validation.ts");
    let message = "";
    try { validateTenant("team-atlas", { owner: "a", resources: { cpu: "lots" } }); } catch (e) { message = e instanceof TenantValidationError ? e.message : String(e); }
    const pulumiLoaded = Object.keys(require.cache).some((file) => file.includes("@pulumi/pulumi"));
    console.log(JSON.stringify({ message, pulumiLoaded }));`;
  const result = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { cwd: root, encoding: "utf8" });
  expect(result.stderr).toBe("");
  const { message, pulumiLoaded } = JSON.parse(result.stdout) as { message: string; pulumiLoaded: boolean };
  expect(message).toContain("resources.cpu: must be a Kubernetes quantity");
  expect(pulumiLoaded).toBe(false);
});

it("marks the validation error so that the Pulumi CLI prints it without a stack trace", async () => {
  const pulumi = await import("@pulumi/pulumi");
  expect(
    pulumi.RunError.isInstance(new api.TenantValidationError("t", [{ path: "owner", message: "is required" }])),
  ).toBe(true);
});
