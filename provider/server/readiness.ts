/**
 * When a replica is ready to serve (`/readyz`): each condition is asked until it is met once, and
 * then stays met (readiness gates the first traffic; liveness, `/healthz`, says the process runs).
 * A condition that does not answer within the probe's own time counts as not met yet.
 */

/** One condition: met or not; it may try something (discover the issuer, list Tenants) to find out. */
export type ReadinessCheck = () => Promise<boolean> | boolean;

/** How long one probe waits for a condition that tries something. */
const CHECK_TIMEOUT_MS = 2_000;

/** The replica's readiness. */
export class Readiness {
  private readonly met = new Set<string>();

  /** `checks` by name: the names `/readyz` reports while they are not met. */
  constructor(private readonly checks: Readonly<Record<string, ReadinessCheck>> = {}) {}

  /** Marks condition `name` met (a watch that synced says so itself). */
  markMet(name: string): void {
    this.met.add(name);
  }

  /** The conditions not met yet, each asked once more. */
  async unmet(): Promise<string[]> {
    const names = Object.keys(this.checks).filter((name) => !this.met.has(name));
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
