/**
 * Pulumi mocks for unit tests: records every registered resource, returns inputs as outputs (with
 * the values a real provider would compute for the few outputs the component reads), and fails on
 * any invoke the tests do not expect.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach } from "vitest";
import type { ReadinessResult } from "../../../provider/contracts/readinessSchema";
import type { HostCheckResult } from "../../../provider/contracts/hostCheckSchema";
import { TENANT_HOST_CHECK_NAME, TENANT_READINESS_NAME } from "../../../provider/model/tokens";

/** A resource as the mocks saw it. */
export interface Registered {
  readonly type: string;
  readonly name: string;
  readonly inputs: Record<string, any>;
  readonly provider?: string;
}

/** The graph options of a registration, as the engine would receive them (mocks do not see them). */
export interface RegisteredEdges {
  /** URN of the parent. */
  readonly parent: string;
  /** URNs this resource depends on: explicit `dependsOn` and the resources its inputs come from. */
  readonly dependencies: readonly string[];
  /** URN of the `deletedWith` resource, or "". */
  readonly deletedWith: string;
  /** Whether a replacement deletes the old object before creating the new one. */
  readonly deleteBeforeReplace: boolean;
  /** Whether deleting the resource leaves its object in the cluster. */
  readonly retainOnDelete: boolean;
}

/** Edges of every registration of the program by resource name, filled in by installMocks (emptied for each program). */
export const registeredEdges = new Map<string, RegisteredEdges>();

/** Outputs that real providers compute and the component reads. */
function computedOutputs(args: pulumi.runtime.MockResourceArgs): Record<string, unknown> {
  if (args.type === "kubernetes:helm.sh/v3:Release") return { status: { revision: 1, status: "deployed" } };
  if (args.type.endsWith(`:${TENANT_HOST_CHECK_NAME}`)) {
    const result: HostCheckResult = { hostUid: "uid-of-kube-system", ownerId: "owner-id-of-this-stack" };
    return result;
  }
  if (args.type.endsWith(`:${TENANT_READINESS_NAME}`)) {
    const result: ReadinessResult = {
      kubeconfig: "apiVersion: v1\nkind: Config\n",
      readyAt: "2026-11-30T00:00:00.000Z",
      waitedMs: 1500,
      apiRequests: 4,
    };
    return result;
  }
  return {};
}

/** Installs recording mocks; `dryRun` true mimics `pulumi preview`. Returns the live record. */
export function installMocks(dryRun = false): Registered[] {
  const registered: Registered[] = [];
  registeredEdges.clear();
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider });
        return {
          id: dryRun ? undefined : `${args.name}-id`,
          state: { ...args.inputs, ...(dryRun ? {} : computedOutputs(args)) },
        };
      },
      call(args) {
        throw new Error(`unexpected invoke ${args.token}`);
      },
    },
    "kubespaces-unit",
    "test",
    dryRun,
  );
  recordEdges();
  return registered;
}

/**
 * Each test of the enclosing suite a program of its own: mocks installed before it, and its
 * registrations settled after it, so that the next starts clean. Returns what the test's program
 * registered, as it happens.
 */
export function programEach(): () => Registered[] {
  let registered: Registered[] = [];
  beforeEach(() => {
    registered = installMocks();
  });
  afterEach(settle);
  return () => registered;
}

/** The registrations as "type name", sorted: they reach the mocks in no fixed order. */
export function typesAndNames(registered: readonly Registered[]): string[] {
  return registered.map((r) => `${r.type} ${r.name}`).sort();
}

/** URNs the mock monitor registered; they carry each resource's parent chain. */
export function registeredUrns(): string[] {
  return [...(pulumi.runtime as any).getMonitor().getRegisteredResources().keys()];
}

/** The URN of the registered resource named `name`. */
export function registeredUrnOf(name: string): string | undefined {
  return registeredUrns().find((urn) => urn.endsWith(`::${name}`));
}

/** The value of an Output, or `undefined` when it is unknown (as in preview). */
export function valueOf<T>(output: pulumi.Output<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    // isKnown resolves before the value: an unknown output never calls apply.
    void (output as unknown as { isKnown: Promise<boolean> }).isKnown.then((known) => {
      if (!known) resolve(undefined);
    });
    output.apply((value) => resolve(value));
  });
}

/** How an Output settled: its value, or the error it failed with (which `valueOf` would wait for forever). */
export function outcomeOf<T>(output: pulumi.Output<T>): Promise<PromiseSettledResult<T>> {
  const settled = (output as unknown as { promise(): Promise<T> }).promise();
  return settled.then(
    (value) => ({ status: "fulfilled", value }),
    (reason: unknown) => ({ status: "rejected", reason }),
  );
}

/** True when the Output is marked secret. */
export function isSecret(output: pulumi.Output<unknown>): Promise<boolean> {
  return (output as unknown as { isSecret: Promise<boolean> }).isSecret;
}

/** Resolves once every pending registration has reached the mocks (the SDK's own RPC queue drains). */
export function settle(): Promise<void> {
  return (pulumi.runtime as unknown as { waitForRPCs(): Promise<void> }).waitForRPCs();
}

/** Wraps the mock monitor so that each registration's parent, dependencies and deletedWith are recorded. */
function recordEdges(): void {
  const monitor = pulumi.runtime.getMonitor() as any;
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (request: any, callback: unknown) => {
    registeredEdges.set(request.getName(), {
      parent: request.getParent(),
      dependencies: request.getDependenciesList(),
      deletedWith: request.getDeletedwith(),
      deleteBeforeReplace: request.getDeletebeforereplace(),
      retainOnDelete: request.getRetainondelete(),
    });
    return register(request, callback);
  };
}
