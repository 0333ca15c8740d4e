/**
 * The kubespaces provider plugin: constructs Tenants for every Pulumi language, and serves the
 * TenantReadiness and TenantCleanup custom resources those Tenants create, with the same
 * operations as the TypeScript dynamic resources.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Provider } from "@pulumi/pulumi/provider";
import { Tenant, tenantOutputs } from "../component/tenant";
import type { TenantArgs } from "../generated/tenantTypes";
import { readinessInputsSchema } from "../readiness/readinessSchema";
import { cleanupOperations, readinessOperations, type ProgressSink } from "../resourceOperations";
import { TENANT_CLEANUP_TOKEN, TENANT_READINESS_TOKEN, TENANT_TOKEN } from "../schema/packageSchema";
import { leftoverInputsSchema } from "../teardown/cleanupSchema";

const typeOf = (urn: string): string => urn.split("::")[2]?.split("$").pop() ?? "";

/** Progress attached to the resource `urn`, shown by the CLI beside it. */
const toResource =
  (urn: string): ProgressSink =>
  () =>
  (message) => {
    const resource = { urn: pulumi.output(urn) } as unknown as pulumi.Resource;
    void pulumi.log.info(message, resource);
  };

/** The operations of the custom resource `urn` names. */
function operationsFor(urn: string): Required<pulumi.dynamic.ResourceProvider> {
  const type = typeOf(urn);
  const build = type === TENANT_READINESS_TOKEN ? readinessOperations : type === TENANT_CLEANUP_TOKEN ? cleanupOperations : undefined;
  if (!build) throw new Error(`kubespaces: unknown resource type ${type}`);
  return { ...DEFAULT_OPERATIONS, ...build(toResource(urn)) } as Required<pulumi.dynamic.ResourceProvider>;
}

/** What an operation a resource does not define does: keep what it has, delete nothing. */
const DEFAULT_OPERATIONS: Partial<pulumi.dynamic.ResourceProvider> = {
  read: async (id, props) => ({ id, props }),
  update: async (_id, _olds, news) => ({ outs: news }),
  delete: async () => undefined,
};

/** The provider for package `kubespaces` at `version`, answering `getSchema` with `schema`. */
export function kubespacesProvider(version: string, schema: string): Provider {
  return {
    version,
    schema,

    async construct(name, type, inputs, options) {
      if (type !== TENANT_TOKEN) throw new Error(`kubespaces: unknown component type ${type}`);
      const tenant = new Tenant(name, inputs as unknown as TenantArgs, options);
      return { urn: tenant.urn, state: tenantOutputs(tenant) };
    },

    async check(urn, _olds, news) {
      const inputsSchema = typeOf(urn) === TENANT_READINESS_TOKEN ? readinessInputsSchema : leftoverInputsSchema;
      const parsed = inputsSchema.safeParse(news);
      if (parsed.success) return { inputs: news };
      return { failures: parsed.error.issues.map((issue) => ({ property: issue.path.join("."), reason: issue.message })) };
    },

    diff: (id, urn, olds, news) => operationsFor(urn).diff(id, olds, news),
    create: (urn, inputs) => operationsFor(urn).create(inputs),
    update: (id, urn, olds, news) => operationsFor(urn).update(id, olds, news),
    read: (id, urn, props) => operationsFor(urn).read(id, props),
    delete: (id, urn, props) => operationsFor(urn).delete(id, props),
  };
}
