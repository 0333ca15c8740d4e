/** Building blocks shared by the platform's policy and a team's request: one rule each. */
import { z } from "zod";
import { checkedByApiServerToo } from "./apiServerRules";
import { isFiniteQuantity, isQuantity, quantityValue } from "./quantity";

/** RFC 1123 label: what Kubernetes accepts as a namespace or Helm release name. */
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** The most characters an RFC 1123 label may have. */
export const DNS_LABEL_MAX_LENGTH = 63;
/** RFC 1123 subdomain: dot-separated labels. */
export const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The most characters an RFC 1123 subdomain (a DNS name) may have. */
export const DNS_SUBDOMAIN_MAX_LENGTH = 253;

/** The most characters a quantity may have: more than any real one needs, and a bound on the API server's rules. */
export const QUANTITY_MAX_LENGTH = 64;
/** What a quantity must look like. */
const QUANTITY_GRAMMAR = "must be a Kubernetes quantity such as 500m, 2, 1.5Gi or 512Mi";
/** What a quantity's size must be. */
const QUANTITY_ABOVE_ZERO = "must be greater than zero";

/**
 * A Kubernetes quantity above zero, of a size a number can hold (so that comparisons with it mean
 * something). The API server checks the grammar and the sign too; the finite size stays the code's.
 */
export const quantity = (description: string) =>
  checkedByApiServerToo(
    z
      .string()
      .max(QUANTITY_MAX_LENGTH, { error: `must be at most ${QUANTITY_MAX_LENGTH} characters`, abort: true })
      .refine(isQuantity, { error: QUANTITY_GRAMMAR, abort: true })
      .refine(isFiniteQuantity, {
        error: "must be a quantity of finite size such as 64Gi or 1e3: its digits or exponent overflow",
        abort: true,
      })
      .refine((text) => quantityValue(text) > 0, { error: QUANTITY_ABOVE_ZERO })
      .describe(description),
    [
      { rule: "isQuantity(self)", message: QUANTITY_GRAMMAR },
      { rule: "!isQuantity(self) || quantity(self).isGreaterThan(quantity('0'))", message: QUANTITY_ABOVE_ZERO },
    ],
  );

/** What text that must name something must not be. */
const NOT_BLANK = "must not be blank: it holds only whitespace";

/**
 * Text a value is required in: not empty, and not only whitespace, which names nothing (an owner
 * of "  ", an issuer of " ") yet passes a length check; at most `maxLength` characters when given.
 */
export const requiredText = (description: string, maxLength?: number) => {
  const text = z.string().min(1, { error: "must not be empty", abort: true });
  const bounded =
    maxLength === undefined ? text : text.max(maxLength, { error: `must be at most ${maxLength} characters` });
  return checkedByApiServerToo(
    bounded.refine((value) => value.trim() !== "", { error: NOT_BLANK }).describe(description),
    [{ rule: "self.trim() != ''", message: NOT_BLANK }],
  );
};

/** What a DNS-1123 label must look like. */
export const DNS_LABEL_GRAMMAR =
  "must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit";
/** How long a DNS-1123 label may be. */
export const DNS_LABEL_TOO_LONG = `must be at most ${DNS_LABEL_MAX_LENGTH} characters`;

/** A DNS-1123 label. */
export const dnsLabel = (description: string) =>
  z
    .string()
    .max(DNS_LABEL_MAX_LENGTH, { error: DNS_LABEL_TOO_LONG })
    .regex(DNS_LABEL, { error: DNS_LABEL_GRAMMAR })
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
