/**
 * The resources a Tenant needs beyond Kubernetes objects: the host check before the namespace, the
 * access check after its access binding, the readiness wait and the teardown cleanup. A TypeScript
 * program gets them as dynamic resources; the provider plugin, where dynamic providers cannot load
 * (pulumi/pulumi#5455), uses custom resources it serves itself. Their output and secret lists come
 * from the zod schemas of their properties.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import {
  PACKAGE_NAME,
  TENANT_ACCESS_CHECK_NAME,
  TENANT_CLEANUP_NAME,
  TENANT_HOST_CHECK_NAME,
  TENANT_READINESS_NAME,
  indexToken,
} from "../model/tokens";
import { fieldNames, secretFieldNames } from "../util/zodFields";
import { accessCheckInputsSchema, type AccessCheckInputs } from "../contracts/accessCheckSchema";
import { cleanupInputsSchema, type CleanupInputs } from "../contracts/cleanupSchema";
import { forwardingProvider } from "./forwardingProvider";
import {
  hostCheckInputsSchema,
  hostCheckResultSchema,
  type HostCheckInputs,
  type HostCheckResult,
} from "../contracts/hostCheckSchema";
import {
  readinessInputsSchema,
  readinessResultSchema,
  type ReadinessInputs,
  type ReadinessResult,
} from "../contracts/readinessSchema";

/** Inputs of a lifecycle resource: each may be an Output. */
type InputsOf<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** Inputs of the readiness resource. */
export type ReadinessArgs = InputsOf<ReadinessInputs>;
/** Inputs of the cleanup resource. */
export type CleanupArgs = InputsOf<CleanupInputs>;

/** Inputs of the host check resource. */
export type HostCheckArgs = InputsOf<HostCheckInputs>;
/** Inputs of the access check resource. */
export type AccessCheckArgs = InputsOf<AccessCheckInputs>;

/** The host check as the Tenant reads it: the recorded identity of the host. */
export type HostCheckResource = pulumi.Resource & {
  readonly [K in keyof HostCheckResult]: pulumi.Output<HostCheckResult[K]>;
};

/** The readiness resource as the Tenant reads it: one Output per result field. */
export type ReadinessResource = pulumi.Resource & {
  readonly [K in keyof ReadinessResult]: pulumi.Output<ReadinessResult[K]>;
};

/** Factories of the lifecycle resources: the host check, the access check, the readiness wait and the cleanup. */
export interface LifecycleResources {
  /** Creates the host check. */
  hostCheck(name: string, args: HostCheckArgs, opts: pulumi.CustomResourceOptions): HostCheckResource;
  /** Creates the access check. */
  accessCheck(name: string, args: AccessCheckArgs, opts: pulumi.CustomResourceOptions): pulumi.Resource;
  /** Creates the readiness resource. */
  readiness(name: string, args: ReadinessArgs, opts: pulumi.CustomResourceOptions): ReadinessResource;
  /** Creates the cleanup resource. */
  cleanup(name: string, args: CleanupArgs, opts: pulumi.CustomResourceOptions): pulumi.Resource;
}

/** How one lifecycle resource is registered: its name, the outputs it adds and its secret properties. */
interface LifecycleKind {
  readonly name: string;
  readonly results?: z.ZodObject;
  readonly secrets: string[];
}

const READINESS: LifecycleKind = {
  name: TENANT_READINESS_NAME,
  results: readinessResultSchema,
  secrets: [...secretFieldNames(readinessInputsSchema), ...secretFieldNames(readinessResultSchema)],
};
const CLEANUP: LifecycleKind = { name: TENANT_CLEANUP_NAME, secrets: secretFieldNames(cleanupInputsSchema) };
const HOST_CHECK: LifecycleKind = {
  name: TENANT_HOST_CHECK_NAME,
  results: hostCheckResultSchema,
  secrets: [...secretFieldNames(hostCheckInputsSchema), ...secretFieldNames(hostCheckResultSchema)],
};
const ACCESS_CHECK: LifecycleKind = {
  name: TENANT_ACCESS_CHECK_NAME,
  secrets: secretFieldNames(accessCheckInputsSchema),
};

/** The inputs, plus an unknown placeholder for each output so that the engine fills it in. */
function propertiesOf(kind: LifecycleKind, args: object): pulumi.Inputs {
  const outputs = kind.results ? Object.fromEntries(fieldNames(kind.results).map((name) => [name, undefined])) : {};
  return { ...args, ...outputs };
}

function optionsOf(kind: LifecycleKind, opts: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: kind.secrets };
}

/** A dynamic resource of this package (the SDK's class is abstract). */
class DynamicLifecycleResource extends pulumi.dynamic.Resource {}

const readinessProvider = forwardingProvider("readinessProvider");
const cleanupProvider = forwardingProvider("cleanupProvider");
const hostCheckProvider = forwardingProvider("hostCheckProvider");
const accessCheckProvider = forwardingProvider("accessCheckProvider");

/** Dynamic resources, for TypeScript programs. */
export const dynamicLifecycleResources: LifecycleResources = {
  readiness: (name, args, opts) =>
    new DynamicLifecycleResource(
      readinessProvider,
      name,
      propertiesOf(READINESS, args),
      optionsOf(READINESS, opts),
      PACKAGE_NAME,
      READINESS.name,
    ) as unknown as ReadinessResource,
  cleanup: (name, args, opts) =>
    new DynamicLifecycleResource(
      cleanupProvider,
      name,
      propertiesOf(CLEANUP, args),
      optionsOf(CLEANUP, opts),
      PACKAGE_NAME,
      CLEANUP.name,
    ),
  hostCheck: (name, args, opts) =>
    new DynamicLifecycleResource(
      hostCheckProvider,
      name,
      propertiesOf(HOST_CHECK, args),
      optionsOf(HOST_CHECK, opts),
      PACKAGE_NAME,
      HOST_CHECK.name,
    ) as unknown as HostCheckResource,
  accessCheck: (name, args, opts) =>
    new DynamicLifecycleResource(
      accessCheckProvider,
      name,
      propertiesOf(ACCESS_CHECK, args),
      optionsOf(ACCESS_CHECK, opts),
      PACKAGE_NAME,
      ACCESS_CHECK.name,
    ),
};

/** A custom resource of the provider plugin (the SDK's class is abstract). */
class PluginLifecycleResource extends pulumi.CustomResource {}

/** The provider plugin's custom resources, at the plugin's `version`. */
export function pluginLifecycleResources(version: string): LifecycleResources {
  const custom = (kind: LifecycleKind, name: string, args: object, opts: pulumi.CustomResourceOptions) =>
    new PluginLifecycleResource(indexToken(kind.name), name, propertiesOf(kind, args), {
      ...optionsOf(kind, opts),
      version,
    });
  return {
    readiness: (name, args, opts) => custom(READINESS, name, args, opts) as unknown as ReadinessResource,
    cleanup: (name, args, opts) => custom(CLEANUP, name, args, opts),
    hostCheck: (name, args, opts) => custom(HOST_CHECK, name, args, opts) as unknown as HostCheckResource,
    accessCheck: (name, args, opts) => custom(ACCESS_CHECK, name, args, opts),
  };
}
