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

/** The apps Certificate's kind: the render writes it, and the cleanup deletes a stale one before its Secret. */
export const APPS_CERTIFICATE_TYPE: TypeMeta = { apiVersion: "cert-manager.io/v1", kind: "Certificate" };
