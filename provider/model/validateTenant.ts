/**
 * Turns a tenant's raw inputs into a TenantSpec, or reports every problem at once: the zod rules
 * first, then the rules that relate one field to another.
 */
import type { z } from "zod";
import { secretFieldNames } from "../util/zodFields";
import { unsafeOverridePaths } from "./overridesGuard";
import { footprintProblems } from "./vclusterFootprint";
import { quantityValue } from "./quantity";
import { apiHostname, appsDomain, defaultNamespace, releaseName } from "./names";
import { DNS_LABEL, tenantArgsSchema, type TenantArgsComplete } from "./tenantArgsSchema";
import type { TenantSpec } from "./tenantSpec";
import { TenantValidationError, type InputProblem } from "./validationError";

/** Top-level inputs whose values are secret. */
const SECRET_INPUTS = new Set<string>(secretFieldNames(tenantArgsSchema));

/** Helm release names are at most 53 characters. */
const MAX_RELEASE_NAME = 53;

/** Options that depend on the rest of the program rather than on the tenant alone. */
export interface ValidationContext {
  /** The tenant that already claimed a namespace in this program, if any. */
  readonly namespaceOwner?: (namespace: string) => string | undefined;
}

/** Validates `input` for tenant `name`; throws TenantValidationError listing every problem. */
export function validateTenant(name: string, input: unknown, context: ValidationContext = {}): TenantSpec {
  const problems = nameProblems(name);
  const parsed = tenantArgsSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) problems.push(...parsed.error.issues.map((issue) => toProblem(issue)));
  else problems.push(...relationProblems(name, parsed.data, context));
  if (problems.length > 0) throw new TenantValidationError(name, problems);
  return toSpec(name, (parsed as { data: TenantArgsComplete }).data);
}

function nameProblems(name: string): InputProblem[] {
  if (name.length > MAX_RELEASE_NAME) return [{ path: "", message: `must be at most ${MAX_RELEASE_NAME} characters (a Helm release name), got ${name.length}` }];
  if (!DNS_LABEL.test(name)) {
    return [{ path: "", message: `must be a DNS-1123 label (lower-case letters, digits and '-'), got "${name}"` }];
  }
  // The release names a Service after the tenant, and Service names must start with a letter.
  if (!/^[a-z]/.test(name)) return [{ path: "", message: `must start with a letter (it names the vCluster's Service), got "${name}"` }];
  return [];
}

/** A zod issue as an InputProblem, its path prefixed with `prefix`. */
export function toProblem(issue: z.core.$ZodIssue, prefix: readonly string[] = []): InputProblem {
  const path = [...prefix, ...issue.path.map(String)].join(".");
  if (issue.code === "unrecognized_keys") {
    return { path, message: `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(", ")}` };
  }
  if (issue.code === "invalid_type") {
    if (issue.input === undefined) return { path, message: "is required" };
    const received = issue.input === null ? "null" : Array.isArray(issue.input) ? "array" : typeof issue.input;
    return { path, message: `must be ${article(issue.expected)} ${issue.expected}, got ${received}` };
  }
  // Secret fields (the host kubeconfig) are never quoted: Pulumi prints errors unmasked.
  const quotable = typeof issue.input === "string" && !SECRET_INPUTS.has(String(issue.path[0] ?? prefix[0]));
  const got = quotable ? ` (got "${issue.input}")` : "";
  return { path, message: `${issue.message}${got}` };
}

function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? "an" : "a";
}

function relationProblems(name: string, args: TenantArgsComplete, context: ValidationContext): InputProblem[] {
  const namespace = args.targetNamespace ?? defaultNamespace(name);
  return [
    ...namespaceProblems(name, namespace, args, context),
    ...notAbove("limitRange.defaultRequest", args.limitRange.defaultRequest, "limitRange.defaultLimit", args.limitRange.defaultLimit),
    ...notAbove("limitRange.defaultLimit", args.limitRange.defaultLimit, "resources", args.resources),
    ...notAbove(
      "vcluster.controlPlaneResources.requests",
      args.vcluster.controlPlaneResources.requests,
      "vcluster.controlPlaneResources.limits",
      args.vcluster.controlPlaneResources.limits,
    ),
    ...notAbove("vcluster.controlPlaneResources.limits", args.vcluster.controlPlaneResources.limits, "resources", args.resources),
    ...hostnameProblems(name, args),
    ...overrideProblems(args),
    // The footprint reads the overrides, so it is checked only once they are known to be safe.
    ...(overrideProblems(args).length === 0 ? footprintProblems(args) : []),
  ];
}

function namespaceProblems(name: string, namespace: string, args: TenantArgsComplete, context: ValidationContext): InputProblem[] {
  const path = args.targetNamespace === undefined ? "" : "targetNamespace";
  if (namespace.length > 63) {
    return [{ path, message: `gives namespace "${namespace}" of ${namespace.length} characters (at most 63); choose a shorter name or set targetNamespace` }];
  }
  if (isReservedNamespace(namespace, args)) {
    return [{ path: path || "targetNamespace", message: `namespace "${namespace}" is reserved for the cluster or the platform (kube-*, default, the gateway namespace)` }];
  }
  const owner = context.namespaceOwner?.(namespace);
  if (owner !== undefined && owner !== name) {
    return [{ path: path || "targetNamespace", message: `namespace "${namespace}" is already claimed by Tenant "${owner}" in this program` }];
  }
  return [];
}

type CpuMemory = { cpu: string; memory: string };

/** Each of cpu and memory of `lower` must not exceed the same field of `upper`. */
function notAbove(lowerPath: string, lower: CpuMemory, upperPath: string, upper: CpuMemory): InputProblem[] {
  return (["cpu", "memory"] as const)
    .filter((field) => quantityValue(lower[field]) > quantityValue(upper[field]))
    .map((field) => ({
      path: `${lowerPath}.${field}`,
      message: `${lower[field]} must not exceed ${upperPath}.${field} (${upper[field]})`,
    }));
}

function hostnameProblems(name: string, args: TenantArgsComplete): InputProblem[] {
  if (!args.exposure) return [];
  const host = apiHostname(name, args.exposure.baseDomain);
  const longLabel = args.exposure.baseDomain.split(".").find((label) => label.length > 63);
  if (longLabel) return [{ path: "exposure.baseDomain", message: `has a label longer than 63 characters ("${longLabel}")` }];
  if (host.length > 253) return [{ path: "exposure.baseDomain", message: `makes the API hostname "${host}" longer than 253 characters` }];
  return [];
}

function overrideProblems(args: TenantArgsComplete): InputProblem[] {
  if (args.vcluster.allowUnsafeOverrides) return [];
  const unsafe = unsafeOverridePaths(args.vcluster.valuesOverrides);
  if (unsafe.length === 0) return [];
  return [
    {
      path: "vcluster.valuesOverrides",
      message: `sets paths outside the self-service allowlist: ${unsafe.join(", ")} (see SAFE_OVERRIDE_PATHS in the README, or set vcluster.allowUnsafeOverrides: true)`,
    },
  ];
}

function toSpec(name: string, args: TenantArgsComplete): TenantSpec {
  const { hostKubeconfig: _kubeconfig, targetNamespace, ...rest } = args;
  const namespace = targetNamespace ?? defaultNamespace(name);
  const exposure = args.exposure;
  const endpoints = exposure && {
    apiHostname: apiHostname(name, exposure.baseDomain),
    apiServerUrl: `https://${apiHostname(name, exposure.baseDomain)}:443`,
    appsDomain: appsDomain(name, exposure.baseDomain),
  };
  return { ...rest, name, namespace, releaseName: releaseName(name), ...(endpoints && { endpoints }) };
}

/** Namespaces a tenant may never be put in: the cluster's own and the shared gateway's. */
function isReservedNamespace(namespace: string, args: TenantArgsComplete): boolean {
  return namespace === "default" || namespace.startsWith("kube-") || namespace === args.exposure?.gateway.namespace;
}
