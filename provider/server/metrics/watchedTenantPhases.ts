/**
 * Each Tenant's phase as this replica's watch of Tenants last saw it, for the `kubespaces_tenants`
 * gauge: a scrape counts what the watch already holds, and never lists the Tenants from the host
 * (every replica is scraped, each as often as Prometheus likes).
 */

/** The phases the watch saw, by tenant. */
export class WatchedTenantPhases {
  private readonly byTenant = new Map<string, string | undefined>();
  private everListed = false;

  /** Tenant `name` was added or changed, with `phase` (undefined: no status yet). */
  seen(name: string, phase: string | undefined): void {
    this.byTenant.set(name, phase);
  }

  /** Tenant `name` is gone. */
  gone(name: string): void {
    this.byTenant.delete(name);
  }

  /** The watch has listed every Tenant: from now on the phases are all of them. */
  listed(): void {
    this.everListed = true;
  }

  /** Every Tenant's phase; undefined before the watch first listed them, when a count would be short. */
  phases(): readonly (string | undefined)[] | undefined {
    return this.everListed ? [...this.byTenant.values()] : undefined;
  }
}
