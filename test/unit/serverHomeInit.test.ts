/**
 * The server pod's init container, run for real: its rendered command (the render the YAML and the
 * component share) in `sh`, over a temporary folder standing in for the pod's volumes, as the pod's
 * user. Kubernetes runs init containers again when it recreates a pod's sandbox, over the same
 * emptyDir, so the step has to succeed a second time over its own output.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import { SERVER_SECRET_KEYS } from "../../provider/serverInstall/serverObjectNames";
import { placeholderInstall } from "../../scripts/generators/serverDeployFile";
import { temporaryFolderEach } from "./support/temporaryFolder";

type Json = Record<string, any>;

const pod: Json = (
  serverInstallation(placeholderInstall("0.0.0")).objects.find(({ object }) => object.kind === "Deployment")!
    .object as Json
).spec.template.spec;
const home: Json = pod.initContainers[0];
const volumeOf = (name: string): Json => pod.volumes.find((volume: Json) => volume.name === name);
const passphraseMount: Json = home.volumeMounts.find((mount: Json) =>
  volumeOf(mount.name).secret?.items.some((item: Json) => item.key === SERVER_SECRET_KEYS.statePassphrase),
);
const workMount: Json = home.volumeMounts.find((mount: Json) => volumeOf(mount.name).emptyDir);
const HOME_ENV: string = home.env.find((e: Json) => e.name === "KUBESPACES_HOME").value;

/**
 * Root reads and writes any file whatever its mode, so root would hide a step that fails over a
 * read-only file: as root, the step runs as the pod's user and group (setpriv), as in the pod.
 */
const asPodUser = process.getuid?.() === 0;
const { runAsUser, fsGroup } = pod.securityContext as { runAsUser: number; fsGroup: number };

/** The pod's volumes under `dir`: each mount path becomes `dir/<volume>`. */
function standIns(dir: string): (text: string) => string {
  const mounts = [passphraseMount, workMount].sort((a, b) => b.mountPath.length - a.mountPath.length);
  return (text) => mounts.reduce((out, m) => out.split(m.mountPath).join(path.join(dir, m.name)), text);
}

/** Makes the Secret's volume as the kubelet does: each item a file of the volume's defaultMode, group fsGroup. */
function mountSecret(dir: string, passphrase: string): void {
  const { secret } = volumeOf(passphraseMount.name);
  const folder = path.join(dir, passphraseMount.name);
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o755);
  for (const item of secret.items) {
    const file = path.join(folder, item.path);
    writeFileSync(file, item.key === SERVER_SECRET_KEYS.statePassphrase ? passphrase : "other");
    chmodSync(file, secret.defaultMode);
    if (asPodUser) chownSync(file, 0, fsGroup);
  }
}

/** Runs the init container's command over the stand-ins in `dir`. */
function runHome(dir: string): { status: number | null; stderr: string } {
  const substitute = standIns(dir);
  const [program, ...args] = [...home.command, ...(home.args ?? [])].map(substitute);
  const user = asPodUser ? ["setpriv", `--reuid=${runAsUser}`, `--regid=${fsGroup}`, "--clear-groups"] : [];
  const [file, ...rest] = [...user, program, ...args];
  const result = spawnSync(file, rest, {
    encoding: "utf8",
    env: { PATH: process.env.PATH, KUBESPACES_HOME: substitute(HOME_ENV) },
  });
  return { status: result.status, stderr: result.stderr };
}

describe("the server pod's home init container", () => {
  const folder = temporaryFolderEach("kubespaces-home-init-");

  it("mounts the Secret and the emptyDir its command names", () => {
    expect(passphraseMount?.mountPath).toBeDefined();
    expect(workMount?.mountPath).toBeDefined();
    expect(HOME_ENV.startsWith(`${workMount.mountPath}/`)).toBe(true);
  });

  it("runs twice over the same emptyDir, leaving the current passphrase, mode 0400, owned by the pod's user", () => {
    const dir = folder();
    chmodSync(dir, 0o755);
    // An emptyDir is a folder anyone may write in (the kubelet makes it 0777).
    const work = path.join(dir, workMount.name);
    mkdirSync(work);
    chmodSync(work, 0o777);
    const passphraseFile = path.join(standIns(dir)(HOME_ENV), "passphrase");

    for (const passphrase of ["first passphrase", "rotated passphrase"]) {
      mountSecret(dir, passphrase);
      const run = runHome(dir);
      expect(run, passphrase).toEqual({ status: 0, stderr: "" });
      expect(readFileSync(passphraseFile, "utf8")).toBe(passphrase);
      const stat = statSync(passphraseFile);
      expect((stat.mode & 0o777).toString(8)).toBe("400");
      expect(stat.uid).toBe(asPodUser ? runAsUser : process.getuid?.());
    }
  });
});
