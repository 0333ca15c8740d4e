/**
 * `npm run bench`: time and heap to declare 500 tenants under Pulumi mocks, through the Tenant
 * component and as hand-written raw resources, each measured in a fresh Node process, alternating,
 * several rounds; prints the medians and their ratio. Aim: ratio at most 1.2.
 */
import { spawnSync } from "node:child_process";
import * as pulumi from "@pulumi/pulumi";
import { declareRawResources, declareTenants } from "./programs";

const COUNT = Number(process.env.BENCH_TENANTS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Sample {
  readonly ms: number;
  readonly heapBytes: number;
  readonly resources: number;
}

/** Runs one program in this process and prints its Sample as JSON. */
async function measureOne(program: "tenant" | "raw"): Promise<void> {
  // tsx turns on source-mapped stack traces; Pulumi takes a stack trace per resource, and a user's
  // compiled program does not pay for source maps there.
  process.setSourceMapsEnabled(false);
  let count = 0;
  let done: () => void = () => undefined;
  const allRegistered = new Promise<void>((resolve) => (done = resolve));
  let expected = Infinity;
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        if (++count >= expected) done();
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "bench",
    "bench",
    false,
  );
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const perTenant = program === "tenant" ? declareTenants(COUNT) : declareRawResources(COUNT);
  expected = perTenant * COUNT;
  if (count >= expected) done();
  await allRegistered;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const heapBytes = process.memoryUsage().heapUsed - heapBefore;
  process.stdout.write(`${JSON.stringify({ ms, heapBytes, resources: count } satisfies Sample)}\n`);
  process.exit(0);
}

// The child exits as soon as it has printed its sample; Pulumi then reports the registrations
// still in flight (mocks never finish them), so only the JSON line on stdout is read.
function spawnMeasurement(program: "tenant" | "raw"): Sample {
  const child = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", __filename, program], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  const line = child.stdout.split("\n").find((l) => l.startsWith("{"));
  if (!line) throw new Error(`benchmark child for ${program} printed no sample:\n${child.stderr}`);
  return JSON.parse(line);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function main(): void {
  const samples: Record<"tenant" | "raw", Sample[]> = { tenant: [], raw: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const program of ["raw", "tenant"] as const) samples[program].push(spawnMeasurement(program));
    process.stderr.write(`round ${round}/${ROUNDS} done\n`);
  }
  const row = (program: "tenant" | "raw") => {
    const ms = median(samples[program].map((s) => s.ms));
    const heap = median(samples[program].map((s) => s.heapBytes));
    return {
      program,
      resources: samples[program][0].resources,
      totalMs: ms,
      msPerTenant: ms / COUNT,
      heapKiBPerTenant: heap / 1024 / COUNT,
    };
  };
  const raw = row("raw");
  const tenant = row("tenant");
  console.log(`${COUNT} tenants under mocks, median of ${ROUNDS} runs each (fresh process per run)`);
  console.table(
    [raw, tenant].map((r) => ({
      ...r,
      totalMs: r.totalMs.toFixed(0),
      msPerTenant: r.msPerTenant.toFixed(2),
      heapKiBPerTenant: r.heapKiBPerTenant.toFixed(1),
    })),
  );
  console.log(`time ratio tenant/raw: ${(tenant.totalMs / raw.totalMs).toFixed(2)} (aim <= 1.2)`);
  console.log(`heap ratio tenant/raw: ${(tenant.heapKiBPerTenant / raw.heapKiBPerTenant).toFixed(2)}`);
}

const mode = process.argv[2];
if (mode === "tenant" || mode === "raw") void measureOne(mode);
else main();
