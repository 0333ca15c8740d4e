/**
 * The command's HTTP client of a kubespaces server's API (contracts/tenantsApi.ts), on Node's
 * fetch: each request carries the sign-in's ID token as a bearer token, asked for anew each time (so
 * that one that expired during a long follow is renewed), and an error answer becomes the error
 * its kind means (serverErrors.ts). The token never reaches a message.
 */
import { CliError, EXIT } from "../exitCodes";
import { errorOfAnswer } from "./serverErrors";

/** How a request is made. */
export interface RequestOptions {
  /** The tenant it is about, for the messages of its errors. */
  readonly tenant?: string;
  /** A JSON body. */
  readonly body?: unknown;
  /** More headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Stops the request (and the reading of its body). */
  readonly signal?: AbortSignal;
}

/** A client of one server. */
export class ServerApi {
  /**
   * @param server the server's URL, without a trailing slash (serverUrls.ts).
   * @param bearer the ID token to send, renewed when it has expired.
   */
  constructor(
    readonly server: string,
    private readonly bearer: () => Promise<string>,
  ) {}

  /** A JSON answer of `method` on `path`. */
  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.ok(method, path, { ...options, headers: { accept: "application/json" } });
    return (await response.json()) as T;
  }

  /** A text answer of GET `path` (a kubeconfig). */
  async text(path: string, options: RequestOptions = {}): Promise<string> {
    return (await this.ok("GET", path, options)).text();
  }

  /**
   * The open answer of `method` on `path` once it is a success; an error answer is read and thrown
   * as the error its kind means.
   */
  async ok(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const response = await this.send(method, path, options);
    if (response.ok) return response;
    throw errorOfAnswer(response.status, await response.text(), { server: this.server, tenant: options.tenant });
  }

  private async send(method: string, path: string, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = {
      ...options.headers,
      authorization: `Bearer ${await this.bearer()}`,
      ...(options.body !== undefined && { "content-type": "application/json" }),
    };
    try {
      return await fetch(`${this.server}${path}`, {
        method,
        headers,
        ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
        signal: options.signal,
        // A redirect would carry the bearer token to wherever it points.
        redirect: "error",
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw unreachable(this.server, error);
    }
  }
}

/** A request that got no answer, or whose answer broke off: a reconnection may mend it. */
export class ServerUnreachableError extends CliError {
  /**
   * @param server the server.
   * @param reason why, in a few words (a system error code such as ECONNREFUSED).
   */
  constructor(
    server: string,
    readonly reason: string,
  ) {
    super(`cannot reach the kubespaces server ${server} (${reason})`, EXIT.error);
  }
}

/** The error of a request that got no answer, or whose answer broke off. */
export function unreachable(server: string, error: unknown): ServerUnreachableError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new ServerUnreachableError(server, cause?.code ?? cause?.message ?? (error as Error).message);
}
