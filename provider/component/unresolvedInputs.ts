/** Telling plain inputs from Pulumi Outputs and Promises, which only resolve later. */
import * as pulumi from "@pulumi/pulumi";
import { isPlainObject } from "../util/plainObject";

/** True when `value` is an Output or a Promise. */
export function isUnresolved(value: unknown): boolean {
  return pulumi.Output.isInstance(value) || value instanceof Promise;
}

/** True when `value` holds an Output or a Promise anywhere inside it. */
export function hasUnresolvedInputs(value: unknown): boolean {
  if (isUnresolved(value)) return true;
  if (Array.isArray(value)) return value.some(hasUnresolvedInputs);
  if (isPlainObject(value)) return Object.values(value).some(hasUnresolvedInputs);
  return false;
}

// What has not resolved as a whole: an Output or Promise, or a list holding one (a list without
// some of its items would be another list, with other indices).
const isPending = (value: unknown): boolean =>
  isUnresolved(value) || (Array.isArray(value) && hasUnresolvedInputs(value));

/** `value` with what has not resolved left out, at any depth of its maps. */
export function resolvedPart(value: unknown): unknown {
  if (isPending(value)) return undefined;
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, child]) => (isPending(child) ? [] : [[key, resolvedPart(child)]])),
  );
}

/** Where `resolvedPart` left something out: the key path of each Output, Promise or list holding one. */
export function pendingPaths(value: unknown, prefix: readonly string[] = []): string[][] {
  if (isPending(value)) return [[...prefix]];
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => pendingPaths(child, [...prefix, key]));
}
