/**
 * The CRUD operations of the TenantHostCheck, TenantAccessCheck, TenantReadiness and TenantCleanup
 * resources, written once for both places that serve them: the TypeScript dynamic provider process
 * and the provider plugin. Each says where progress messages go.
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
import {
  CLEANUP_INPUT_KEYS,
  removeLeftovers,
  removeStaleCertificateSecret,
  type CleanupInputs,
} from "./cleanup/leftovers";
import { changedKeys } from "../util/changedKeys";
import { fieldNames } from "../util/zodFields";
import { checkNewHost, needsRecording, recheckHost } from "./hostCheck/hostCheckOperations";
import { hostCheckInputsSchema, type HostCheckInputs, type StoredHostCheck } from "../contracts/hostCheckSchema";
import { assertSameHost } from "./hostIdentity";
import { accessCheckInputsSchema, type AccessCheckInputs } from "../contracts/accessCheckSchema";
import { awaitNamespaceAccess } from "./accessCheck/namespaceAccessWait";

const HOST_CHECK_INPUT_KEYS = fieldNames(hostCheckInputsSchema);
const ACCESS_CHECK_INPUT_KEYS = fieldNames(accessCheckInputsSchema);

/** Where a resource operation reports progress, given the tenant's name. */
export type ProgressSink = (tenant: string) => (message: string) => void;

/** Waits for the virtual cluster on create and update; re-reads the kubeconfig on refresh. */
export function readinessOperations(
  progress: ProgressSink,
): pulumi.dynamic.ResourceProvider<ReadinessInputs, ReadinessOutputs> {
  return {
    async create(inputs) {
      const outs = await awaitTenantReady(inputs, progress(inputs.tenantName));
      return { id: `${inputs.namespace}/${inputs.releaseName}`, outs };
    },
    async diff(_id, olds, news) {
      const changes = changedKeys(olds, news, READINESS_INPUT_KEYS);
      return { changes: changes.length > 0, replaces: changes.filter((key) => REPLACE_ON_CHANGE.includes(key)) };
    },
    async update(_id, _olds, news) {
      return { outs: await awaitTenantReady(news, progress(news.tenantName)) };
    },
    async read(id, props) {
      const outs = props && (await rereadTenantKubeconfig(props));
      // No id tells the engine the resource is gone, so that the next `up` waits again.
      return outs ? { id, props: outs } : {};
    },
    // Readiness depends on every other child, so a destroy deletes it first: checking the host here
    // stops a destroy pointed at another cluster before anything is deleted.
    async delete(_id, props) {
      await assertSameHost(props.tenantName, "delete", props.hostUid, props.hostKubeconfig);
    },
  };
}

/** Nothing on create; removes the tenant's leftovers on delete. */
export function cleanupOperations(
  progress: ProgressSink,
): pulumi.dynamic.ResourceProvider<CleanupInputs, CleanupInputs> {
  return {
    async create(inputs) {
      return { id: `${inputs.namespace}/${inputs.releaseName}`, outs: inputs };
    },
    async diff(_id, olds, news) {
      return { changes: changedKeys(olds, news, CLEANUP_INPUT_KEYS).length > 0 };
    },
    async update(_id, olds, news) {
      // Exposure removed or moved: cert-manager leaves the old certificate's Secret (a private key).
      const deleted = await removeStaleCertificateSecret(olds, news);
      if (deleted.length > 0) progress(news.tenantName)(`removed ${deleted.join(", ")}`);
      return { outs: news };
    },
    async delete(_id, props) {
      const deleted = await removeLeftovers(props);
      if (deleted.length > 0) progress(props.tenantName)(`removed ${deleted.join(", ")}`);
    },
  };
}

/**
 * Refuses a namespace that is not this stack's tenant's and records the host's identity and the
 * stack's owner id, before the namespace exists. Only create generates an owner id; update keeps
 * the recorded one (and generates one only for a state that has none yet).
 */
export function hostCheckOperations(): pulumi.dynamic.ResourceProvider<HostCheckInputs, StoredHostCheck> {
  return {
    async create(inputs) {
      return { id: `${inputs.namespace}/${inputs.tenantName}`, outs: await checkNewHost(inputs) };
    },
    // olds is the stored state (outputs): one without an owner id is updated, so that it gets one.
    async diff(_id, olds, news) {
      return { changes: changedKeys(olds, news, HOST_CHECK_INPUT_KEYS).length > 0 || needsRecording(olds) };
    },
    async update(_id, olds, news) {
      return { outs: await recheckHost(olds, news) };
    },
  };
}

/**
 * Waits, on create and on an update, until the namespace's access binding lets the stack's runner
 * create there (accessCheck/namespaceAccessWait.ts); nothing to undo on delete.
 */
export function accessCheckOperations(
  progress: ProgressSink,
): pulumi.dynamic.ResourceProvider<AccessCheckInputs, AccessCheckInputs> {
  return {
    async create(inputs) {
      await awaitNamespaceAccess(inputs, progress(inputs.tenantName));
      return { id: `${inputs.namespace}/${inputs.roleBinding}`, outs: inputs };
    },
    async diff(_id, olds, news) {
      return { changes: changedKeys(olds, news, ACCESS_CHECK_INPUT_KEYS).length > 0 };
    },
    async update(_id, _olds, news) {
      await awaitNamespaceAccess(news, progress(news.tenantName));
      return { outs: news };
    },
  };
}
