/** Building blocks shared by the platform's policy and a team's request: one rule each. */
import { z } from "zod";
import { isFiniteQuantity, isQuantity, quantityValue } from "./quantity";

/** RFC 1123 label: what Kubernetes accepts as a namespace or Helm release name. */
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** The most characters an RFC 1123 label may have. */
export const DNS_LABEL_MAX_LENGTH = 63;
/** RFC 1123 subdomain: dot-separated labels. */
export const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The most characters an RFC 1123 subdomain (a DNS name) may have. */
export const DNS_SUBDOMAIN_MAX_LENGTH = 253;

/** A Kubernetes quantity above zero, of a size a number can hold (so that comparisons with it mean something). */
export const quantity = (description: string) =>
  z
    .string()
    .refine(isQuantity, { error: "must be a Kubernetes quantity such as 500m, 2, 1.5Gi or 512Mi", abort: true })
    .refine(isFiniteQuantity, {
      error: "must be a quantity of finite size such as 64Gi or 1e3: its digits or exponent overflow",
      abort: true,
    })
    .refine((text) => quantityValue(text) > 0, { error: "must be greater than zero" })
    .describe(description);

/**
 * Text a value is required in: not empty, and not only whitespace, which names nothing (an owner
 * of "  ", an issuer of " ") yet passes a length check.
 */
export const requiredText = (description: string) =>
  z
    .string()
    .min(1, { error: "must not be empty", abort: true })
    .refine((text) => text.trim() !== "", { error: "must not be blank: it holds only whitespace" })
    .describe(description);

/** A DNS-1123 label. */
export const dnsLabel = (description: string) =>
  z
    .string()
    .max(DNS_LABEL_MAX_LENGTH, { error: `must be at most ${DNS_LABEL_MAX_LENGTH} characters` })
    .regex(DNS_LABEL, {
      error: "must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit",
    })
    .describe(description);

/** A whole number of things, zero included. */
export const wholeCount = () => z.int().nonnegative({ error: "must be a whole number >= 0" });

/** A count of objects of one kind in the tenant namespace. */
export const objectCount = (description: string) => wholeCount().optional().describe(description);

/** The object counts a ResourceQuota can cap, by input field, with the resource's name for descriptions. */
export const OBJECT_COUNTS = {
  pods: "Pods",
  services: "Services",
  persistentVolumeClaims: "PersistentVolumeClaims",
  secrets: "Secrets",
  configMaps: "ConfigMaps",
  servicesLoadBalancers: "Services of type LoadBalancer",
  servicesNodePorts: "Services of type NodePort",
} as const;

/** A field of OBJECT_COUNTS. */
export type ObjectCountField = keyof typeof OBJECT_COUNTS;

/**
 * The object count fields, each with a description built from `describe`; those in `defaults`
 * default to their value there, the others stay unset.
 */
export const objectCountFields = (
  describe: (resource: string) => string,
  defaults: Partial<Record<ObjectCountField, number>> = {},
) =>
  Object.fromEntries(
    Object.entries(OBJECT_COUNTS).map(([field, resource]) => {
      const count = objectCount(describe(resource));
      const fallback = defaults[field as ObjectCountField];
      return [field, fallback === undefined ? count : count.default(fallback)];
    }),
  ) as {
    [K in ObjectCountField]: ReturnType<typeof objectCount>;
  };

/** CPU and memory, with defaults. */
export const cpuAndMemory = (description: string, cpu: string, memory: string) =>
  z
    .strictObject({
      cpu: quantity("CPU.").default(cpu),
      memory: quantity("Memory.").default(memory),
    })
    .prefault({})
    .describe(description);

/** The Pod Security Admission levels a tenant namespace can enforce. */
export const podSecurityLevel = (description: string) =>
  z.enum(["baseline", "restricted"], { error: "must be one of: baseline, restricted" }).describe(description);
