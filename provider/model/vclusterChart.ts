/**
 * The vCluster chart the package is written and tested against. The platform's default chart, the
 * chart-values check and the vendored schema it checks with all follow this version; the test bed
 * builds the same version from its Go module (a unit test keeps the two pins equal).
 */

/** The pinned vCluster chart version: the platform's default `chart.version`. */
export const VCLUSTER_CHART_VERSION = "0.36.1";

/** The chart's values.schema.json for that version, as a path under third_party/ (see its README). */
export const VENDORED_CHART_SCHEMA = `vcluster-chart-v${VCLUSTER_CHART_VERSION}/values.schema.json`;
