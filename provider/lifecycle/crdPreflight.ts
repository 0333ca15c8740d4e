/**
 * Exposure needs kinds that only CRDs provide (Gateway API, cert-manager). Without them, preview
 * silently skips the objects and `up` retries for half a minute, so the component checks first
 * and names what is absent. The kinds come from the rendered objects.
 */
import { ApiextensionsV1Api } from "@kubernetes/client-node";
import type { TypeMeta } from "../contracts/typeMeta";
import { loadHostKubeConfig } from "./hostAccess";

/** A kind the tenant creates from a CRD, with the CRD's name. */
export interface RequiredKind extends TypeMeta {
  /** Name of the CRD that serves it: `<plural>.<group>`. */
  readonly crd: string;
}

/**
 * The CRD behind each kind. Kubernetes' default plural (lower-case kind plus "s") is what the
 * Gateway API and cert-manager CRDs use.
 */
export function requiredKinds(kinds: readonly TypeMeta[]): RequiredKind[] {
  return kinds.map(({ apiVersion, kind }) => ({
    apiVersion,
    kind,
    crd: `${kind.toLowerCase()}s.${apiVersion.split("/")[0]}`,
  }));
}

/** The message for kinds the host does not serve. */
export function missingKindsMessage(tenant: string, missing: readonly RequiredKind[]): string {
  const list = missing.map((k) => `${k.kind} ${k.apiVersion} (CRD ${k.crd})`).join(", ");
  return `Tenant "${tenant}" sets exposure, but the host cluster does not serve: ${list}. Install those CRDs (TLSRoute v1 comes with Gateway API 1.5 and later, v1alpha2 with the experimental channel of 1.4 and earlier: pick platform.exposure.tlsRouteVersion to match), or set platform.exposure.verifyCrds: false if they are created in this same update.`;
}

/** The required kinds the host does not serve: their CRD is absent or does not serve that version. */
export async function findMissingKinds(
  kubeconfig: string | undefined,
  required: readonly RequiredKind[],
): Promise<RequiredKind[]> {
  const api = loadHostKubeConfig(kubeconfig).makeApiClient(ApiextensionsV1Api);
  const served = await Promise.all(required.map((kind) => isServed(api, kind)));
  return required.filter((_, index) => !served[index]);
}

async function isServed(api: ApiextensionsV1Api, kind: RequiredKind): Promise<boolean> {
  const version = kind.apiVersion.split("/")[1];
  try {
    const crd = await api.readCustomResourceDefinition({ name: kind.crd });
    return crd.spec.versions.some((v) => v.name === version && v.served);
  } catch (error) {
    if ((error as { code?: number }).code === 404) return false;
    throw error;
  }
}
