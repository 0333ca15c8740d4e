/**
 * The Events API of the host's API server (events.k8s.io/v1) through @kubernetes/client-node: the
 * recorder's EventsPort. A series is set by JSON patch of the Event the recorder created.
 */
import { EventsV1Api, type EventsV1Event, type KubeConfig } from "@kubernetes/client-node";
import type { EventBody, EventsPort } from "../reconcile/tenantEvents";

/** Events through the API server that `config` reaches. */
export class KubeTenantEvents implements EventsPort {
  private readonly events: EventsV1Api;

  constructor(config: KubeConfig) {
    this.events = config.makeApiClient(EventsV1Api);
  }

  async create(event: EventBody): Promise<void> {
    // The times are metav1.MicroTime text already: client-node passes them on as they are.
    const body = { apiVersion: "events.k8s.io/v1", kind: "Event", ...event } as unknown as EventsV1Event;
    await this.events.createNamespacedEvent({ namespace: event.metadata.namespace, body });
  }

  async setSeries(namespace: string, name: string, series: { count: number; lastObservedTime: string }): Promise<void> {
    await this.events.patchNamespacedEvent({ namespace, name, body: [{ op: "add", path: "/series", value: series }] });
  }
}
