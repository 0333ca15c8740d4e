/**
 * Installs the Tenant resource (CRD, owner admission policy, the server's and requesters' RBAC) on
 * a host with that host's own credentials, by server-side apply: what `kubespaces server` does on
 * the local test bed before it switches to its own ServiceAccount. On a real host the platform
 * installs the same objects with the TenantCrd component or `kubectl apply -f deploy/`.
 */
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type KubernetesObject,
} from "@kubernetes/client-node";
import { INSTALL_DEFAULTS, installOptions } from "../../tenantResource/installOptions";
import type { InstalledObject } from "../../tenantResource/kubeObject";
import { tenantResourceInstallation } from "../../tenantResource/tenantResourceInstallation";
import type { ServerConfig } from "../serverConfig";
import { statusCodeOf } from "../../util/kubeClientErrors";

/** The ServiceAccount the server runs as where the package installs it. */
export const SERVER_SERVICE_ACCOUNT = INSTALL_DEFAULTS.serviceAccount;

/** The field manager of the objects the server applies. */
const FIELD_MANAGER = "kubespaces-server";

/** How long the API server may take to serve a new CRD. */
const ESTABLISHED_TIMEOUT_MS = 60_000;

/** Applies the Tenant resource for `config` with `admin`'s credentials; the CRD is served before the policy goes on. */
export async function installTenantApi(
  admin: KubeConfig,
  config: Pick<ServerConfig, "namespace" | "adminGroup">,
  progress: (line: string) => void,
): Promise<void> {
  const installation = tenantResourceInstallation(
    installOptions({ namespace: config.namespace, adminGroup: config.adminGroup }),
  );
  const objects = KubernetesObjectApi.makeApiClient(admin);
  progress(`installing the Tenant resource (CRDs, admission policy, RBAC) on the host`);
  await applyCrds(admin, installation.crd);
  for (const { object } of installation.crd) await served(admin, object as unknown as CrdObject);
  await applyAll(objects, installation.rbac);
  await applyAll(objects, installation.admission);
}

/**
 * Applies the CRDs as they are written. KubernetesObjectApi would first pass them through
 * client-node's typed model of a CRD, which knows the `x-kubernetes-*` keys only by its own field
 * names and so drops every one written by its JSON name: the kept unknown fields, the CEL rules and
 * the list types would not reach the API server. The custom objects client sends the body as is.
 */
async function applyCrds(admin: KubeConfig, crds: readonly InstalledObject[]): Promise<void> {
  const custom = admin.makeApiClient(CustomObjectsApi);
  for (const { object } of crds) {
    await custom.patchClusterCustomObject(
      {
        group: "apiextensions.k8s.io",
        version: "v1",
        plural: "customresourcedefinitions",
        name: object.metadata.name,
        body: object,
        fieldManager: FIELD_MANAGER,
        force: true,
      },
      setHeaderOptions("Content-Type", PatchStrategy.ServerSideApply),
    );
  }
}

async function applyAll(objects: KubernetesObjectApi, installed: readonly InstalledObject[]): Promise<void> {
  for (const { object } of installed) {
    await objects.patch(
      object as KubernetesObject,
      undefined,
      undefined,
      FIELD_MANAGER,
      true,
      PatchStrategy.ServerSideApply,
    );
  }
}

/** What `served` reads of a CRD as written. */
interface CrdObject {
  readonly metadata: { readonly name: string };
  readonly spec: {
    readonly group: string;
    readonly names: { readonly plural: string };
    readonly versions: readonly { readonly name: string; readonly storage?: boolean }[];
  };
}

/**
 * Waits until the API server serves CRD `crd`: its Established condition, and then a list of its
 * objects answered. A CRD made a moment ago is Established before its watch cache is filled, and
 * until then the API server refuses reads with HTTP 429 ("storage is (re)initializing"); the
 * server's first list of Tenants must not meet that refusal.
 */
async function served(admin: KubeConfig, crd: CrdObject): Promise<void> {
  const api = admin.makeApiClient(ApiextensionsV1Api);
  const custom = admin.makeApiClient(CustomObjectsApi);
  const { name } = crd.metadata;
  const version = (crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0]).name;
  const list = { group: crd.spec.group, version, plural: crd.spec.names.plural, limit: 1 };
  const deadline = Date.now() + ESTABLISHED_TIMEOUT_MS;
  for (;;) {
    const read = await api.readCustomResourceDefinition({ name });
    const established = read.status?.conditions?.some((c) => c.type === "Established" && c.status === "True");
    if (established && (await listAnswers(custom, list))) return;
    if (Date.now() > deadline)
      throw new Error(`the API server did not serve CRD ${name} within ${ESTABLISHED_TIMEOUT_MS / 1000}s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Whether the API server answers a list of `list`'s objects; false while it refuses with 429 (storage initializing). */
async function listAnswers(
  custom: CustomObjectsApi,
  list: Parameters<CustomObjectsApi["listClusterCustomObject"]>[0],
): Promise<boolean> {
  try {
    await custom.listClusterCustomObject(list);
    return true;
  } catch (error) {
    if (statusCodeOf(error) === 429) return false;
    throw error;
  }
}
