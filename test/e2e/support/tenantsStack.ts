/**
 * A stack of the e2e tenants program on the test bed, through the Pulumi Automation API with a
 * local file backend, and what its operations did, read from the engine's events.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { LocalWorkspace, type EngineEvent, type Stack } from "@pulumi/pulumi/automation";
import { REPO_ROOT, testbedEnv } from "./testbed";

/** A tenant as the e2e program takes it from config. */
export interface TenantDecl {
  readonly name: string;
  readonly owner?: string;
  readonly resources?: Record<string, unknown>;
  readonly exposure?: Record<string, unknown>;
  readonly limitRange?: Record<string, unknown>;
  readonly kubernetesVersion?: string;
  readonly readinessTimeoutSeconds?: number;
  readonly isolation?: Record<string, unknown>;
  /** `platform.namespaceAccess`: a ClusterRole bound in the tenant namespace. */
  readonly namespaceAccess?: Record<string, unknown>;
  /** `false` turns the chart's data volume off (the chart then renders a Deployment). */
  readonly persistence?: boolean;
  /** Annotations on the vCluster workload, e.g. {@link HOLD_CONTROL_PLANE} to keep its control plane from starting. */
  readonly statefulSetAnnotations?: Record<string, string>;
}

/** One resource step the engine reported. */
export interface Step {
  readonly op: string;
  readonly type: string;
  readonly name: string;
}

/**
 * Test-bed hook, not vCluster: while a vCluster workload carries this annotation set to "true", the
 * test bed's runner (test/testbed/vclusterRunner.ts) does not start its control plane, as a node
 * that cannot start the container; removing it starts it.
 */
export const HOLD_CONTROL_PLANE = "kubespaces.io/testbed-hold-control-plane";

const PROGRAM_DIR = path.join(REPO_ROOT, "test/e2e/programs/tenants");

/**
 * Stack `name` of the tenants program with `tenants` in its config, emptied first: a run that was
 * interrupted leaves its stack behind, and a second one must not trip over its objects.
 */
export async function tenantsStack(name: string, tenants: readonly TenantDecl[]): Promise<Stack> {
  const env = testbedEnv();
  // The Automation API finds the pulumi CLI on this process's PATH.
  Object.assign(process.env, env);
  const stateDir = path.join(env.KUBESPACES_TESTBED_DIR, "pulumi-state");
  mkdirSync(stateDir, { recursive: true });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: name, workDir: PROGRAM_DIR },
    { envVars: { ...env, PULUMI_BACKEND_URL: `file://${stateDir}` } },
  );
  // The real vCluster chart the test bed packaged from the pinned module.
  await stack.setConfig("chartPath", { value: env.KUBESPACES_VCLUSTER_CHART });
  // The test bed's API server, which the platform names as the host API server's endpoint.
  await stack.setConfig("apiServer", { value: env.KUBESPACES_TESTBED_SERVER });
  await setTenants(stack, []);
  await stack.up();
  await setTenants(stack, tenants);
  return stack;
}

/** Destroys the stack's resources and removes the stack. */
export async function removeStack(stack: Stack | undefined): Promise<void> {
  if (!stack) return;
  await stack.destroy();
  await stack.workspace.removeStack(stack.name);
}

/** Replaces the tenants the stack declares. */
export async function setTenants(stack: Stack, tenants: readonly TenantDecl[]): Promise<void> {
  await stack.setConfig("tenants", { value: JSON.stringify(tenants) });
}

/** Collects resource steps from engine events; pass `record` as `onEvent`. */
export function stepRecorder(): { steps: Step[]; record: (event: EngineEvent) => void } {
  const steps: Step[] = [];
  const record = (event: EngineEvent) => {
    const meta = event.resourcePreEvent?.metadata;
    if (!meta) return;
    const name = meta.urn.split("::").pop() ?? "";
    steps.push({ op: meta.op, type: meta.type, name });
  };
  return { steps, record };
}

/**
 * Steps other than `same`, leaving out the stack and default providers, as the CLI's preview does.
 * (The default pulumi-nodejs provider takes the stack's config as inputs, so any config change
 * "updates" it; the CLI does not show that.)
 */
export function changes(steps: readonly Step[]): Step[] {
  const isDefaultProvider = (s: Step) => s.type.startsWith("pulumi:providers:") && s.name.startsWith("default");
  return steps.filter((s) => s.op !== "same" && s.type !== "pulumi:pulumi:Stack" && !isDefaultProvider(s));
}

/**
 * Every file the local backend keeps for the stack (state, backups, history), as stored: secrets
 * must appear there only as ciphertext. (`stack.exportStack()` decrypts, so it cannot tell.)
 */
export function storedStateText(stack: Stack): string {
  const backend = path.join(testbedEnv().KUBESPACES_TESTBED_DIR, "pulumi-state", ".pulumi");
  const files = walk(backend).filter((file) => file.includes(`/${stack.name}.`) || file.includes(`/${stack.name}/`));
  if (files.length === 0) throw new Error(`no state files of stack ${stack.name} under ${backend}`);
  return files.map((file) => readFileSync(file, "utf8")).join("\n");
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}
