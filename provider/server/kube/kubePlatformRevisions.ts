/**
 * PlatformRevisions on the host's API server, through @kubernetes/client-node: the watch that
 * tells the fleet preview of each revision, and the status writes, each guarded by the version
 * read so that one replica never overwrites another's results.
 */
import { CustomObjectsApi, makeInformer, type KubeConfig, type KubernetesObject } from "@kubernetes/client-node";
import {
  PLATFORM_REVISION_API_VERSION,
  PLATFORM_REVISION_KIND,
  PLATFORM_REVISION_PLURAL,
  REVISION_FINALIZER,
} from "../../contracts/platformRevisionNames";
import { TENANT_GROUP, TENANT_VERSION } from "../../contracts/tenantResourceNames";
import type { PlatformRevisionStatus } from "../../tenantResource/platformRevisionStatus";
import type { PlatformRevision } from "../revisions/fleetPreview";
import { runInformer, type InformerRunOptions } from "./informerRun";
import { statusCodeOf } from "../../util/kubeClientErrors";
import { changeFinalizers } from "./finalizerPatch";
import { requireObjectName } from "../nameChecks";
import type { PlatformRevisionStore } from "../revisions/replicaFleet";
import type { PlatformRevisionReader } from "../http/fleetApiRoutes";

const REVISIONS = { group: TENANT_GROUP, version: TENANT_VERSION, plural: PLATFORM_REVISION_PLURAL } as const;

/** PlatformRevisions through the API server that `config` reaches. */
export class KubePlatformRevisions implements PlatformRevisionStore, PlatformRevisionReader {
  private readonly custom: CustomObjectsApi;

  constructor(config: KubeConfig) {
    this.custom = config.makeApiClient(CustomObjectsApi);
  }

  async get(name: string): Promise<PlatformRevision | undefined> {
    requireObjectName(name, "metadata.name");
    try {
      return (await this.custom.getClusterCustomObject({ ...REVISIONS, name })) as PlatformRevision;
    } catch (error) {
      if (statusCodeOf(error) === 404) return undefined;
      throw error;
    }
  }

  async list(): Promise<PlatformRevision[]> {
    const list = (await this.custom.listClusterCustomObject({ ...REVISIONS })) as { items: PlatformRevision[] };
    return list.items;
  }

  async changeFinalizer(name: string, present: boolean): Promise<void> {
    requireObjectName(name, "metadata.name");
    await changeFinalizers(
      {
        get: () => this.get(name),
        patch: (body) => this.custom.patchClusterCustomObject({ ...REVISIONS, name, body }),
      },
      (list) =>
        list.includes(REVISION_FINALIZER) === present
          ? undefined
          : present
            ? [...list, REVISION_FINALIZER]
            : list.filter((f) => f !== REVISION_FINALIZER),
    );
  }

  async writeStatus(revision: PlatformRevision, status: PlatformRevisionStatus): Promise<boolean> {
    const { name } = revision.metadata;
    requireObjectName(name, "metadata.name");
    // The version read goes with the write: the API server refuses it (409) if another wrote since.
    const body = { apiVersion: PLATFORM_REVISION_API_VERSION, kind: PLATFORM_REVISION_KIND, ...revision, status };
    try {
      await this.custom.replaceClusterCustomObjectStatus({ ...REVISIONS, name, body });
      return true;
    } catch (error) {
      if (statusCodeOf(error) === 409) return false;
      throw error;
    }
  }
}

/** How the watch of PlatformRevisions reports, besides how its run goes (informerRun.ts). */
export interface RevisionWatchOptions extends InformerRunOptions {
  /** A revision made or changed (its status too: another replica's results). */
  readonly onRevision: (revision: PlatformRevision) => void;
  /** A revision deleted. */
  readonly onGone: (name: string) => void;
}

/** Watches PlatformRevisions until `signal` aborts. */
export function watchPlatformRevisions(config: KubeConfig, options: RevisionWatchOptions, signal: AbortSignal): void {
  const custom = config.makeApiClient(CustomObjectsApi);
  const informer = makeInformer<KubernetesObject>(
    config,
    `/apis/${TENANT_GROUP}/${TENANT_VERSION}/${PLATFORM_REVISION_PLURAL}`,
    () => custom.listClusterCustomObject({ ...REVISIONS }),
  );
  const onObject = (object: KubernetesObject) => options.onRevision(object as unknown as PlatformRevision);
  informer.on("add", onObject);
  informer.on("update", onObject);
  informer.on("delete", (object) => object.metadata?.name && options.onGone(object.metadata.name));
  runInformer(informer, options, signal);
}
