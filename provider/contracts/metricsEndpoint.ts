/**
 * Where a server replica serves its Prometheus metrics: on a listener of its own, apart from the
 * API and portal, so that a scrape never shares their route (nor their public Gateway) and the
 * port is Prometheus's usual one. The server's configuration (`metricsListen`), its flag, the
 * installation's container and Service ports and the docs all take the port from here.
 */

/** The metrics listener's port, by default and in the server's pods. */
export const METRICS_PORT = 9090;

/** The path the metrics listener serves them at (text exposition format); it serves nothing else. */
export const METRICS_PATH = "/metrics";
