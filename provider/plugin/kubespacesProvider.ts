/**
 * The kubespaces provider plugin: constructs Tenants for every Pulumi language, and serves the
 * TenantHostCheck, TenantAccessCheck, TenantReadiness and TenantCleanup custom resources those
 * Tenants create, with the same operations as the TypeScript dynamic resources.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Provider } from "@pulumi/pulumi/provider";
import { NamespaceClaims } from "../component/namespaceClaims";
import { Tenant } from "../component/tenant";
import type { TenantArgs } from "../generated/tenantTypes";
import { cleanupInputsSchema } from "../contracts/cleanupSchema";
import { pluginLifecycleResources } from "../lifecycle/lifecycleResources";
import { readinessInputsSchema } from "../contracts/readinessSchema";
import { hostCheckInputsSchema } from "../contracts/hostCheckSchema";
import { accessCheckInputsSchema } from "../contracts/accessCheckSchema";
import {
  accessCheckOperations,
  cleanupOperations,
  hostCheckOperations,
  readinessOperations,
  type ProgressSink,
} from "../lifecycle/resourceOperations";
import { TENANT_OUTPUT_NAMES } from "../model/tenantOutputsSchema";
import {
  TENANT_ACCESS_CHECK_TOKEN,
  TENANT_CLEANUP_TOKEN,
  TENANT_HOST_CHECK_TOKEN,
  TENANT_READINESS_TOKEN,
  TENANT_TOKEN,
} from "../model/tokens";
import { unwrapSecrets } from "./secretInputs";

const typeOf = (urn: string): string => urn.split("::")[2]?.split("$").pop() ?? "";

/** Progress attached to the resource `urn`, shown by the CLI beside it. */
const toResource =
  (urn: string): ProgressSink =>
  () =>
  (message) => {
    const resource = { urn: pulumi.output(urn) } as unknown as pulumi.Resource;
    void pulumi.log.info(message, resource);
  };

/** The operations and input schema of each custom resource the plugin serves. */
const CUSTOM_RESOURCES = {
  [TENANT_READINESS_TOKEN]: { operations: readinessOperations, inputs: readinessInputsSchema },
  [TENANT_CLEANUP_TOKEN]: { operations: cleanupOperations, inputs: cleanupInputsSchema },
  [TENANT_HOST_CHECK_TOKEN]: { operations: hostCheckOperations, inputs: hostCheckInputsSchema },
  [TENANT_ACCESS_CHECK_TOKEN]: { operations: accessCheckOperations, inputs: accessCheckInputsSchema },
} as const;

function customResource(urn: string) {
  const served = CUSTOM_RESOURCES[typeOf(urn) as keyof typeof CUSTOM_RESOURCES];
  if (!served) throw new Error(`kubespaces: unknown resource type ${typeOf(urn)}`);
  return served;
}

/** The operations of the custom resource `urn` names. */
function operationsFor(urn: string): Required<pulumi.dynamic.ResourceProvider> {
  return {
    ...DEFAULT_OPERATIONS,
    ...customResource(urn).operations(toResource(urn)),
  } as Required<pulumi.dynamic.ResourceProvider>;
}

/** What an operation a resource does not define does: keep what it has, delete nothing. */
const DEFAULT_OPERATIONS: Partial<pulumi.dynamic.ResourceProvider> = {
  read: async (id, props) => ({ id, props }),
  update: async (_id, _olds, news) => ({ outs: news }),
  delete: async () => undefined,
};

/** The provider for package `kubespaces` at `version`, answering `getSchema` with `schema`. */
export function kubespacesProvider(version: string, schema: string): Provider {
  // One provider serves one deployment: its Tenants share one set of namespace claims.
  const context = { lifecycle: pluginLifecycleResources(version), claims: new NamespaceClaims() };
  return {
    version,
    schema,

    async construct(name, type, inputs, options) {
      if (type !== TENANT_TOKEN) throw new Error(`kubespaces: unknown component type ${type}`);
      const tenant = new Tenant(name, inputs as unknown as TenantArgs, options, context);
      const state = Object.fromEntries(TENANT_OUTPUT_NAMES.map((key) => [key, tenant[key]]));
      return { urn: tenant.urn, state };
    },

    async check(urn, _olds, news) {
      const parsed = customResource(urn).inputs.safeParse(unwrapSecrets(news));
      // The wrapped inputs go back, so that the engine keeps them secret.
      if (parsed.success) return { inputs: news };
      return {
        failures: parsed.error.issues.map((issue) => ({ property: issue.path.join("."), reason: issue.message })),
      };
    },

    diff: (id, urn, olds, news) => operationsFor(urn).diff(id, unwrapSecrets(olds), unwrapSecrets(news)),
    create: (urn, inputs) => operationsFor(urn).create(unwrapSecrets(inputs)),
    update: (id, urn, olds, news) => operationsFor(urn).update(id, unwrapSecrets(olds), unwrapSecrets(news)),
    read: (id, urn, props) => operationsFor(urn).read(id, unwrapSecrets(props)),
    delete: (id, urn, props) => operationsFor(urn).delete(id, unwrapSecrets(props)),
  };
}
