/** A stand-in for one Lease on the API server, for unit tests: writes carry the version they read, or fail as a 409 would. */
import type { LeaseRecord, RemovableLeaseStore } from "../../../provider/server/replicas/leases";

/** One Lease; `lease` is what the API server holds (undefined: none). */
export class FakeLeaseStore implements RemovableLeaseStore {
  lease?: LeaseRecord;
  private version = 0;
  async read() {
    return this.lease && { ...this.lease };
  }
  async create(record: LeaseRecord) {
    if (this.lease) return false;
    this.lease = { ...record, resourceVersion: String(++this.version) };
    return true;
  }
  async replace(record: LeaseRecord) {
    if (!this.lease || record.resourceVersion !== this.lease.resourceVersion) return false;
    this.lease = { ...record, resourceVersion: String(++this.version) };
    return true;
  }
  async remove(resourceVersion: string) {
    if (this.lease?.resourceVersion === resourceVersion) this.lease = undefined;
  }
}
