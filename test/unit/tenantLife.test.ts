/**
 * A tenant's life in the parts every door shares: the rules of `sleep` and `expiresAt` (the cap and
 * who must set one), the readiness wait's goal for a sleeping tenant, the status it leads to, when a
 * status has settled, where a tenant stands against its expiry, the snapshot store's names and
 * look-ups, and what a Tenant's annotations ask of its snapshots.
 */
import { describe, expect, it } from "vitest";
import type { TenantRequestInput } from "../../provider/model/tenantRequestSchema";
import { validateTenant } from "../../provider/model/validateTenant";
import { TenantValidationError } from "../../provider/model/validationError";
import { missingParts, workloadStopped } from "../../provider/lifecycle/readiness/readinessState";
import { readyStatus } from "../../provider/lifecycle/readiness/readyStatus";
import { checkRequest } from "../../provider/tenants/requestCheck";
import { RequestInvalidError } from "../../provider/tenants/tenantsErrors";
import { isSettled } from "../../provider/tenants/tenantObject";
import { tenantStatus } from "../../provider/tenants/tenantStatus";
import { expiryStanding, nextVisit, withExpiryCondition } from "../../provider/server/reconcile/tenantExpiry";
import { thrownBy } from "./support/thrown";
import http from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SnapshotStore } from "../../provider/server/snapshots/snapshotStore";
import { pendingRestore, pendingSnapshot, snapshotName } from "../../provider/server/snapshots/snapshotAsks";
import type { TenantResource } from "../../provider/server/tenantResourcePort";

const NOW = new Date("2026-12-01T00:00:00Z");
const hoursFromNow = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000).toISOString();
/** The problems validation finds in tenant team-atlas's `args`, checked at NOW: none when it passes. */
function problemsOf(args: Record<string, unknown>): string[] {
  try {
    validateTenant("team-atlas", { owner: "alice", ...args }, { now: () => NOW });
    return [];
  } catch (error) {
    if (!(error instanceof TenantValidationError)) throw error;
    return error.problems.map((p) => `${p.path}: ${p.message}`);
  }
}

describe("the rules of sleep and expiresAt", () => {
  it("let a tenant sleep, but not one whose control plane keeps no volume: its data would not survive", () => {
    expect(problemsOf({ sleep: true })).toEqual([]);
    const noVolume = { controlPlane: { statefulSet: { persistence: { volumeClaim: { enabled: false } } } } };
    expect(problemsOf({ sleep: true, vcluster: { valuesOverrides: noVolume } })).toEqual([
      expect.stringMatching(
        /^sleep: must not be true while vcluster\.valuesOverrides turns off the control plane's volume/,
      ),
    ]);
    expect(problemsOf({ sleep: false, vcluster: { valuesOverrides: noVolume } })).toEqual([]);
  });

  it("take expiresAt as an RFC 3339 time, and refuse anything else naming the field", () => {
    expect(problemsOf({ expiresAt: "2027-01-31T18:00:00Z" })).toEqual([]);
    expect(problemsOf({ expiresAt: "2027-01-31T18:00:00+01:00" })).toEqual([]);
    expect(problemsOf({ expiresAt: "next friday" })).toEqual([
      'expiresAt: must be an RFC 3339 time such as 2027-01-31T18:00:00Z (got "next friday")',
    ]);
  });

  it("cap expiresAt at maxLifetimeHours from the check, naming the latest time allowed", () => {
    const platform = { expiry: { maxLifetimeHours: 48 } };
    expect(problemsOf({ platform, expiresAt: hoursFromNow(48) })).toEqual([]);
    expect(problemsOf({ platform, expiresAt: hoursFromNow(49) })).toEqual([
      `expiresAt: ${hoursFromNow(49)} is more than 48 hours ahead (platform.expiry.maxLifetimeHours); the latest allowed now is ${hoursFromNow(48)}`,
    ]);
  });

  it("require expiresAt of the owners the platform names, or of everyone with *", () => {
    const forAlice = { expiry: { requiredFor: { owners: ["alice"] } } };
    expect(problemsOf({ platform: forAlice })).toEqual([
      "expiresAt: is required for owner alice (platform.expiry.requiredFor.owners)",
    ]);
    expect(problemsOf({ platform: forAlice, owner: "bob" })).toEqual([]);
    expect(problemsOf({ platform: { expiry: { requiredFor: { owners: ["*"] } } }, owner: "bob" })).toHaveLength(1);
    expect(problemsOf({ platform: forAlice, expiresAt: hoursFromNow(1) })).toEqual([]);
  });

  it("require expiresAt of the members of the groups the platform names, at the doors that know them", () => {
    const policy = { expiry: { requiredFor: { groups: ["interns"] } } };
    const intern = { owner: "carol@example.com", groups: ["staff", "interns"], isAdmin: false };
    const error = thrownBy(() =>
      checkRequest("team-carol", {} as TenantRequestInput, intern, policy),
    ) as RequestInvalidError;
    expect(error).toBeInstanceOf(RequestInvalidError);
    expect(error.problems).toEqual([
      "expiresAt: is required for members of group interns (platform.expiry.requiredFor.groups)",
    ]);
    expect(
      checkRequest("team-carol", { expiresAt: "2099-01-01T00:00:00Z" } as TenantRequestInput, intern, policy).expiresAt,
    ).toBe("2099-01-01T00:00:00Z");
    expect(checkRequest("team-carol", {} as TenantRequestInput, { ...intern, groups: ["staff"] }, policy).owner).toBe(
      "carol@example.com",
    );
  });
});

describe("a sleeping tenant's readiness and status", () => {
  const names = { workload: "team-atlas", secret: "vc-team-atlas", secretKey: "config" };
  const secret = { data: { config: Buffer.from("apiVersion: v1\n").toString("base64") } };
  const statefulSet = (wanted: number, pods: number, observed = 2) => ({
    metadata: { generation: 2 },
    spec: { replicas: wanted },
    status: { observedGeneration: observed, replicas: pods, readyReplicas: pods },
  });

  it("waits for the control plane to be scaled to zero with no pod left, and for the kubeconfig Secret", () => {
    const observation = (workload: ReturnType<typeof statefulSet>) => ({
      statefulSet: workload,
      deployment: null,
      secret,
    });
    expect(missingParts(observation(statefulSet(0, 0)), names, "asleep")).toEqual([]);
    expect(missingParts(observation(statefulSet(0, 1)), names, "asleep")).toEqual([
      "StatefulSet team-atlas scaled to zero (1 pod(s) left)",
    ]);
    // The scale-down not yet seen by the controller, and a running control plane, are not asleep.
    expect(workloadStopped(statefulSet(0, 0, 1))).toBe(false);
    expect(workloadStopped(statefulSet(1, 0))).toBe(false);
    expect(missingParts(observation(statefulSet(1, 1)), names, "ready")).toEqual([]);
    expect(missingParts({ statefulSet: statefulSet(0, 0), deployment: null, secret: null }, names, "asleep")).toEqual([
      "Secret vc-team-atlas not found",
    ]);
  });

  it("gives the component's status Sleeping, its Ready condition False with reason Sleeping", () => {
    expect(readyStatus("team-atlas", "2026-12-01T00:00:00Z", 1500, true)).toMatchObject({
      phase: "Sleeping",
      conditions: [{ type: "Ready", status: "False", reason: "Sleeping" }],
      message: expect.stringContaining("set sleep to false to wake it"),
    });
    expect(readyStatus("team-atlas", "2026-12-01T00:00:00Z", 1500).phase).toBe("Ready");
  });

  it("gives every door the phase Sleeping when the run's outputs say so", () => {
    const run = {
      operation: "create" as const,
      startedAt: "2026-12-01T00:00:00Z",
      generation: 3,
      running: false,
      events: [],
      outcome: { ok: true, message: "asleep", outputs: { phase: "Sleeping" as const } },
    };
    expect(tenantStatus({ name: "team-atlas", generation: 3 }, run)).toMatchObject({
      phase: "Sleeping",
      conditions: [{ type: "Ready", status: "False", reason: "Sleeping" }],
    });
  });

  it("counts a status as settled only once it speaks of the current generation", () => {
    const tenant = (phase: string, observedGeneration?: number) => ({
      metadata: { generation: 4 },
      status: { phase, ...(observedGeneration !== undefined && { observedGeneration }) },
    });
    expect(isSettled(tenant("Ready", 3))).toBe(false);
    expect(isSettled(tenant("Sleeping", 4))).toBe(true);
    expect(isSettled(tenant("Failed", 4))).toBe(true);
    expect(isSettled(tenant("Provisioning", 4))).toBe(false);
    expect(isSettled(tenant("Ready"))).toBe(true);
  });
});

describe("a tenant's standing against its expiry", () => {
  it("is none, later (with its warning time), warned, or expired, and is visited at the warning then the expiry", () => {
    expect(expiryStanding(undefined, NOW, 24)).toEqual({ state: "none" });
    const later = expiryStanding(hoursFromNow(30), NOW, 24);
    expect(later).toEqual({
      state: "later",
      warnAt: Date.parse(hoursFromNow(6)),
      expiresAt: Date.parse(hoursFromNow(30)),
    });
    expect(nextVisit(later)).toBe(Date.parse(hoursFromNow(6)));
    const warned = expiryStanding(hoursFromNow(3), NOW, 24);
    expect(warned).toEqual({ state: "warned", expiresAt: Date.parse(hoursFromNow(3)) });
    expect(nextVisit(warned)).toBe(Date.parse(hoursFromNow(3)));
    expect(expiryStanding(NOW.toISOString(), NOW, 24)).toEqual({ state: "expired" });
    expect(nextVisit({ state: "expired" })).toBeUndefined();
  });

  it("adds the Expiring condition when warned, keeps its first transition time, and drops it otherwise", () => {
    const ready = { type: "Ready", status: "True" as const, reason: "Provisioned", message: "ready" };
    const warned = expiryStanding(hoursFromNow(3), NOW, 24);
    const first = withExpiryCondition([ready], warned, NOW, 2);
    expect(first).toEqual([
      ready,
      {
        type: "Expiring",
        status: "True",
        reason: "ExpiresSoon",
        message: `the tenant expires at ${hoursFromNow(3)} and is then deleted with everything in it; extend spec.expiresAt to keep it`,
        lastTransitionTime: NOW.toISOString(),
        observedGeneration: 2,
      },
    ]);
    const again = withExpiryCondition(first, warned, new Date(NOW.getTime() + 60_000), 2);
    expect(again[1].lastTransitionTime).toBe(NOW.toISOString());
    expect(withExpiryCondition(first, { state: "none" }, NOW, 2)).toEqual([ready]);
  });
});

describe("the snapshot store", () => {
  const keys = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-snapshot-keys-"));
    writeFileSync(path.join(dir, "id"), "AKIDEXAMPLE\n");
    writeFileSync(path.join(dir, "secret"), "wJalrXUtnFEMI\n");
    return { accessKeyIdFile: path.join(dir, "id"), secretAccessKeyFile: path.join(dir, "secret") };
  };

  it("names each owner's snapshots under a digest of the owner, and gives vCluster its s3 options with the keys read from their files", () => {
    const store = new SnapshotStore({
      bucket: "snaps",
      region: "eu-west-1",
      forcePathStyle: true,
      prefix: "kubespaces",
      url: "http://127.0.0.1:9000",
      ...keys(),
    });
    const alice = store.objectOf("alice@example.com", "team-atlas-20261205t063012z");
    const bob = store.objectOf("bob@example.com", "team-atlas-20261205t063012z");
    expect(alice.key).toMatch(/^kubespaces\/[0-9a-f]{32}\/team-atlas-20261205t063012z\.tar\.gz$/);
    expect(bob.key).not.toBe(alice.key);
    expect(alice.url).toBe(`s3://snaps/${alice.key}`);
    expect(JSON.parse(alice.options)).toEqual({
      type: "s3",
      s3: {
        bucket: "snaps",
        key: alice.key,
        region: "eu-west-1",
        "access-key-id": "AKIDEXAMPLE",
        "secret-access-key": "wJalrXUtnFEMI",
        "force-path-style": true,
        url: "http://127.0.0.1:9000",
      },
    });
  });

  it("asks the bucket whether an object exists with a signed HEAD request", async () => {
    const seen: string[] = [];
    const server = http.createServer((request, response) => {
      seen.push(`${request.method} ${request.url} ${String(request.headers.authorization).split(" ")[0]}`);
      response.statusCode = request.url?.endsWith("/there.tar.gz") ? 200 : 404;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const store = new SnapshotStore({
        bucket: "snaps",
        region: "us-east-1",
        forcePathStyle: true,
        prefix: "",
        url,
        ...keys(),
      });
      expect(await store.exists(store.objectOf("alice", "there"))).toBe(true);
      expect(await store.exists(store.objectOf("alice", "gone"))).toBe(false);
      expect(seen[0]).toMatch(/^HEAD \/snaps\/[0-9a-f]{32}\/there\.tar\.gz AWS4-HMAC-SHA256$/);
    } finally {
      server.close();
    }
  });
});

describe("what a Tenant asks of its snapshots", () => {
  const tenant = (annotations: Record<string, string>, status: Record<string, unknown> = {}) =>
    ({
      metadata: { name: "team-atlas", generation: 1, annotations },
      spec: {},
      status: { phase: "Ready", conditions: [], message: "", ...status },
    }) as unknown as TenantResource;

  it("is pending until the status names the ask served", () => {
    expect(pendingSnapshot(tenant({ "kubespaces.io/snapshot": "a" }))).toBe("a");
    expect(pendingSnapshot(tenant({ "kubespaces.io/snapshot": "a" }, { snapshotRequest: "a" }))).toBeUndefined();
    expect(pendingRestore(tenant({ "kubespaces.io/restore-from": "s1" }, { restoredFrom: "s0" }))).toBe("s1");
    expect(pendingRestore(tenant({}))).toBeUndefined();
    expect(snapshotName("team-atlas", new Date("2026-12-05T06:30:12.345Z"))).toBe("team-atlas-20261205t063012z");
  });
});
