/**
 * Registers every child of a tenant in the edge table's creation order, each with the options its
 * row gives. The only values added here are the ones that come from Pulumi: the host kubeconfig,
 * the host identity and the owner id the check recorded and the Helm release's revision.
 */
import type * as k8s from "@pulumi/kubernetes";
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { childEdges, creationOrder } from "../graph/childEdges";
import type {
  RenderedAccessCheck,
  RenderedCleanup,
  RenderedHostCheck,
  RenderedReadiness,
} from "../render/lifecycleArgs";
import { childName, type ChildRole } from "../contracts/childRoles";
import { childRoles, objectSlots, type RenderedTenant } from "../render/renderTenant";
import type { TenantStructure } from "../model/tenantStructure";
import type { HostCheckResource, LifecycleResources, ReadinessResource } from "../lifecycle/lifecycleResources";
import { hostCheckInputsSchema } from "../contracts/hostCheckSchema";
import { accessCheckInputsSchema } from "../contracts/accessCheckSchema";
import { cleanupInputsSchema } from "../contracts/cleanupSchema";
import { PULUMI_SUPPLIED_INPUTS } from "../contracts/lifecycleInputs";
import { readinessInputsSchema } from "../contracts/readinessSchema";
import { fieldNames } from "../util/zodFields";
import { fieldsOf, mapPlainOrOutput, type PlainOrOutput } from "../util/plainOrOutput";
import { childOptions, type RegisteredChildren } from "./childOptions";
import { registerHelmRelease, registerObject, type KubernetesChildContext } from "./kubernetesChildren";

/** Everything registration needs besides the edge table. */
export interface ChildContext extends KubernetesChildContext {
  /** The Tenant component, parent of every child. */
  readonly parent: pulumi.Resource;
  /** Which children exist. */
  readonly structure: TenantStructure;
  /** Factories of the lifecycle resources: the host check, the access check, the readiness wait and the cleanup. */
  readonly lifecycle: LifecycleResources;
  /** The host kubeconfig the lifecycle operations read with (secret), if one was given. */
  readonly hostKubeconfig?: pulumi.Output<string>;
  /** What every child waits for when the inputs are validated once they resolve (deferredValidation.ts). */
  readonly verdict?: pulumi.Output<unknown>;
}

/** The registered children, and the readiness resource the outputs come from. */
export interface TenantChildren {
  /** Every child by role. */
  readonly byRole: RegisteredChildren;
  /** The readiness wait. */
  readonly readiness: ReadinessResource;
}

const FROM_PULUMI = new Set<string>(PULUMI_SUPPLIED_INPUTS);

/** The inputs of a lifecycle resource, by its schema, that the render fills: all but those from Pulumi. */
function renderedFields<T>(schema: z.ZodObject): (keyof T & string)[] {
  return fieldNames(schema).filter((key): key is keyof T & string => !FROM_PULUMI.has(key));
}

// Each lifecycle resource's part of the render, and the inputs it takes from there.
const RENDERED_FIELDS = {
  hostCheck: renderedFields<RenderedHostCheck>(hostCheckInputsSchema),
  accessCheck: renderedFields<RenderedAccessCheck>(accessCheckInputsSchema),
  readiness: renderedFields<RenderedReadiness>(readinessInputsSchema),
  cleanup: renderedFields<RenderedCleanup>(cleanupInputsSchema),
};

/** The inputs lifecycle resource `part` takes from the render: each plain when the render is, through its Output otherwise. */
function renderedInputs<K extends keyof typeof RENDERED_FIELDS>(rendered: PlainOrOutput<RenderedTenant>, part: K) {
  return fieldsOf(
    mapPlainOrOutput(rendered, (r) => r[part]),
    RENDERED_FIELDS[part] as (keyof RenderedTenant[K])[],
  );
}

/** Registers the children of the tenant in `context`. */
export function registerChildren(context: ChildContext): TenantChildren {
  const edges = childEdges(childRoles(context.structure));
  const slots = objectSlots(context.structure);
  const byRole = new Map<ChildRole, pulumi.Resource>();
  for (const role of creationOrder(edges)) {
    const opts = childOptions(edges[role]!, byRole, context.parent, context.verdict);
    const slot = slots.find((s) => s.role === role);
    byRole.set(
      role,
      slot
        ? registerObject(context, slot, opts, ownerIdFor(role, byRole))
        : registerLifecycleChild(context, role, opts, byRole),
    );
  }
  return { byRole, readiness: byRole.get("readiness") as ReadinessResource };
}

/** The owner id the host check recorded, for the namespace, which carries it. */
function ownerIdFor(role: ChildRole, byRole: RegisteredChildren): pulumi.Output<string> | undefined {
  return role === "namespace" ? (byRole.get("host-check") as HostCheckResource | undefined)?.ownerId : undefined;
}

function registerLifecycleChild(
  context: ChildContext,
  role: ChildRole,
  opts: pulumi.CustomResourceOptions,
  byRole: RegisteredChildren,
): pulumi.Resource {
  const { name, rendered, hostKubeconfig } = context;
  // The identity of the host, recorded by the check; the wait and the cleanup refuse another cluster.
  const hostUid = () => (byRole.get("host-check") as HostCheckResource).hostUid;
  switch (role) {
    case "host-check":
      return context.lifecycle.hostCheck(
        childName(name, role),
        { ...renderedInputs(rendered, "hostCheck"), hostKubeconfig },
        opts,
      );
    case "access-check":
      return context.lifecycle.accessCheck(
        childName(name, role),
        { ...renderedInputs(rendered, "accessCheck"), hostKubeconfig },
        opts,
      );
    case "cleanup":
      return context.lifecycle.cleanup(
        childName(name, role),
        { ...renderedInputs(rendered, "cleanup"), hostKubeconfig, hostUid: hostUid() },
        opts,
      );
    case "vcluster":
      return registerHelmRelease(context, opts);
    case "readiness": {
      // A new release revision changes this input, so that the wait runs again.
      const releaseRevision = (byRole.get("vcluster") as k8s.helm.v3.Release).status.revision.apply(String);
      return context.lifecycle.readiness(
        childName(name, role),
        { ...renderedInputs(rendered, "readiness"), hostKubeconfig, releaseRevision, hostUid: hostUid() },
        opts,
      );
    }
    default:
      throw new Error(`kubespaces: no registration for child ${role}`);
  }
}
