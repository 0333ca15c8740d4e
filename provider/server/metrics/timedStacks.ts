/**
 * A tenant's stack operations timed: the Pulumi `up`, `preview` and `destroy` that reconciles run,
 * each observed in `kubespaces_pulumi_operation_duration_seconds` with its outcome. A wrapper of
 * the TenantStacks port, so that neither the service nor the Automation API adapter knows of metrics.
 */
import type { TenantStacks } from "../../tenants/ports";
import type { ServerMetrics, StackOperation } from "./serverMetrics";

/** `stacks`, with its operations timed into `metrics`. */
export function timedStacks(stacks: TenantStacks, metrics: ServerMetrics): TenantStacks {
  const timed = async <T>(operation: StackOperation, run: () => Promise<T>): Promise<T> => {
    const end = metrics.stackSeconds.startTimer({ operation });
    try {
      const result = await run();
      end({ outcome: "ok" });
      return result;
    } catch (error) {
      end({ outcome: "failed" });
      throw error;
    }
  };
  return {
    up: (name, program, run) => timed("up", () => stacks.up(name, program, run)),
    preview: (name, program, run) => timed("preview", () => stacks.preview(name, program, run)),
    destroy: (name, run) => timed("destroy", () => stacks.destroy(name, run)),
    exists: (name, engineEnv) => stacks.exists(name, engineEnv),
    kubeconfig: (name, engineEnv) => stacks.kubeconfig(name, engineEnv),
    history: (name, engineEnv) => stacks.history(name, engineEnv),
  };
}
