/**
 * Server-sent events read from a `text/event-stream` body, parsed by eventsource-parser (the HTML
 * standard's event stream interpretation). Each event carries the stream's last event id, which
 * the standard keeps across events, so a client resumes with it. Only the reading is here: the
 * connection and its resumption are tenantFollow.ts'.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";

/** One dispatched event. */
export interface ServerSentEvent {
  /** Its type (`event:`); `message` when none was given. */
  readonly event: string;
  /** Its data lines, joined with LF. */
  readonly data: string;
  /** The last event id the stream set, at this event (the id to resume after). */
  readonly id?: string;
}

/** The events of `body`, as they arrive. */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const parsed: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => parsed.push(message) });
  const decoder = new TextDecoder("utf-8");
  let lastId: string | undefined;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    for (const message of parsed.splice(0)) {
      // An id with NULL in it is ignored, as the standard says.
      if (message.id !== undefined && !message.id.includes("\0")) lastId = message.id;
      yield { event: message.event || "message", data: message.data, ...(lastId && { id: lastId }) };
    }
  }
}
