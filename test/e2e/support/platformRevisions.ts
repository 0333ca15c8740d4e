/** PlatformRevision manifests for the tests and benchmarks that preview a policy on the fleet. */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import {
  PLATFORM_REVISION_API_VERSION,
  PLATFORM_REVISION_KIND,
} from "../../../provider/contracts/platformRevisionNames";

/**
 * A file of its own holding the manifest of PlatformRevision `name` with policy `platform`, rolled
 * out in `waves` (none: the default ones).
 */
export function platformRevisionFile(name: string, platform: object, waves?: readonly string[]): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-revision-")), `${name}.yaml`);
  const revision = {
    apiVersion: PLATFORM_REVISION_API_VERSION,
    kind: PLATFORM_REVISION_KIND,
    metadata: { name },
    spec: { platform, ...(waves && { waves }) },
  };
  writeFileSync(file, stringify(revision));
  return file;
}
