/**
 * Values that are plain when every input was plain, and Outputs otherwise. Passing plain values to
 * children where possible keeps the Output machinery (several promises per Output) off the common
 * path, which is most of the cost of registering many tenants.
 */
import * as pulumi from "@pulumi/pulumi";

/**
 * A plain value, or an Output of it. (Not Pulumi's "known": an Output here may well be known at
 * preview; what matters is whether it is one.)
 */
export type PlainOrOutput<T> = T | pulumi.Output<T>;

/** `select(value)`, applied through the Output when `value` is one: `Output.apply` that keeps a plain value plain. */
export function mapPlainOrOutput<T, U>(value: PlainOrOutput<T>, select: (plain: T) => U): PlainOrOutput<U> {
  return pulumi.Output.isInstance(value) ? (value.apply(select) as pulumi.Output<U>) : select(value);
}

/** The fields `keys` of `value` as separate inputs: as they are when plain, each through the Output otherwise. */
export function fieldsOf<T extends object, K extends keyof T>(
  value: PlainOrOutput<T>,
  keys: readonly K[],
): { [P in K]: pulumi.Input<T[P]> } {
  return Object.fromEntries(keys.map((key) => [key, mapPlainOrOutput(value, (plain) => plain[key])])) as {
    [P in K]: pulumi.Input<T[P]>;
  };
}
