/**
 * The election's Lease on the host's API server (coordination.k8s.io/v1), through
 * @kubernetes/client-node. Each call is aborted when its signal aborts (the election bounds every
 * call by its renew deadline).
 */
import {
  CoordinationV1Api,
  Observable,
  V1MicroTime,
  type ConfigurationOptions,
  type KubeConfig,
  type RequestContext,
  type ResponseContext,
  type V1Lease,
} from "@kubernetes/client-node";
import type { LeaseRecord, LeaseStore } from "./leaseElection";
import { statusCodeOf } from "./kubeClientErrors";

/** Lease `name` in `namespace`. */
export class KubeLeaseStore implements LeaseStore {
  private readonly api: CoordinationV1Api;

  constructor(
    config: KubeConfig,
    private readonly namespace: string,
    private readonly name: string,
  ) {
    this.api = config.makeApiClient(CoordinationV1Api);
  }

  async read(signal?: AbortSignal): Promise<LeaseRecord | undefined> {
    try {
      const lease = await this.api.readNamespacedLease(
        { name: this.name, namespace: this.namespace },
        abortedBy(signal),
      );
      const { acquireTime, renewTime, ...spec } = lease.spec ?? {};
      // Read back as text or as a Date, depending on the client's deserializer: made Dates here.
      return {
        ...spec,
        acquireTime: asDate(acquireTime),
        renewTime: asDate(renewTime),
        resourceVersion: lease.metadata?.resourceVersion,
      };
    } catch (error) {
      if (statusCodeOf(error) === 404) return undefined;
      throw error;
    }
  }

  async create(record: LeaseRecord, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.api.createNamespacedLease({ namespace: this.namespace, body: this.lease(record) }, abortedBy(signal));
      return true;
    } catch (error) {
      if (statusCodeOf(error) === 409) return false;
      throw error;
    }
  }

  async replace(record: LeaseRecord, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.api.replaceNamespacedLease(
        { name: this.name, namespace: this.namespace, body: this.lease(record) },
        abortedBy(signal),
      );
      return true;
    } catch (error) {
      if (statusCodeOf(error) === 409) return false;
      throw error;
    }
  }

  private lease({ resourceVersion, acquireTime, renewTime, ...spec }: LeaseRecord): V1Lease {
    return {
      metadata: { name: this.name, namespace: this.namespace, ...(resourceVersion && { resourceVersion }) },
      // MicroTime fields: a plain Date is sent with milliseconds, which the API server refuses.
      spec: { ...spec, acquireTime: microTime(acquireTime), renewTime: microTime(renewTime) },
    };
  }
}

/** Per-call options whose request is aborted by `signal` (the middleware runs after the credentials are applied). */
function abortedBy(signal: AbortSignal | undefined): ConfigurationOptions | undefined {
  if (!signal) return undefined;
  const middleware = {
    pre: (request: RequestContext) => (request.setSignal(signal), new Observable(Promise.resolve(request))),
    post: (response: ResponseContext) => new Observable(Promise.resolve(response)),
  };
  return { middleware: [middleware], middlewareMergeStrategy: "append" };
}

const microTime = (date: Date | undefined): V1MicroTime | undefined => date && new V1MicroTime(date.getTime());
const asDate = (time: Date | string | undefined): Date | undefined => (time === undefined ? undefined : new Date(time));
