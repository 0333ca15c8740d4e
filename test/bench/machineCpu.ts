/**
 * The CPU time the whole machine spent while a benchmark phase ran, every process counted (the
 * test bed's control planes, Helm, the server and its engines): it tells a phase bound by the
 * machine's cores from one bound by waiting, and so what no change to the server could win back.
 */
import { cpus } from "node:os";
import { timed } from "./timed";

/** A phase's wall time and the machine's busy CPU time over it. */
export interface MachineLoad {
  /** Wall time, in ms. */
  readonly ms: number;
  /** Busy CPU time of all cores together (user, nice, system, interrupts), in seconds. */
  readonly cpuSeconds: number;
}

/** The machine's busy CPU time since boot, in seconds; idle time is left out. */
function busyCpuSeconds(): number {
  const busyMs = cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0);
  return busyMs / 1000;
}

/** The number of cores the machine has. */
export const machineCores = (): number => cpus().length;

/** How long `action` took, and how much CPU the whole machine spent meanwhile. */
export async function timedWithMachineCpu(action: () => Promise<unknown>): Promise<MachineLoad> {
  const startedCpu = busyCpuSeconds();
  const ms = await timed(action);
  return { ms, cpuSeconds: busyCpuSeconds() - startedCpu };
}

/** "N CPU-s, C of K cores busy": a phase's load as the benches print it. */
export function describeLoad(load: MachineLoad): string {
  const busyCores = load.cpuSeconds / (load.ms / 1000);
  return `${load.cpuSeconds.toFixed(0)} CPU-s, ${busyCores.toFixed(2)} of ${machineCores()} cores busy`;
}
