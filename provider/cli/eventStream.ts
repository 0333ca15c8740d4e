/**
 * Server-sent events read from a `text/event-stream` body, by the rules of the HTML standard's
 * "event stream interpretation": lines end with CRLF, LF or CR; a blank line dispatches the event;
 * `data` lines join with LF; `id` sets the last event id (kept across events, so a client resumes
 * with it); lines starting with `:` are comments; an event the stream ends in the middle of is
 * dropped. Only this reading is written here: the connection and its resumption are tenantFollow.ts'.
 */

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
  const parser = new EventParser();
  const lines = new LineSplitter();
  const decoder = new TextDecoder("utf-8", { ignoreBOM: false });
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    for (const line of lines.push(decoder.decode(chunk, { stream: true }))) {
      const event = parser.line(line);
      if (event) yield event;
    }
  }
}

/** Splits text that arrives in pieces into lines, a CR at a piece's end waiting for a possible LF. */
class LineSplitter {
  private pending = "";
  private afterCr = false;

  push(text: string): string[] {
    // A CR ended the previous piece: an LF that starts this one belongs to it.
    let rest = this.afterCr && text.startsWith("\n") ? text.slice(1) : text;
    this.afterCr = false;
    const lines: string[] = [];
    for (let end = rest.search(/[\r\n]/); end >= 0; end = rest.search(/[\r\n]/)) {
      lines.push(this.pending + rest.slice(0, end));
      this.pending = "";
      if (rest[end] === "\r" && end + 1 === rest.length) this.afterCr = true;
      rest = rest.slice(rest.startsWith("\r\n", end) ? end + 2 : end + 1);
    }
    this.pending += rest;
    return lines;
  }
}

/** The fields of the event being read, and the stream's last event id. */
class EventParser {
  private type = "";
  private data: string[] = [];
  private lastId: string | undefined;

  /** Takes one line; returns the event a blank line dispatches. */
  line(line: string): ServerSentEvent | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") this.type = value;
    else if (field === "data") this.data.push(value);
    // An id with NULL in it is ignored, as the standard says.
    else if (field === "id" && !value.includes("\0")) this.lastId = value;
    // `retry` and unknown fields: nothing to do here (tenantFollow.ts paces reconnections itself).
    return undefined;
  }

  private dispatch(): ServerSentEvent | undefined {
    const event =
      this.data.length === 0
        ? undefined
        : { event: this.type || "message", data: this.data.join("\n"), ...(this.lastId && { id: this.lastId }) };
    this.type = "";
    this.data = [];
    return event;
  }
}
