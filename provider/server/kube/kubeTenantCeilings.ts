/**
 * The published ceilings on the host's API server: TenantCeilings `new-tenants`, through
 * @kubernetes/client-node. A rewrite carries the version read, so that two replicas' writes never
 * pass each other unseen.
 */
import { CustomObjectsApi, type KubeConfig } from "@kubernetes/client-node";
import {
  NEW_TENANT_CEILINGS,
  TENANT_CEILINGS_API_VERSION,
  TENANT_CEILINGS_KIND,
  TENANT_CEILINGS_PLURAL,
} from "../../contracts/tenantCeilingsNames";
import { TENANT_GROUP, TENANT_VERSION } from "../../contracts/tenantResourceNames";
import { PART_OF_KUBESPACES } from "../../tenantResource/kubeObject";
import { statusCodeOf } from "../../util/kubeClientErrors";
import type { CeilingParameters, CeilingParametersStore } from "../admission/ceilingPublisher";

const CEILINGS = { group: TENANT_GROUP, version: TENANT_VERSION, plural: TENANT_CEILINGS_PLURAL } as const;

/** A TenantCeilings object as read. */
interface TenantCeilingsObject {
  readonly metadata?: { readonly resourceVersion?: string };
  readonly spec?: { readonly platformRevision?: string; readonly ceilings?: Readonly<Record<string, string>> };
}

/** The published ceilings on the API server `config` reaches. */
export class KubeTenantCeilings implements CeilingParametersStore {
  private readonly custom: CustomObjectsApi;
  /** The version of the object last read, which a rewrite must still find. */
  private resourceVersion: string | undefined;

  constructor(config: KubeConfig) {
    this.custom = config.makeApiClient(CustomObjectsApi);
  }

  async read(): Promise<CeilingParameters | undefined> {
    try {
      const read = (await this.custom.getClusterCustomObject({
        ...CEILINGS,
        name: NEW_TENANT_CEILINGS,
      })) as TenantCeilingsObject;
      this.resourceVersion = read.metadata?.resourceVersion;
      return { platformRevision: read.spec?.platformRevision ?? "", ceilings: read.spec?.ceilings ?? {} };
    } catch (error) {
      if (statusCodeOf(error) !== 404) throw error;
      this.resourceVersion = undefined;
      return undefined;
    }
  }

  async write(spec: CeilingParameters, exists: boolean): Promise<void> {
    const body = {
      apiVersion: TENANT_CEILINGS_API_VERSION,
      kind: TENANT_CEILINGS_KIND,
      metadata: {
        name: NEW_TENANT_CEILINGS,
        labels: { ...PART_OF_KUBESPACES },
        ...(exists && { resourceVersion: this.resourceVersion }),
      },
      spec,
    };
    if (exists) await this.custom.replaceClusterCustomObject({ ...CEILINGS, name: NEW_TENANT_CEILINGS, body });
    else await this.custom.createClusterCustomObject({ ...CEILINGS, body });
  }
}
