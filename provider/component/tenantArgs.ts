/** The Tenant's inputs as a TypeScript program passes them: any value may be a Pulumi Output. */
import type * as pulumi from "@pulumi/pulumi";
import type { TenantArgsInput } from "../spec/tenantArgsSchema";

/** Each field of T, nested objects included, may be a plain value or a Pulumi Input. */
export type DeepInput<T> = undefined extends T ? DeepInputOf<Exclude<T, undefined>> | undefined : DeepInputOf<T>;

// Brackets stop unions such as boolean (true | false) from being split into Input<true> | Input<false>.
type DeepInputOf<T> = [T] extends [readonly unknown[]]
  ? pulumi.Input<T>
  : [T] extends [Record<string, unknown>]
    ? string extends keyof T
      ? pulumi.Input<T>
      : { [K in keyof T]: DeepInput<T[K]> }
    : pulumi.Input<T>;

/** Inputs of a Tenant; see the README's reference table for every field, its rule and default. */
export type TenantArgs = DeepInput<TenantArgsInput>;
