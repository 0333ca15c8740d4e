/**
 * Progress while the engine works, on stderr (stdout stays for results, so `--output json` can be
 * piped). On a terminal: a phase change is a line, and one status line below it says what happens
 * now and for how long, redrawn in place. Without a terminal (CI, a pipe, a log file): every phase
 * change and step is a plain line of its own. Each line is shown with its control characters made
 * visible (terminalText.ts): tenant names, phases and details come from the engine or a server's
 * event stream, and may quote what another person wrote.
 */
import type { TenantEvent } from "../tenants/tenantObject";
import type { OutputStream } from "./commandEnv";
import type { ShownTenant } from "./tenantsDoor";
import { shownLine } from "../util/terminalText";

/** A tenant event as shown: its phase may also be one only a server's tenant has (AwaitingApproval). */
export type ShownEvent = Omit<TenantEvent, "phase"> & {
  /** Its phase from now on, when the step changes it. */
  readonly phase?: TenantEvent["phase"] | ShownTenant["status"]["phase"];
};

/** Where progress goes. */
export interface ProgressDisplay {
  /** A tenant event: a phase change, or what is happening now. */
  tenant(event: ShownEvent): void;
  /** A message of the command's own. */
  note(text: string): void;
  /** Clears the status line; call before printing results and before exiting. */
  close(): void;
}

/** The display for `stream`: live on a TTY, plain lines otherwise. */
export function progressDisplay(stream: OutputStream): ProgressDisplay {
  return stream.isTTY ? new TerminalDisplay(stream) : new PlainDisplay(stream);
}

/** The phase each tenant was last shown in, to print changes once. */
class PhaseMemory {
  private readonly phases = new Map<string, string>();
  /** The change `event` makes, as "A -> B", or undefined when it changes nothing. */
  change(event: ShownEvent): string | undefined {
    if (!event.phase || this.phases.get(event.name) === event.phase) return undefined;
    const before = this.phases.get(event.name);
    this.phases.set(event.name, event.phase);
    return before ? `${before} -> ${event.phase}` : event.phase;
  }
}

class PlainDisplay implements ProgressDisplay {
  private readonly memory = new PhaseMemory();
  constructor(private readonly stream: OutputStream) {}

  tenant(event: ShownEvent): void {
    const change = this.memory.change(event);
    if (change)
      this.line(`${event.name}: ${change}${event.phase === "Failed" && event.detail ? `: ${event.detail}` : ""}`);
    else if (event.detail) this.line(`${event.name}: ${event.detail}`);
  }

  note(text: string): void {
    this.line(text);
  }

  private line(text: string): void {
    this.stream.write(`${shownLine(text)}\n`);
  }

  close(): void {}
}

const SPINNER = ["|", "/", "-", "\\"];

class TerminalDisplay implements ProgressDisplay {
  private readonly memory = new PhaseMemory();
  private readonly started = Date.now();
  private status = "";
  private frame = 0;
  private readonly ticker: NodeJS.Timeout;

  constructor(private readonly stream: OutputStream) {
    // Redraws the elapsed time once a second; unref'd so it never keeps the command alive.
    this.ticker = setInterval(() => this.draw(), 1000).unref();
  }

  tenant(event: ShownEvent): void {
    const change = this.memory.change(event);
    if (change)
      this.permanent(`${event.name}  ${change}${event.phase === "Failed" && event.detail ? `: ${event.detail}` : ""}`);
    if (event.detail && event.phase !== "Failed") this.status = `${event.name}: ${event.detail}`;
    this.draw();
  }

  note(text: string): void {
    this.permanent(text);
  }

  close(): void {
    clearInterval(this.ticker);
    this.stream.write("\r\x1b[2K");
  }

  private permanent(line: string): void {
    this.stream.write(`\r\x1b[2K${shownLine(line)}\n`);
  }

  private draw(): void {
    if (!this.status) return;
    const seconds = Math.round((Date.now() - this.started) / 1000);
    const elapsed = `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
    const width = (this.stream.columns || 100) - elapsed.length - 6;
    const status = shownLine(this.status);
    const text = status.length > width ? `${status.slice(0, width - 1)}~` : status;
    this.stream.write(`\r\x1b[2K${SPINNER[this.frame++ % SPINNER.length]} ${text}  ${elapsed}`);
  }
}
