/**
 * What the host's admission does to a pod in a tenant namespace, for tests: the LimitRanger fills in
 * the LimitRange's defaults, then the ResourceQuota refuses a pod any of whose containers lacks a
 * resource the quota caps, and counts what an admitted pod uses. It models only what the tenant's
 * objects use: one `Container` limit with `default` and `defaultRequest`, and a quota's
 * `requests.<resource>` and `limits.<resource>` (no scopes, no sidecar init containers, no pod
 * overhead).
 *
 * The rules, from Kubernetes: a container's missing limit takes the `default`, its missing request
 * takes its limit when it has one (API defaulting) and else the `defaultRequest`, init containers
 * included; a pod's usage of a resource is the larger of its containers' sum and its largest init
 * container.
 */
import { quantityValue } from "../../../provider/model/quantity";
import type { Manifest } from "../../../provider/render/manifest";

/** Resources by name, as quantities. */
export type ResourceList = Record<string, string>;

/** A container's requests and limits. */
export interface ContainerResources {
  readonly requests?: ResourceList;
  readonly limits?: ResourceList;
}

/** The part of a pod the admission looks at. */
export interface PodResources {
  readonly containers: readonly ContainerResources[];
  readonly initContainers?: readonly ContainerResources[];
}

interface LimitRangeItem {
  type: string;
  default?: ResourceList;
  defaultRequest?: ResourceList;
}

/** `pod` with the defaults of `limitRange` filled in, as the LimitRanger admission plugin does. */
export function withLimitRangeDefaults(pod: PodResources, limitRange: Manifest): PodResources {
  const items = (limitRange.spec as { limits: LimitRangeItem[] }).limits;
  if (items.some((item) => item.type !== "Container")) throw new Error("only Container limits are modelled");
  const defaults = items[0];
  const fill = (container: ContainerResources): ContainerResources => ({
    limits: { ...defaults.default, ...container.limits },
    // API defaulting first (a request missing beside a limit is the limit), then the LimitRanger.
    requests: { ...defaults.defaultRequest, ...container.limits, ...container.requests },
  });
  return { containers: pod.containers.map(fill), initContainers: (pod.initContainers ?? []).map(fill) };
}

/** Each quota key (`limits.cpu`, ...) that some container of `pod` does not declare; the quota refuses the pod for any. */
export function missingForQuota(pod: PodResources, quota: Manifest): string[] {
  const all = [...pod.containers, ...(pod.initContainers ?? [])];
  return quotaKeys(quota)
    .filter(({ kind, name }) => all.some((container) => container[kind]?.[name] === undefined))
    .map(({ key }) => key);
}

/** What `pod` counts against each of the quota's `requests.*` and `limits.*` keys. */
export function quotaUsage(pod: PodResources, quota: Manifest): Record<string, number> {
  const amount = (container: ContainerResources, kind: "requests" | "limits", name: string) =>
    quantityValue(container[kind]?.[name] ?? "0");
  return Object.fromEntries(
    quotaKeys(quota).map(({ key, kind, name }) => {
      const sum = pod.containers.reduce((total, container) => total + amount(container, kind, name), 0);
      const init = Math.max(0, ...(pod.initContainers ?? []).map((container) => amount(container, kind, name)));
      return [key, Math.max(sum, init)];
    }),
  );
}

function quotaKeys(quota: Manifest): { key: string; kind: "requests" | "limits"; name: string }[] {
  const hard = (quota.spec as { hard: Record<string, string> }).hard;
  return Object.keys(hard)
    .map((key) => /^(requests|limits)\.(.+)$/.exec(key))
    .filter((match): match is RegExpExecArray => match !== null && match[2] !== "storage")
    .map((match) => ({ key: match[0], kind: match[1] as "requests" | "limits", name: match[2] }));
}
