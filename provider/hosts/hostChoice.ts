/**
 * The one rule that decides the host cluster, for `kubespaces` and for `npm start` alike: the
 * context you named (`kubespaces login --context`, a tenant command's `--context` for one run,
 * hostOfRun, or `KUBESPACES_CONTEXT` for `npm start`), else, in a checkout of the repository, the
 * local test bed. Never an ambient kubeconfig: a newcomer's `~/.kube/config` may point at a
 * cluster that matters.
 */
import type { HostPort } from "../tenants/ports";
import { HostUnavailableError } from "../tenants/tenantsErrors";
import { oneContext } from "../kubeconfig/hostKubeconfig";
import { userKubeconfigFile } from "../kubeconfig/kubeconfigMerge";
import { ProblemError } from "../util/problemError";
import { hasTestbed, testbedHost } from "./testbedHost";

/** What names a host. */
export interface HostNaming {
  /** A kubeconfig context; none means the test bed. */
  readonly context?: string;
  /** The kubeconfig file of that context; default the first of `$KUBECONFIG`, else `~/.kube/config`. */
  readonly kubeconfig?: string;
}

/** The kinds of host the rule picks from. */
export type HostKind = "context" | "testbed" | "none";

/** The rule itself. */
export function hostKind(naming: HostNaming): HostKind {
  if (naming.context) return "context";
  return hasTestbed() ? "testbed" : "none";
}

/**
 * The host of one run: the recorded one, unless the run names its own as kubectl does.
 * `--context NAME` is that context of `--kubeconfig FILE`, else of `$KUBECONFIG` / `~/.kube/config`
 * (never the recorded file: kubectl reads the default one). `--kubeconfig FILE` alone is the
 * recorded context read from FILE, as `login --kubeconfig` alone keeps the context; with none
 * recorded it is refused, since the host is never whatever context a file happens to make current.
 * @param recorded the login's host.
 * @param flags the run's `--context` and `--kubeconfig`.
 */
export function hostOfRun(recorded: HostNaming, flags: HostNaming): HostNaming {
  if (flags.context !== undefined) return { context: flags.context, kubeconfig: flags.kubeconfig };
  if (flags.kubeconfig === undefined) return { context: recorded.context, kubeconfig: recorded.kubeconfig };
  if (recorded.context === undefined)
    throw new ProblemError(
      `--kubeconfig ${flags.kubeconfig} names the file of a context, and none is named: add --context NAME (the host is never a file's current context)`,
      "invalid",
    );
  return { context: recorded.context, kubeconfig: flags.kubeconfig };
}

/** For people: which host the rule picks. */
export function describeHost(naming: HostNaming): string {
  const kind = hostKind(naming);
  if (kind === "context") return `context ${naming.context} of ${kubeconfigFileOf(naming)}`;
  return kind === "testbed" ? "the local test bed (default)" : "none: run `kubespaces login --context NAME`";
}

/** The host the rule picks. */
export function chooseHost(naming: HostNaming): HostPort {
  const kind = hostKind(naming);
  if (kind === "context") return contextHost(naming.context!, kubeconfigFileOf(naming));
  if (kind === "testbed") return testbedHost();
  return {
    resolve: async () => {
      throw new HostUnavailableError(
        "no host cluster is configured: run `kubespaces login --context NAME` (a context of your kubeconfig)",
      );
    },
    engineEnvForReads: () => ({}),
  };
}

/** The kubeconfig file a context is read from. */
export function kubeconfigFileOf(naming: HostNaming): string {
  return naming.kubeconfig ?? userKubeconfigFile();
}

function contextHost(context: string, file: string): HostPort {
  return {
    resolve: async () => ({
      description: `context ${context} of ${file}`,
      kubeconfig: await oneContext(file, context),
      engineEnv: {},
    }),
    engineEnvForReads: () => ({}),
  };
}
