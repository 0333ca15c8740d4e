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
