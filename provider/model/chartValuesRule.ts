/**
 * The values handed to Helm, checked against the vCluster chart's own values.schema.json at
 * preview, so that an override the chart would reject (a wrong type, an unknown key) is refused
 * with the field named instead of failing the install. The schema is the one vendored in
 * third_party/ (see its README), for the chart version it belongs to; another chart version or a
 * chart from disk with another version is not checked.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { renderVclusterValues } from "../render/vclusterValues";
import type { TenantSpec } from "./tenantSpec";
import type { InputProblem } from "./validationError";
import { VCLUSTER_CHART_VERSION, VENDORED_CHART_SCHEMA } from "./vclusterChart";

// provider/model and bin/model both sit two levels below the package root.
const SCHEMA_FILE = path.resolve(__dirname, "../../third_party", VENDORED_CHART_SCHEMA);

let compiled: ValidateFunction | undefined;

/** The compiled schema, once per process: compiling it takes far longer than a check. */
function chartSchema(): ValidateFunction {
  compiled ??= new Ajv2020({ strict: false, allErrors: true }).compile(
    JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as object,
  );
  return compiled;
}

/** What the chart's schema says about the tenant's values, as problems of `vcluster.valuesOverrides`. */
export function chartValuesProblems(spec: TenantSpec): InputProblem[] {
  if (spec.vcluster.chart.version !== VCLUSTER_CHART_VERSION) return [];
  const validate = chartSchema();
  if (validate(renderVclusterValues(spec))) return [];
  const reasons = (validate.errors ?? []).map(
    (error) => `${error.instancePath || "/"} ${error.message ?? "is invalid"}`,
  );
  return [
    {
      path: "vcluster.valuesOverrides",
      message: `make values the vCluster ${VCLUSTER_CHART_VERSION} chart's schema rejects: ${reasons.join("; ")}`,
    },
  ];
}
