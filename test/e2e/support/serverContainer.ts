/**
 * A container of the server's Deployment (provider/serverInstall/, the object `kubectl apply`
 * would send) run with podman as the kubelet would run it, as far as one `podman run` goes: its
 * command and args (`$(VAR)` expanded as the kubelet expands them), its env (field references
 * and the envFrom Secret resolved here), its security context (user and group, the pod's fsGroup
 * as a supplementary group, a read-only root, every capability dropped, no new privileges), its
 * memory limit, and its volume mounts, each volume a host folder or a tmpfs the caller made. What
 * is read from the Deployment is read, never copied, so that a change there changes the run.
 */
import type { V1Container, V1Deployment, V1EnvVar } from "@kubernetes/client-node";

/** How a pod volume is given to the container: a host folder (an emptyDir shared by the pod's containers, a ConfigMap's or Secret's files), or a tmpfs. */
export type HostVolume = { readonly folder: string } | { readonly tmpfs: true };

/** One container of the Deployment's pod, run with podman. */
export interface ContainerRun {
  /** The container's name in podman. */
  readonly name: string;
  /** The image to run (the Deployment's is a placeholder). */
  readonly image: string;
  /** The pod's name: what `fieldRef: metadata.name` gives. */
  readonly podName: string;
  /** The Deployment the container is in. */
  readonly deployment: V1Deployment;
  /** Which of its containers: "init" for its (only) init container, "main" for its (only) container. */
  readonly which: "init" | "main";
  /** The pod's volumes, by name, as this machine gives them. */
  readonly volumes: Readonly<Record<string, HostVolume>>;
  /** The values of the Secret its `envFrom` names, when there is one. */
  readonly envFromSecret?: Readonly<Record<string, string>>;
  /** What the kubelet adds to every container: the API server's address (KUBERNETES_SERVICE_HOST and _PORT). */
  readonly kubeletEnv: Readonly<Record<string, string>>;
  /** Mounts the kubelet adds (`host:container[:ro]`): the ServiceAccount's token, CA and namespace. */
  readonly kubeletMounts: readonly string[];
  /** Mounts the test bed adds beside the Deployment's, each said why where it is made. */
  readonly extraMounts?: readonly string[];
  /** Labels of the container: the test bed's `down` removes those labelled with its run dir. */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * The network: the machine's, for the test bed's API server, database and issuer on loopback.
   * @default "host"
   */
  readonly network?: string;
}

/** The container `which` of the Deployment's pod template. */
export function podContainer(deployment: V1Deployment, which: "init" | "main"): V1Container {
  const spec = deployment.spec!.template.spec!;
  const containers = (which === "init" ? spec.initContainers : spec.containers) ?? [];
  if (containers.length !== 1) throw new Error(`the Deployment has ${containers.length} ${which} containers, not 1`);
  return containers[0];
}

/** `text` with `$(NAME)` replaced by `env`'s value, `$$(NAME)` left as `$(NAME)`, as the kubelet expands command and args. */
export function expandKubeletVariables(text: string, env: Readonly<Record<string, string>>): string {
  return text.replace(/\$(\$)?\((\w+)\)/g, (whole, escaped: string | undefined, name: string) => {
    if (escaped) return `$(${name})`;
    return name in env ? env[name] : whole;
  });
}

/** One env var's value, its field reference resolved; a source this run cannot give fails. */
function envValue(variable: V1EnvVar, podName: string): string {
  if (variable.value !== undefined) return variable.value;
  const field = variable.valueFrom?.fieldRef?.fieldPath;
  if (field === "metadata.name") return podName;
  throw new Error(`env ${variable.name}: only values and fieldRef metadata.name are run here`);
}

/** The container's environment as the kubelet builds it: envFrom first, then env, then the kubelet's own. */
export function containerEnv(run: ContainerRun): Record<string, string> {
  const container = podContainer(run.deployment, run.which);
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (!source.secretRef) throw new Error("envFrom: only a secretRef is run here");
    if (!run.envFromSecret && !source.secretRef.optional)
      throw new Error(`envFrom: Secret ${source.secretRef.name} is not optional and none was given`);
    Object.assign(env, run.envFromSecret ?? {});
  }
  for (const variable of container.env ?? []) env[variable.name] = envValue(variable, run.podName);
  return { ...env, ...run.kubeletEnv };
}

/** podman's form of a memory quantity (Mi, Gi). */
function podmanMemory(quantity: string): string {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`memory limit ${quantity}: only Mi and Gi are run here`);
  return `${match[1]}${match[2] === "Mi" ? "m" : "g"}`;
}

/** The security context's flags: the pod's and the container's, the container's winning, as the kubelet merges them. */
function securityFlags(deployment: V1Deployment, container: V1Container): string[] {
  const pod = deployment.spec!.template.spec!.securityContext ?? {};
  const own = container.securityContext ?? {};
  const uid = own.runAsUser ?? pod.runAsUser;
  const gid = own.runAsGroup ?? pod.runAsGroup;
  if (uid === undefined || gid === undefined) throw new Error("the pod names no user and group to run as");
  const flags = ["--user", `${uid}:${gid}`];
  if (pod.fsGroup !== undefined) flags.push("--group-add", String(pod.fsGroup));
  // The root is read-only and nothing is mounted on it but the pod's volumes: podman's own tmpfs
  // on /tmp, /run and /var/tmp (its default with --read-only) would hide what the pod lacks.
  if (own.readOnlyRootFilesystem) flags.push("--read-only", "--read-only-tmpfs=false");
  for (const capability of own.capabilities?.drop ?? []) flags.push("--cap-drop", capability);
  if (own.allowPrivilegeEscalation === false) flags.push("--security-opt", "no-new-privileges");
  // RuntimeDefault is podman's default seccomp profile; any other profile is not run here.
  const seccomp = own.seccompProfile?.type ?? pod.seccompProfile?.type;
  if (seccomp !== "RuntimeDefault") throw new Error(`seccomp profile ${seccomp}: only RuntimeDefault is run here`);
  return flags;
}

/** The container's volume mounts as podman's flags, from the pod's volumes as this machine gives them. */
function mountFlags(run: ContainerRun, container: V1Container): string[] {
  return (container.volumeMounts ?? []).flatMap((mount) => {
    const volume = run.volumes[mount.name];
    if (!volume) throw new Error(`volume ${mount.name} was not given`);
    if ("tmpfs" in volume) return ["--tmpfs", `${mount.mountPath}:rw,nosuid,nodev,mode=1777`];
    return ["--volume", `${volume.folder}:${mount.mountPath}${mount.readOnly ? ":ro" : ""}`];
  });
}

/** `podman run` arguments (after `run`) that run the container detached, as the Deployment says. */
export function podmanRunArgs(run: ContainerRun): string[] {
  const container = podContainer(run.deployment, run.which);
  const env = containerEnv(run);
  const command = (container.command ?? []).map((word) => expandKubeletVariables(word, env));
  const args = (container.args ?? []).map((word) => expandKubeletVariables(word, env));
  if (command.length === 0) throw new Error("the container names no command: the image's entrypoint is not run here");
  const memory = container.resources?.limits?.memory;
  const grace = run.deployment.spec!.template.spec!.terminationGracePeriodSeconds;
  return [
    "--detach",
    "--name",
    run.name,
    "--network",
    run.network ?? "host",
    ...Object.entries(run.labels ?? {}).flatMap(([key, value]) => ["--label", `${key}=${value}`]),
    ...securityFlags(run.deployment, container),
    ...(memory ? ["--memory", podmanMemory(memory)] : []),
    // What the kubelet gives a pod to stop in before it kills it.
    ...(grace !== undefined ? ["--stop-timeout", String(grace)] : []),
    ...Object.entries(env).flatMap(([name, value]) => ["--env", `${name}=${value}`]),
    ...mountFlags(run, container),
    ...[...run.kubeletMounts, ...(run.extraMounts ?? [])].flatMap((mount) => ["--volume", mount]),
    "--entrypoint",
    JSON.stringify(command.slice(0, 1)),
    run.image,
    ...command.slice(1),
    ...args,
  ];
}
