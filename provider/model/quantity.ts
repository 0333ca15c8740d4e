/**
 * Kubernetes resource quantities ("500m", "1.5Gi", "2e3"): the grammar check and a numeric value
 * for comparisons. Hand-written because no small maintained npm package parses the full grammar
 * (client-node's `quantityToScalar` is not exported and rejects "1.5Gi").
 */

// <sign><digits>[.<digits>]<suffix>, the grammar of k8s.io/apimachinery/pkg/api/resource.
const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

const MULTIPLIERS: Record<string, number> = {
  "": 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** True when `text` follows the Kubernetes quantity grammar. */
export function isQuantity(text: string): boolean {
  return QUANTITY.test(text);
}

/**
 * The value of a quantity as a plain number (cores for CPU, bytes for memory), precise enough to
 * compare two quantities; Infinity when its digits or exponent overflow a number (see
 * isFiniteQuantity). Throws on text that is not a quantity.
 */
export function quantityValue(text: string): number {
  const match = QUANTITY.exec(text);
  if (!match) throw new Error(`"${text}" is not a Kubernetes quantity`);
  const [, digits, suffix = ""] = match;
  // Read as one number, so that "0e999" is 0, not 0 times an overflowed 10^999.
  if (/^[eE]/.test(suffix)) return Number(`${digits}${suffix}`);
  return Number(digits) * MULTIPLIERS[suffix];
}

/** True when the quantity `text` has a finite value: the grammar allows any number of digits and any exponent. */
export function isFiniteQuantity(text: string): boolean {
  return Number.isFinite(quantityValue(text));
}
