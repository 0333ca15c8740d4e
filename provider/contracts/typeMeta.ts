/**
 * What kind of Kubernetes object something is. The render writes it into every manifest and the
 * lifecycle's CRD preflight asks the host whether it serves it, so it sits below both.
 */

/** What kind of object a manifest is. */
export interface TypeMeta {
  /** `group/version`, or `v1` for the core group. */
  readonly apiVersion: string;
  /** Object kind. */
  readonly kind: string;
}
