/**
 * When a replica is ready to serve (`/readyz`): each condition is asked until it is met once, and
 * then stays met (readiness gates the first traffic; liveness, `/healthz`, says the process runs).
 * A condition that does not answer within the probe's own time counts as not met yet.
 */

/** One condition: met or not; it may try something (discover the issuer, list Tenants) to find out. */
export type ReadinessCheck = () => Promise<boolean> | boolean;

/**
 * What a replica of `kubespaces server` waits for, by the name `/readyz` reports in `waitingFor`
 * while it is not met: the sign-in made (the OpenID Connect issuer discovered), and this replica's
 * watch having listed every Tenant. The server registers exactly these (kubespacesServer.ts; the
 * type holds it to them), and docs/self-service.md names each (a unit test holds it to them).
 */
export const SERVER_READINESS_CONDITIONS = ["signIn", "tenants"] as const;

/** One of the server's readiness conditions. */
export type ServerReadinessCondition = (typeof SERVER_READINESS_CONDITIONS)[number];

/** How long one probe waits for a condition that tries something. */
const CHECK_TIMEOUT_MS = 2_000;

/** The replica's readiness, over conditions named `Name`. */
export class Readiness<Name extends string = string> {
  private readonly met = new Set<Name>();

  /** `checks` by name, every name of `Name`: the names `/readyz` reports while they are not met. */
  constructor(private readonly checks: Readonly<Record<Name, ReadinessCheck>>) {}

  /** Marks condition `name` met (a watch that synced says so itself). */
  markMet(name: Name): void {
    this.met.add(name);
  }

  /** The conditions not met yet, each asked once more. */
  async unmet(): Promise<Name[]> {
    const names = (Object.keys(this.checks) as Name[]).filter((name) => !this.met.has(name));
    const answers = await Promise.all(names.map((name) => withinTimeout(this.checks[name])));
    names.forEach((name, i) => answers[i] && this.met.add(name));
    return names.filter((_, i) => !answers[i]);
  }
}

/** The check's answer, false when it throws or takes longer than a probe waits. */
async function withinTimeout(check: ReadinessCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
    timer.unref?.();
  });
  try {
    return await Promise.race([Promise.resolve().then(check), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
