/**
 * Which Tenant claimed which host namespace in one program, so that two tenants cannot be declared
 * into one namespace (the second would take over the first's quota and release). Claims belong to
 * a program: a TypeScript program's claims live with its stack resource (or, under test mocks,
 * its monitor); the provider plugin keeps one set per deployment it serves.
 */
import * as pulumi from "@pulumi/pulumi";

/** The namespace claims of one program. */
export class NamespaceClaims {
  private readonly owners = new Map<string, string>();

  /** The tenant that claimed `namespace`, if any. */
  ownerOf(namespace: string): string | undefined {
    return this.owners.get(namespace);
  }

  /** Records that `tenant` owns `namespace`. */
  claim(namespace: string, tenant: string): void {
    this.owners.set(namespace, tenant);
  }
}

const byProgram = new WeakMap<object, NamespaceClaims>();
// Registering a resource fails outside a program anyway; this key only keeps the lookup total.
const OUTSIDE_A_PROGRAM = {};

/** The claims of the program that is running: one set per stack resource, or per mock monitor. */
export function programNamespaceClaims(): NamespaceClaims {
  const program: object = pulumi.runtime.getStackResource() ?? pulumi.runtime.getMonitor() ?? OUTSIDE_A_PROGRAM;
  let claims = byProgram.get(program);
  if (!claims) {
    claims = new NamespaceClaims();
    byProgram.set(program, claims);
  }
  return claims;
}
