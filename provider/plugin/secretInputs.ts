/**
 * The engine sends secret inputs to a provider's CRUD methods wrapped as
 * `{ <specialSigKey>: <specialSecretSig>, value }`. The operations work on plain values; the
 * resources' `additionalSecretOutputs` keep them secret in state.
 */
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { isPlainObject } from "../util/plainObject";

/** `value` with every secret wrapper replaced by the value it wraps, at any depth. */
export function unwrapSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map(unwrapSecrets) as T;
  if (!isPlainObject(value)) return value;
  if (value[specialSigKey] === specialSecretSig) return unwrapSecrets(value.value) as T;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, unwrapSecrets(child)])) as T;
}
