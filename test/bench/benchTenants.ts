/**
 * What the benchmarks on the test bed share: Tenant manifests in a folder, as a GitOps repository
 * holds them, and kubectl as a platform admin to apply and delete them.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { stringify } from "yaml";
import { testbedEnv } from "../e2e/support/testbed";

const run = promisify(execFile);

/**
 * kubectl as the test bed's admin acting as a platform admin: the owner policy holds the admin to
 * owners too, so it joins the admin group (keeping system:masters for RBAC) to apply others' Tenants.
 */
const AS_PLATFORM_ADMIN = [
  "--as=kubespaces-testbed-admin",
  "--as-group=system:masters",
  "--as-group=kubespaces-admins",
];

/** Runs kubectl as a platform admin on the test bed. */
export const kubectlAsAdmin = (...args: string[]) =>
  run("kubectl", [...AS_PLATFORM_ADMIN, ...args], {
    env: { ...process.env, KUBECONFIG: testbedEnv().KUBECONFIG },
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });

/** Who owns the benchmarks' Tenants. */
export const BENCH_OWNER = "bench@example.com";

/** What each of the benchmarks' Tenants asks for. */
export const BENCH_RESOURCES = { cpu: "3", memory: "4Gi" } as const;

/** A folder with one Tenant manifest per name (owner BENCH_OWNER, BENCH_RESOURCES). */
export function tenantManifests(names: readonly string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-bench-tenants-"));
  for (const name of names) {
    const tenant = {
      apiVersion: "kubespaces.io/v1alpha1",
      kind: "Tenant",
      metadata: { name },
      spec: { owner: BENCH_OWNER, resources: BENCH_RESOURCES },
    };
    writeFileSync(path.join(dir, `${name}.yaml`), stringify(tenant));
  }
  return dir;
}
