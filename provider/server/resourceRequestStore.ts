/**
 * The tenants service's request store over Tenant resources: the host's API server holds each
 * request, and its generation is the API server's. A request is removed by asking for the
 * resource's deletion and then releasing the server's finalizer, so the resource disappears only
 * once the service's teardown has finished.
 */
import type { TenantRequestInput } from "../model/tenantRequestSchema";
import type { RequestStore, StoredRequest } from "../tenants/ports";
import type { TenantResource, TenantResources } from "./tenantResourcePort";
import { TENANT_FINALIZER } from "../contracts/tenantResourceNames";

/** Requests as Tenant resources. */
export class ResourceRequestStore implements RequestStore {
  constructor(private readonly resources: TenantResources) {}

  async get(name: string): Promise<StoredRequest | undefined> {
    const resource = await this.resources.get(name);
    return resource && storedRequestOf(resource);
  }

  async list(): Promise<StoredRequest[]> {
    return (await this.resources.list()).map(storedRequestOf);
  }

  async add(name: string, spec: TenantRequestInput): Promise<{ stored: StoredRequest; added: boolean }> {
    // Read first: the reconciler's Tenant always exists, so this never creates one in its place.
    const existing = await this.resources.get(name);
    if (existing) return { stored: storedRequestOf(existing), added: false };
    const created = await this.resources.create(name, spec);
    if (created) return { stored: storedRequestOf(created), added: true };
    const raced = await this.resources.get(name);
    if (!raced) throw new Error(`Tenant ${name} existed a moment ago and is gone now; try again`);
    return { stored: storedRequestOf(raced), added: false };
  }

  async remove(name: string): Promise<void> {
    const resource = await this.resources.get(name);
    if (!resource) return;
    if (!resource.metadata.deletionTimestamp) await this.resources.delete(name);
    await this.resources.removeFinalizer(name, TENANT_FINALIZER);
  }
}

/** A Tenant resource as the service's stored request. */
export function storedRequestOf(resource: TenantResource): StoredRequest {
  return {
    name: resource.metadata.name,
    spec: resource.spec,
    generation: resource.metadata.generation,
    ...(resource.metadata.creationTimestamp && { createdAt: resource.metadata.creationTimestamp }),
    location: `tenant/${resource.metadata.name}`,
  };
}
