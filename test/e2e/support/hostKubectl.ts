/**
 * kubectl against the test bed's host, as a person the tests name (impersonated from the test
 * bed's admin, as an identity provider's users would be), and the Events it shows of a Tenant.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { testbedEnv } from "./testbed";

const run = promisify(execFile);

/** Who kubectl acts as: a user and its groups. */
export interface KubectlIdentity {
  /** The user name the API server sees. */
  readonly user: string;
  /** The groups it sees. */
  readonly groups?: readonly string[];
}

/** kubectl against the test bed, as `as` (impersonated; the test bed's admin when none). */
export function kubectl(as: KubectlIdentity | undefined, ...args: string[]) {
  const impersonation = as ? ["--as", as.user, ...(as.groups ?? []).flatMap((g) => ["--as-group", g])] : [];
  return run("kubectl", [...impersonation, ...args], {
    env: { ...process.env, KUBECONFIG: testbedEnv().KUBECONFIG },
    encoding: "utf8",
  });
}

/** The reasons of the Events on Tenant `name` (it may be gone: Events outlive it), oldest first. */
export async function tenantEventReasons(name: string): Promise<string[]> {
  const { stdout } = await kubectl(
    undefined,
    "get",
    "events",
    "--all-namespaces",
    `--field-selector=involvedObject.kind=Tenant,involvedObject.name=${name}`,
    "--sort-by=.eventTime",
    "-o",
    "jsonpath={range .items[*]}{.reason} {end}",
  );
  return stdout.trim().split(/\s+/).filter(Boolean);
}
