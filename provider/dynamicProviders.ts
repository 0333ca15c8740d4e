/**
 * The implementations behind the TypeScript dynamic resources TenantReadiness and TenantCleanup.
 * The engine runs dynamic providers in a separate process from serialized code; to keep that code
 * small and free of captured modules, the resources' providers only `require` this module by its
 * package name (`@kubespaces/pulumi/dynamic-providers`) and forward each call here.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  awaitTenantReady,
  READINESS_INPUT_KEYS,
  REPLACE_ON_CHANGE,
  rereadTenantKubeconfig,
  type ReadinessInputs,
  type ReadinessOutputs,
} from "./readiness/readinessOperations";
import { LEFTOVER_INPUT_KEYS, removeLeftovers, type LeftoverInputs } from "./teardown/leftovers";
import { changedKeys } from "./util/changedKeys";

// Dynamic providers run outside the engine's logging: progress goes to stderr, which the CLI
// shows as diagnostics.
const progressOf = (tenant: string) => (message: string) => console.error(`kubespaces: tenant ${tenant}: ${message}`);

/** Waits for the virtual cluster on create and update; re-reads the kubeconfig on refresh. */
export const readinessProvider: pulumi.dynamic.ResourceProvider<ReadinessInputs, ReadinessOutputs> = {
  async create(inputs) {
    const outs = await awaitTenantReady(inputs, progressOf(inputs.tenantName));
    return { id: `${inputs.namespace}/${inputs.releaseName}`, outs };
  },

  async diff(_id, olds, news) {
    const changes = changedKeys(olds, news, READINESS_INPUT_KEYS);
    return { changes: changes.length > 0, replaces: changes.filter((key) => REPLACE_ON_CHANGE.includes(key)) };
  },

  async update(_id, _olds, news) {
    return { outs: await awaitTenantReady(news, progressOf(news.tenantName)) };
  },

  async read(id, props) {
    const outs = props && (await rereadTenantKubeconfig(props));
    // An empty id tells the engine the resource is gone, so that the next `up` waits again.
    return outs ? { id, props: outs } : { id: "" };
  },
};

/** Nothing on create; removes the tenant's leftovers on delete. */
export const cleanupProvider: pulumi.dynamic.ResourceProvider<LeftoverInputs, LeftoverInputs> = {
  async create(inputs) {
    return { id: `${inputs.namespace}/${inputs.releaseName}`, outs: inputs };
  },

  async diff(_id, olds, news) {
    return { changes: changedKeys(olds, news, LEFTOVER_INPUT_KEYS).length > 0 };
  },

  async update(_id, _olds, news) {
    return { outs: news };
  },

  async delete(_id, props) {
    const deleted = await removeLeftovers(props);
    if (deleted.length > 0) progressOf(props.tenantName)(`removed ${deleted.join(", ")}`);
  },
};
