/**
 * The `kubespaces` command's exit codes, and the one mapping to them from the tenants service's
 * error kinds and the shared libraries' (util/problemError.ts). The help text and the table in docs/reference.md are made from EXIT_CODES, so scripts
 * that branch on a code read the same meaning everywhere; a code keeps its meaning once released.
 */
import type { TenantsErrorKind } from "../tenants/tenantsErrors";
import type { ProblemKind } from "../util/problemError";

/** Each exit code and what it means. */
export const EXIT_CODES = [
  { code: 0, name: "ok", meaning: "done (a tenant read, Ready, deleted; a preview printed)" },
  {
    code: 1,
    name: "error",
    meaning:
      "the engine, the backend, the host cluster or the kubespaces server failed, the sign-in must be renewed, or the tenant is not Ready yet (the message says what)",
  },
  { code: 2, name: "invalid", meaning: "the request or the command line was refused before anything ran" },
  { code: 3, name: "failed", meaning: "the tenant failed to become ready (the message is the reason)" },
  { code: 4, name: "notFound", meaning: "no such tenant" },
  { code: 5, name: "busy", meaning: "the tenant's stack stayed locked by another update past --lock-timeout" },
  {
    code: 130,
    name: "interrupted",
    meaning: "interrupted (Ctrl-C); the request is kept and the message says how to go on",
  },
] as const;

type ExitName = (typeof EXIT_CODES)[number]["name"];

/** The codes by name. */
export const EXIT = Object.fromEntries(EXIT_CODES.map((e) => [e.name, e.code])) as {
  readonly [N in ExitName]: Extract<(typeof EXIT_CODES)[number], { name: N }>["code"];
};

/** The code of each of the service's error kinds. */
const CODE_OF_KIND: Readonly<Record<TenantsErrorKind, number>> = {
  invalid: EXIT.invalid,
  conflict: EXIT.invalid,
  refused: EXIT.invalid,
  notFound: EXIT.notFound,
  notReady: EXIT.error,
  failed: EXIT.failed,
  busy: EXIT.busy,
  hostUnavailable: EXIT.error,
  interrupted: EXIT.interrupted,
};

/** The code of each kind of the shared libraries' errors (kubeconfig/, hosts/, the local identity provider). */
const CODE_OF_PROBLEM: Readonly<Record<ProblemKind, number>> = {
  invalid: EXIT.invalid,
  busy: EXIT.busy,
  interrupted: EXIT.interrupted,
  failed: EXIT.error,
};

/** The exit code an error kind means. */
export const exitCodeOfKind = (kind: TenantsErrorKind): number => CODE_OF_KIND[kind];

/** The exit code a shared library's error kind means. */
export const exitCodeOfProblem = (kind: ProblemKind): number => CODE_OF_PROBLEM[kind];

/** The exit codes as help text. */
export const exitCodesHelp = (): string =>
  `\nExit codes:\n${EXIT_CODES.map((e) => `  ${String(e.code).padEnd(5)}${e.meaning}`).join("\n")}`;

/** The exit codes as a Markdown table, for docs/reference.md. */
export const exitCodesTable = (): string =>
  [
    "| Code | Meaning |",
    "| --- | --- |",
    ...EXIT_CODES.map((e) => `| ${e.code} | ${e.meaning.charAt(0).toUpperCase()}${e.meaning.slice(1)}. |`),
  ].join("\n");

/** An error of the command itself (its flags, its files), printed as its message alone, exiting with `code`. */
export class CliError extends Error {
  /**
   * @param message what went wrong and how to go on, for people.
   * @param code the exit code it means.
   */
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = "CliError";
  }
}
