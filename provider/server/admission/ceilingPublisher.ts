/**
 * The server publishes the ceilings a new tenant is held to, in the TenantCeilings object that the
 * ceiling admission policy (tenantResource/ceilingAdmission.ts) takes as its parameters, so that the API
 * server refuses a Tenant above them at once. They are those of the newest PlatformRevision rolled
 * out to every tenant, or the server's configuration's when there is none: the policy a new tenant
 * is brought up on (replicaFleet.ts, runningPolicy).
 *
 * Every replica publishes what it sees, after each change of the revisions; a write is made only
 * when the object says something else, so replicas that agree write nothing, and the last write
 * of a change stands. The server's own check of each request stays the final word.
 */
import type { TenantPlatformInput } from "../../model/tenantPlatformSchema";
import { CEILING_COUNTS, CEILING_QUANTITIES } from "../../tenantResource/ceilingAdmission";

/** The published ceilings: the TenantCeilings object's spec. */
export interface CeilingParameters {
  /** The PlatformRevision they come from; "" for the server's configuration. */
  readonly platformRevision: string;
  /** Each ceiling the policy sets, as text, by the request's field name. */
  readonly ceilings: Readonly<Record<string, string>>;
}

/** Where the ceilings are published: the TenantCeilings object `new-tenants`. */
export interface CeilingParametersStore {
  /** Its spec; undefined when there is no such object. */
  read(): Promise<CeilingParameters | undefined>;
  /** Writes `spec` whole, making the object when there is none. */
  write(spec: CeilingParameters, exists: boolean): Promise<void>;
}

/** The policy new tenants are brought up on, and the revision it comes from (none: the server's configuration). */
export interface NewTenantPolicy {
  /** The policy. */
  readonly policy: TenantPlatformInput;
  /** The PlatformRevision it is, if any. */
  readonly revision?: string;
}

/** What is published for `current`: each ceiling it sets as text, and its revision ("" for none). */
export function ceilingParameters(current: NewTenantPolicy): CeilingParameters {
  const set: Readonly<Record<string, string | number | undefined>> = current.policy.quota?.ceilings ?? {};
  const ceilings: Record<string, string> = {};
  for (const field of [...CEILING_QUANTITIES, ...CEILING_COUNTS]) {
    const value = set[field];
    if (value !== undefined) ceilings[field] = String(value);
  }
  return { platformRevision: current.revision ?? "", ceilings };
}

/** Whether two publications say the same. */
function same(a: CeilingParameters, b: CeilingParameters): boolean {
  const keys = Object.keys(a.ceilings);
  return (
    a.platformRevision === b.platformRevision &&
    keys.length === Object.keys(b.ceilings).length &&
    keys.every((key) => b.ceilings[key] === a.ceilings[key])
  );
}

/** Publishes the ceilings, one write at a time. */
export class CeilingPublisher {
  /** The publication under way; the next waits for it. */
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: CeilingParametersStore,
    private readonly log: (line: string, level?: "info" | "warn") => void,
  ) {}

  /** Publishes `current`'s ceilings after any publication under way; a failure is logged and tried at the next change. */
  publish(current: NewTenantPolicy): Promise<void> {
    const data = ceilingParameters(current);
    this.last = this.last.then(() =>
      this.write(data).catch((error: unknown) => {
        this.log(`the ceilings for admission were not published: ${(error as Error).message}`, "warn");
      }),
    );
    return this.last;
  }

  private async write(data: CeilingParameters): Promise<void> {
    const published = await this.store.read();
    if (published && same(published, data)) return;
    await this.store.write(data, published !== undefined);
    const from = data.platformRevision ? `platform revision ${data.platformRevision}` : "the configuration";
    this.log(`published the ceilings of ${from} for admission`);
  }
}
