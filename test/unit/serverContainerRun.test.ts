/**
 * How the e2e tier runs the server's Deployment with podman (test/e2e/support/serverContainer.ts):
 * the kubelet's `$(VAR)` expansion, and the flags read from the rendered Deployment, so that a
 * change to the pod's security context or volumes changes the run rather than passing unseen.
 */
import type { V1Deployment } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import { placeholderInstall } from "../../scripts/generators/serverDeployFile";
import { containerEnv, expandKubeletVariables, podmanRunArgs, type ContainerRun } from "../e2e/support/serverContainer";

const deployment = serverInstallation(placeholderInstall("0.0.0-test")).objects.find((o) => o.role === "deployment")!
  .object as unknown as V1Deployment;

const RUN: ContainerRun = {
  name: "server",
  image: "localhost/kubespaces-server:test",
  podName: "kubespaces-server-abc",
  deployment,
  which: "main",
  volumes: { config: { folder: "/c" }, "sign-in": { folder: "/s" }, work: { folder: "/w" }, tmp: { tmpfs: true } },
  kubeletEnv: { KUBERNETES_SERVICE_HOST: "127.0.0.1", KUBERNETES_SERVICE_PORT: "6443" },
  kubeletMounts: ["/sa:/var/run/secrets/kubernetes.io/serviceaccount:ro"],
};

/** The value after each occurrence of `flag`. */
const values = (args: readonly string[], flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));

describe("the kubelet's variable expansion", () => {
  it.each([
    ["--id $(POD_NAME)", "--id pod-1"],
    ["$$(POD_NAME) stays", "$(POD_NAME) stays"],
    ["$(UNSET) stays", "$(UNSET) stays"],
  ])("expands %s", (text, expanded) => {
    expect(expandKubeletVariables(text, { POD_NAME: "pod-1" })).toBe(expanded);
  });
});

describe("the server container's podman run", () => {
  const args = podmanRunArgs(RUN);

  it("runs as the pod's user and group, with its fsGroup, a read-only root, no capabilities and no new privileges", () => {
    const pod = deployment.spec!.template.spec!.securityContext!;
    expect(values(args, "--user")).toEqual([`${pod.runAsUser}:${pod.runAsGroup}`]);
    expect(values(args, "--group-add")).toEqual([String(pod.fsGroup)]);
    expect(args).toContain("--read-only");
    expect(args).toContain("--read-only-tmpfs=false");
    expect(values(args, "--cap-drop")).toEqual(["ALL"]);
    expect(values(args, "--security-opt")).toEqual(["no-new-privileges"]);
  });

  it("mounts each of the container's volumes where it says, read-only where it says, and the kubelet's token", () => {
    const container = deployment.spec!.template.spec!.containers[0];
    const mounts = values(args, "--volume");
    for (const mount of container.volumeMounts!) {
      const given = RUN.volumes[mount.name];
      if ("tmpfs" in given) expect(values(args, "--tmpfs").some((t) => t.startsWith(`${mount.mountPath}:`))).toBe(true);
      else expect(mounts).toContain(`${given.folder}:${mount.mountPath}${mount.readOnly ? ":ro" : ""}`);
    }
    expect(mounts).toContain(RUN.kubeletMounts[0]);
  });

  it("runs the Deployment's command and args, its pod's name in place of $(POD_NAME), with its env and the kubelet's", () => {
    const container = deployment.spec!.template.spec!.containers[0];
    const image = args.indexOf(RUN.image);
    expect(JSON.parse(values(args, "--entrypoint")[0])).toEqual(container.command!.slice(0, 1));
    expect(args.slice(image + 1)).toEqual([
      ...container.command!.slice(1),
      ...container.args!.map((a) => a.replace("$(POD_NAME)", RUN.podName)),
    ]);
    const env = containerEnv(RUN);
    expect(env.POD_NAME).toBe(RUN.podName);
    expect(env.KUBERNETES_SERVICE_HOST).toBe("127.0.0.1");
    expect(values(args, "--stop-timeout")).toEqual([
      String(deployment.spec!.template.spec!.terminationGracePeriodSeconds),
    ]);
  });

  it("refuses a volume it was not given", () => {
    const { tmp: _tmp, ...fewer } = RUN.volumes;
    expect(() => podmanRunArgs({ ...RUN, volumes: fewer })).toThrow(/volume tmp/);
  });
});
