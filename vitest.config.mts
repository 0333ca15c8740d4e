import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Three tiers, each its own npm script: `unit` is hermetic (no Go; Python for Schemathesis only),
// `sdks` builds and installs the generated SDKs (Go, Python), `e2e` needs the local test bed.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          testTimeout: 20_000,
          // Every core: vitest's default leaves one for itself (one worker on a 2-core machine), but
          // the unit tier's main process only collects results, so that core would sit idle.
          maxWorkers: availableParallelism(),
        },
      },
      { test: { name: "sdks", include: ["test/sdks/**/*.test.ts"], testTimeout: 10 * 60_000 } },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/support/testbed.ts"],
          testTimeout: 15 * 60_000,
          hookTimeout: 30 * 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
