/**
 * `kubespaces version [-o json|yaml]`: the command's version, the versions the package pins (the
 * Pulumi SDK and Kubernetes provider it drives the engine with, the vCluster chart a tenant gets by
 * default) and, in server mode, the server it goes through. The server's API has no route that
 * tells its version (contracts/tenantsApi.ts), so the server's version is said to be unknown, never
 * guessed from the command's.
 */
import { VCLUSTER_CHART_VERSION } from "../../model/vclusterChart";
import type { CommandEnv } from "../commandEnv";
import { EXIT } from "../exitCodes";
import { formatted } from "../formatOutput";
import { readLoginSettings } from "../loginSettings";
import { packageManifest } from "../packageManifest";

/** `version`'s options. */
export interface VersionOptions {
  /** Print the versions as a document; none: as lines for people. */
  readonly output?: "json" | "yaml";
}

/** The versions, as `-o json|yaml` prints them. */
export interface Versions {
  /** The command's (the package's) version. */
  readonly clientVersion: string;
  /** What the package pins. */
  readonly pins: {
    /** The Pulumi SDK (`@pulumi/pulumi`), whose Automation API drives the engine. */
    readonly pulumi: string;
    /** The Kubernetes provider (`@pulumi/kubernetes`). */
    readonly kubernetesProvider: string;
    /** The vCluster chart a tenant gets by default. */
    readonly vclusterChart: string;
  };
  /** The kubespaces server the tenant commands go through (server mode); its version is unknown (null): its API does not tell. */
  readonly server?: { readonly url: string; readonly version: null };
}

/** Runs `version`; `clientVersion` is the command's own. */
export async function showVersion(env: CommandEnv, clientVersion: string, options: VersionOptions): Promise<number> {
  const versions = versionsOf(clientVersion, readLoginSettings().server);
  env.stdout.write(
    options.output
      ? formatted({ rows: [], columns: [], document: versions, names: [] }, options.output)
      : versionLines(versions),
  );
  return EXIT.ok;
}

/** The versions, with the server `server` (server mode) or none. */
function versionsOf(clientVersion: string, server: string | undefined): Versions {
  const { dependencies } = packageManifest();
  return {
    clientVersion,
    pins: {
      pulumi: dependencies["@pulumi/pulumi"],
      kubernetesProvider: dependencies["@pulumi/kubernetes"],
      vclusterChart: VCLUSTER_CHART_VERSION,
    },
    ...(server && { server: { url: server, version: null } }),
  };
}

/** The versions as lines for people, as `kubectl version` prints them. */
function versionLines({ clientVersion, pins, server }: Versions): string {
  return [
    `Client Version: ${clientVersion}`,
    `Pulumi SDK: ${pins.pulumi}`,
    `Kubernetes provider: ${pins.kubernetesProvider}`,
    `vCluster chart: ${pins.vclusterChart}`,
    server
      ? `Server: ${server.url}, version unknown (its API does not tell it)`
      : "Server: none (local mode: the tenants' stacks run from this machine)",
    "",
  ].join("\n");
}
