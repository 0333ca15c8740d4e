/**
 * The vCluster version is written where each tool reads it: the package's constant (the platform's
 * default chart and the vendored schema it checks with), the test bed's versions.sh and the Go
 * module pin its vcluster tool builds from (Go reads only its go.mod). None of them can read
 * another, so this test holds them equal: the unit tier tests against the chart the test bed runs.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { VCLUSTER_CHART_VERSION, VENDORED_CHART_SCHEMA } from "../../provider/model/vclusterChart";

const root = path.resolve(__dirname, "../..");

/** The first capture of `pattern` in the repository file `file`. */
function pinIn(file: string, pattern: RegExp): string | undefined {
  return readFileSync(path.join(root, file), "utf8").match(pattern)?.[1];
}

it("the test bed builds the vCluster version the package pins", () => {
  expect(pinIn("test/testbed/lib/versions.sh", /^VCLUSTER_VERSION=v(\S+)$/m)).toBe(VCLUSTER_CHART_VERSION);
});

it("the test bed's vcluster tool requires that version of the Go module", () => {
  const goMod = "test/testbed/tools/vcluster/go.mod";
  expect(pinIn(goMod, /^require github\.com\/loft-sh\/vcluster v(\S+)$/m)).toBe(VCLUSTER_CHART_VERSION);
});

it("the chart's schema for that version is vendored", () => {
  expect(existsSync(path.join(root, "third_party", VENDORED_CHART_SCHEMA))).toBe(true);
});
