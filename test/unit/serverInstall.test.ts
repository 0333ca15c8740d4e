/**
 * `kubespaces server` in a host cluster, as plain objects: what the render makes of the options,
 * the pods' security, that no secret value is ever rendered, the options' checks, and the image's
 * pins. The component over it is kubespacesServerComponent.test.ts's; the YAML's freshness is
 * generatedFiles.test.ts's.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { METRICS_PORT } from "../../provider/contracts/metricsEndpoint";
import { installOptions } from "../../provider/tenantResource/installOptions";
import type { KubeObject } from "../../provider/tenantResource/kubeObject";
import { tenantResourceInstallation } from "../../provider/tenantResource/tenantResourceInstallation";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import {
  ServerInstallError,
  serverInstallSchema,
  type ServerInstallInput,
} from "../../provider/serverInstall/serverInstallOptions";
import { SERVER_SECRET_KEYS } from "../../provider/serverInstall/serverObjectNames";
import { KUBESPACES_HOME, PULUMI_HOME, SERVER_UID, WORK_DIR } from "../../provider/serverInstall/serverPodLayout";
import { SERVER_DEPLOY_FILE, SERVER_PLACEHOLDERS } from "../../scripts/generators/serverDeployFile";
import { thrownBy } from "./support/thrown";
import { quantityValue } from "../../provider/model/quantity";

const root = path.resolve(__dirname, "../..");

const INPUT: ServerInstallInput = {
  image: "registry.example.com/kubespaces-server:1.2.3",
  stateBackend: { url: "s3://kubespaces-state" },
  config: { signIn: { issuer: "https://login.example.com" }, requireApproval: true },
  route: {
    gateway: { name: "platform", namespace: "gateways", sectionName: "https" },
    hostname: "kubespaces.example.com",
  },
};

type Json = Record<string, any>;

/** The rendered object of `role`. */
function objectOf(input: ServerInstallInput, role: string): Json {
  const found = serverInstallation(input).objects.find((installed) => installed.role === role);
  if (!found) throw new Error(`no ${role} was rendered`);
  return found.object as Json;
}

const podOf = (input: ServerInstallInput): Json => objectOf(input, "deployment").spec.template.spec;
const containerOf = (input: ServerInstallInput, name: string): Json =>
  [...podOf(input).initContainers, ...podOf(input).containers].find((c: Json) => c.name === name);
const configOf = (input: ServerInstallInput): Json => parse(objectOf(input, "config").data["server.yaml"]) as Json;

describe("the server's installation", () => {
  it("is its configuration, Deployment, disruption budget, Service, NetworkPolicy and route, all in the server's namespace", () => {
    const { objects } = serverInstallation(INPUT);
    expect(
      objects.map(({ role, object }) => `${role} ${object.kind} ${object.metadata.namespace}/${object.metadata.name}`),
    ).toEqual([
      "config ConfigMap kubespaces-system/kubespaces-server-config",
      "deployment Deployment kubespaces-system/kubespaces-server",
      "disruption-budget PodDisruptionBudget kubespaces-system/kubespaces-server",
      "service Service kubespaces-system/kubespaces-server",
      "network-policy NetworkPolicy kubespaces-system/kubespaces-server",
      "route HTTPRoute kubespaces-system/kubespaces-server",
    ]);
    for (const { object } of objects)
      expect(object.metadata.labels).toMatchObject({ "app.kubernetes.io/part-of": "kubespaces" });
  });

  it("writes the configuration with what the installation sets, each from its one source", () => {
    expect(configOf(INPUT)).toEqual({
      namespace: "kubespaces-system",
      adminGroup: "kubespaces-admins",
      requireApproval: true,
      metricsListen: `0.0.0.0:${METRICS_PORT}`,
      http: {
        listen: "0.0.0.0:8080",
        publicUrl: "https://kubespaces.example.com",
        sessionKeyFile: `/etc/kubespaces/sign-in/${SERVER_SECRET_KEYS.sessionKey}`,
      },
      signIn: {
        issuer: "https://login.example.com",
        portalClientSecretFile: `/etc/kubespaces/sign-in/${SERVER_SECRET_KEYS.portalClientSecret}`,
      },
    });
  });

  it("mounts the files the configuration names: the configuration itself and the Secret's sign-in keys", () => {
    const pod = podOf(INPUT);
    const server = containerOf(INPUT, "server");
    const config = configOf(INPUT);
    /** The key of the volume that puts `file` into the server container. */
    const sourceOf = (file: string) => {
      const mount = server.volumeMounts.find((m: Json) => path.posix.dirname(file) === m.mountPath);
      const volume = pod.volumes.find((v: Json) => v.name === mount?.name);
      const key = path.posix.basename(file);
      if (volume?.configMap) return `configMap ${volume.configMap.name} ${key}`;
      return volume?.secret?.items.some((item: Json) => item.key === key && item.path === key)
        ? `secret ${volume.secret.secretName} ${key}`
        : "not mounted";
    };
    const configFile = server.args[server.args.indexOf("--config") + 1];
    expect([configFile, config.http.sessionKeyFile, config.signIn.portalClientSecretFile].map(sourceOf)).toEqual([
      "configMap kubespaces-server-config server.yaml",
      `secret kubespaces-server ${SERVER_SECRET_KEYS.sessionKey}`,
      `secret kubespaces-server ${SERVER_SECRET_KEYS.portalClientSecret}`,
    ]);
    // The passphrase is the home's init container's alone.
    expect(JSON.stringify(server.volumeMounts)).not.toContain("state");
  });

  it("runs the pods as the ServiceAccount the Tenant resource's RBAC binds, in its namespace, with its admin group", () => {
    const installation = { namespace: "platform-ks", server: { serviceAccount: "ks-server" }, adminGroup: "ops" };
    const input = { ...INPUT, installation };
    const binding = tenantResourceInstallation(installOptions(installation)).rbac.find(
      ({ object }) => object.kind === "ClusterRoleBinding",
    )!.object as Json;
    expect(binding.subjects).toEqual([{ kind: "ServiceAccount", name: "ks-server", namespace: "platform-ks" }]);
    expect(podOf(input).serviceAccountName).toBe("ks-server");
    expect(serverInstallation(input).objects.map(({ object }) => object.metadata.namespace)).toEqual(
      Array(6).fill("platform-ks"),
    );
    expect(configOf(input)).toMatchObject({ namespace: "platform-ks", adminGroup: "ops" });
  });

  it("starts the server with its configuration, the shared backend and the pod's name as its identity", () => {
    const server = containerOf(INPUT, "server");
    expect([...server.command, ...server.args]).toEqual([
      "kubespaces",
      "server",
      "--config",
      "/etc/kubespaces/config/server.yaml",
      "--backend",
      "s3://kubespaces-state",
      "--id",
      "$(POD_NAME)",
    ]);
    expect(server.env).toContainEqual({ name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } });
    expect(server.envFrom).toBeUndefined();
    const withCredentials = { ...INPUT, stateBackend: { url: "s3://b", credentialsSecret: "state-credentials" } };
    expect(containerOf(withCredentials, "server").envFrom).toEqual([{ secretRef: { name: "state-credentials" } }]);
    const withOptional = {
      ...INPUT,
      stateBackend: { ...withCredentials.stateBackend, credentialsSecretOptional: true },
    };
    expect(containerOf(withOptional, "server").envFrom).toEqual([
      { secretRef: { name: "state-credentials", optional: true } },
    ]);
  });

  it("probes /healthz for liveness and /readyz for readiness, on the container's port", () => {
    const server = containerOf({ ...INPUT, port: 8081 }, "server");
    expect(server.ports).toContainEqual({ name: "http", containerPort: 8081, protocol: "TCP" });
    const probed = (probe: Json) => `${probe.httpGet.path} ${probe.httpGet.port}`;
    expect([server.startupProbe, server.livenessProbe, server.readinessProbe].map(probed)).toEqual([
      "/healthz http",
      "/healthz http",
      "/readyz http",
    ]);
    expect(configOf({ ...INPUT, port: 8081 }).http.listen).toBe("0.0.0.0:8081");
  });

  it("serves the metrics on a port of their own, in the Service too, where the HTTPRoute does not lead", () => {
    const server = containerOf(INPUT, "server");
    expect(server.ports).toEqual([
      { name: "http", containerPort: 8080, protocol: "TCP" },
      { name: "metrics", containerPort: METRICS_PORT, protocol: "TCP" },
    ]);
    expect(configOf(INPUT).metricsListen).toBe(`0.0.0.0:${METRICS_PORT}`);
    const { ports } = objectOf(INPUT, "service").spec as { ports: Json[] };
    expect(ports.find((port) => port.name === "metrics")).toMatchObject({ port: METRICS_PORT, targetPort: "metrics" });
    const http = ports.find((port) => port.name === "http")!;
    const backends = objectOf(INPUT, "route").spec.rules.flatMap((rule: Json) => rule.backendRefs);
    expect(backends.map((backend: Json) => backend.port)).toEqual([http.port]);
    expect(http.port).not.toBe(METRICS_PORT);
  });

  it("refuses the metrics port as the API and portal's", () => {
    const error = thrownBy(() => serverInstallation({ ...INPUT, port: METRICS_PORT })) as ServerInstallError;
    expect(error).toBeInstanceOf(ServerInstallError);
    expect(error.problems.map((p) => p.path)).toEqual(["port"]);
    expect(error.problems[0].message).toContain(`${METRICS_PORT}`);
  });

  it("runs N replicas, spread across nodes, at most one away in a drain", () => {
    const deployment = objectOf({ ...INPUT, replicas: 3 }, "deployment");
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: "kubernetes.io/hostname",
        whenUnsatisfiable: "ScheduleAnyway",
        labelSelector: { matchLabels: deployment.spec.selector.matchLabels },
      },
    ]);
    expect(objectOf(INPUT, "disruption-budget").spec).toEqual({
      maxUnavailable: 1,
      selector: { matchLabels: deployment.spec.selector.matchLabels },
    });
    expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
  });

  it("rolls the pods when the configuration changes, and only then", () => {
    const digest = (input: ServerInstallInput) =>
      objectOf(input, "deployment").spec.template.metadata.annotations["kubespaces.io/config-sha256"];
    expect(digest(INPUT)).toMatch(/^[0-9a-f]{64}$/);
    expect(digest({ ...INPUT, replicas: 5 })).toBe(digest(INPUT));
    expect(digest({ ...INPUT, config: { ...INPUT.config, requireApproval: false } })).not.toBe(digest(INPUT));
  });

  it("routes the hostname through the platform's Gateway to the Service", () => {
    expect(objectOf({ ...INPUT, servicePort: 8443 }, "service").spec).toEqual({
      type: "ClusterIP",
      selector: { "app.kubernetes.io/name": "kubespaces-server" },
      ports: [
        { name: "http", port: 8443, targetPort: "http", protocol: "TCP" },
        { name: "metrics", port: METRICS_PORT, targetPort: "metrics", protocol: "TCP" },
      ],
    });
    const route = objectOf({ ...INPUT, servicePort: 8443 }, "route");
    expect(route.apiVersion).toBe("gateway.networking.k8s.io/v1");
    expect(route.spec).toEqual({
      parentRefs: [
        {
          group: "gateway.networking.k8s.io",
          kind: "Gateway",
          name: "platform",
          namespace: "gateways",
          sectionName: "https",
        },
      ],
      hostnames: ["kubespaces.example.com"],
      rules: [{ backendRefs: [{ group: "", kind: "Service", name: "kubespaces-server", port: 8443 }] }],
    });
  });

  it("renders no route without one; the public URL then comes from the configuration", () => {
    const input = {
      ...INPUT,
      route: undefined,
      config: { ...INPUT.config, http: { publicUrl: "https://ks.example.org" } },
    };
    expect(serverInstallation(input).objects.map((o) => o.role)).not.toContain("route");
    expect(configOf(input).http.publicUrl).toBe("https://ks.example.org");
  });
});

/**
 * What Pod Security `restricted` refuses in a pod (its checks that apply to these fields): host
 * namespaces and paths, privileged containers, privilege escalation, added capabilities or
 * capabilities not all dropped, root, seccomp other than RuntimeDefault or Localhost, and volume
 * types other than the allowed ones. One message per violation.
 */
function restrictedViolations(pod: Json): string[] {
  const found: string[] = [];
  for (const field of ["hostNetwork", "hostPID", "hostIPC"]) if (pod[field]) found.push(`pod ${field}`);
  const allowedVolumes = ["configMap", "secret", "emptyDir", "projected", "downwardAPI", "persistentVolumeClaim"];
  for (const volume of pod.volumes ?? [])
    if (!Object.keys(volume).some((key) => allowedVolumes.includes(key))) found.push(`volume ${volume.name}`);
  const podContext = pod.securityContext ?? {};
  for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
    const context = container.securityContext ?? {};
    const at = (what: string) => found.push(`${container.name}: ${what}`);
    if (context.privileged) at("privileged");
    if (context.allowPrivilegeEscalation !== false) at("allowPrivilegeEscalation is not false");
    if (!(context.capabilities?.drop ?? []).includes("ALL")) at("capabilities: ALL not dropped");
    for (const added of context.capabilities?.add ?? []) if (added !== "NET_BIND_SERVICE") at(`adds ${added}`);
    if ((context.runAsNonRoot ?? podContext.runAsNonRoot) !== true) at("runAsNonRoot is not true");
    if ((context.runAsUser ?? podContext.runAsUser) === 0) at("runs as uid 0");
    const seccomp = (context.seccompProfile ?? podContext.seccompProfile)?.type;
    if (seccomp !== "RuntimeDefault" && seccomp !== "Localhost") at(`seccomp ${seccomp}`);
    for (const port of container.ports ?? []) if (port.hostPort) at("hostPort");
  }
  return found;
}

describe("the server's pods", () => {
  it("meet Pod Security restricted", () => {
    expect(restrictedViolations(podOf(INPUT))).toEqual([]);
  });

  it("are checked by a rule that finds what restricted refuses", () => {
    // The check above would pass vacuously if it found nothing ever.
    const pod = structuredClone(podOf(INPUT));
    pod.hostNetwork = true;
    pod.volumes.push({ name: "node", hostPath: { path: "/" } });
    pod.containers[0].securityContext = { ...pod.containers[0].securityContext, allowPrivilegeEscalation: true };
    pod.initContainers[0].securityContext = {
      ...pod.initContainers[0].securityContext,
      capabilities: { add: ["SYS_ADMIN"] },
    };
    expect(restrictedViolations(pod)).toEqual([
      "pod hostNetwork",
      "volume node",
      "home: capabilities: ALL not dropped",
      "home: adds SYS_ADMIN",
      "server: allowPrivilegeEscalation is not false",
    ]);
  });

  it("have a read-only root, and write only to emptyDirs: the work folder (HOME and both homes) and /tmp", () => {
    const pod = podOf(INPUT);
    for (const container of [...pod.initContainers, ...pod.containers])
      expect(container.securityContext.readOnlyRootFilesystem, container.name).toBe(true);
    const server = containerOf(INPUT, "server");
    const writable = server.volumeMounts
      .filter((m: Json) => !m.readOnly)
      .map((m: Json) => `${m.mountPath} ${Object.keys(pod.volumes.find((v: Json) => v.name === m.name)).join(",")}`);
    expect(writable).toEqual([`${WORK_DIR} name,emptyDir`, "/tmp name,emptyDir"]);
    const env = Object.fromEntries(server.env.filter((e: Json) => e.value).map((e: Json) => [e.name, e.value]));
    expect(env).toEqual({ HOME: WORK_DIR, KUBESPACES_HOME, PULUMI_HOME });
    for (const home of [KUBESPACES_HOME, PULUMI_HOME]) expect(home.startsWith(`${WORK_DIR}/`)).toBe(true);
  });

  it("ask for local disk, and bound the emptyDirs within what the server container may use", () => {
    const pod = podOf(INPUT);
    for (const container of [...pod.initContainers, ...pod.containers]) {
      expect(container.resources.requests["ephemeral-storage"], container.name).toBeDefined();
      expect(container.resources.limits["ephemeral-storage"], container.name).toBeDefined();
    }
    const sizes = pod.volumes.filter((v: Json) => v.emptyDir).map((v: Json) => quantityValue(v.emptyDir.sizeLimit));
    expect(sizes).toHaveLength(2);
    const limit = quantityValue(containerOf(INPUT, "server").resources.limits["ephemeral-storage"]);
    // The kubelet evicts a pod whose emptyDirs and containers together pass its containers' limits.
    expect(sizes.reduce((a: number, b: number) => a + b, 0)).toBeLessThan(limit);
  });

  it("run as the image's user, with the ServiceAccount token mounted for the in-cluster host", () => {
    const pod = podOf(INPUT);
    expect(pod.securityContext).toMatchObject({ runAsUser: SERVER_UID, runAsGroup: SERVER_UID, fsGroup: SERVER_UID });
    expect(pod.automountServiceAccountToken).toBe(true);
  });

  // What the script does, run twice over one emptyDir, is serverHomeInit.test.ts's.
  it("copy the stacks' passphrase into the home, owner-only, in an init container", () => {
    const home = containerOf(INPUT, "home");
    expect(home.command).toEqual([
      "sh",
      "-c",
      expect.stringContaining(`/etc/kubespaces/state/${SERVER_SECRET_KEYS.statePassphrase}`),
    ]);
    expect(home.env).toEqual([{ name: "KUBESPACES_HOME", value: KUBESPACES_HOME }]);
  });
});

describe("secret values", () => {
  const documents = parseAllDocuments(readFileSync(path.join(root, SERVER_DEPLOY_FILE), "utf8")).map(
    (document) => document.toJS() as KubeObject,
  );

  it("are in no generated manifest: the Secret is only referred to by name", () => {
    expect(documents.map((d) => d.kind)).toEqual([
      "ConfigMap",
      "Deployment",
      "PodDisruptionBudget",
      "Service",
      "NetworkPolicy",
    ]);
    const secretFields = JSON.stringify(documents).match(/"(stringData|data)":/g) ?? [];
    // The ConfigMap's data is the configuration file, which names the secret files only.
    expect(secretFields).toEqual(['"data":']);
    expect(documents[0].data).toEqual({ "server.yaml": expect.stringContaining("sessionKeyFile: /etc/kubespaces/") });
  });

  it("have no field in the render's input: it takes the Secret's name, not its values", () => {
    expect(Object.keys(serverInstallSchema.shape)).not.toEqual(
      expect.arrayContaining(["secrets", "portalClientSecret", "sessionKey", "statePassphrase"]),
    );
  });
});

describe("deploy/server/server.yaml", () => {
  const text = readFileSync(path.join(root, SERVER_DEPLOY_FILE), "utf8");

  it("names each placeholder to replace in its header, and uses each", () => {
    const [header, body] = [text.split("\napiVersion:")[0], text.slice(text.indexOf("\napiVersion:"))];
    for (const placeholder of Object.values(SERVER_PLACEHOLDERS)) {
      expect(header).toContain(placeholder);
      expect(body).toContain(placeholder);
    }
    expect(header).toContain(Object.values(SERVER_SECRET_KEYS).join(", "));
  });

  it("takes the state backend's credentials from the Secret its header names, and starts without it", () => {
    const header = text.split("\napiVersion:")[0];
    const deployment = parseAllDocuments(text)
      .map((document) => document.toJS() as Json)
      .find((object) => object.kind === "Deployment")!;
    const server = deployment.spec.template.spec.containers.find((c: Json) => c.name === "server");
    const secret = "kubespaces-server-state-backend";
    expect(server.envFrom).toEqual([{ secretRef: { name: secret, optional: true } }]);
    expect(header).toContain(`Secret ${secret} in namespace kubespaces-system`);
    for (const key of ["PGPASSWORD", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "PULUMI_ACCESS_TOKEN"])
      expect(header).toContain(key);
    // The file's own way, not an option of the component that a reader of the file cannot set.
    expect(header).not.toContain("of the component)");
  });
});

describe("the server pods' NetworkPolicy", () => {
  const policyOf = (input: ServerInstallInput) => objectOf(input, "network-policy").spec;
  const ingressPorts = (spec: Json) => spec.ingress.map((rule: Json) => rule.ports.map((p: Json) => p.port));
  const egressTcp = (spec: Json) =>
    spec.egress.flatMap((rule: Json) => rule.ports.filter((p: Json) => p.protocol === "TCP").map((p: Json) => p.port));

  it("selects the server's pods, both ways", () => {
    const spec = policyOf(INPUT);
    expect(spec.podSelector).toEqual(objectOf(INPUT, "deployment").spec.selector);
    expect(spec.policyTypes).toEqual(["Ingress", "Egress"]);
  });

  it("lets the API and portal's port in from the route's Gateway only, and the metrics' port from the cluster's pods", () => {
    const spec = policyOf(INPUT);
    expect(ingressPorts(spec)).toEqual([[8080], [METRICS_PORT]]);
    expect(spec.ingress[0].from).toEqual([
      { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "gateways" } } },
    ]);
    expect(spec.ingress[1].from).toEqual([{ namespaceSelector: {} }]);
    const noRoute = policyOf({
      ...INPUT,
      route: undefined,
      config: { ...INPUT.config, http: { publicUrl: "https://k.example.com" } },
    });
    expect(noRoute.ingress[0].from).toEqual([{ namespaceSelector: {} }]);
  });

  it("takes the platform's peers instead", () => {
    const prometheus = { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "monitoring" } } };
    const ingress = {
      namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "ingress" } },
      podSelector: {},
    };
    const spec = policyOf({ ...INPUT, networkPolicy: { httpFrom: [ingress], metricsFrom: [prometheus] } });
    expect(spec.ingress.map((rule: Json) => rule.from)).toEqual([[ingress], [prometheus]]);
  });

  it("lets out DNS and, by port, what the server dials: the API server, the backend, the issuer, the snapshot store, the platform's ports", () => {
    const spec = policyOf({
      ...INPUT,
      stateBackend: { url: "postgres://kubespaces@db.example.com/state" },
      config: {
        ...INPUT.config,
        signIn: { issuer: "https://login.example.com:8443/dex" },
        snapshots: {
          s3: {
            bucket: "snaps",
            url: "http://minio.storage:9000",
            accessKeyIdFile: "/etc/kubespaces/s3/id",
            secretAccessKeyFile: "/etc/kubespaces/s3/key",
          },
        },
      },
      networkPolicy: { egressPorts: [3128] },
    });
    expect(spec.egress[0].ports).toEqual([
      { protocol: "UDP", port: 53 },
      { protocol: "TCP", port: 53 },
    ]);
    expect(egressTcp(spec)).toEqual([53, 443, 3128, 5432, 6443, 8443, 9000]);
    // No rule names a destination: the API server, the backend and the issuer are the platform's addresses.
    for (const rule of spec.egress) expect(rule.to).toBeUndefined();
    expect(egressTcp(policyOf(INPUT))).toEqual([53, 443, 6443]);
  });

  it("is not made when the platform turns it off, and a peer that names nothing is refused", () => {
    const roles = serverInstallation({ ...INPUT, networkPolicy: { enabled: false } }).objects.map((o) => o.role);
    expect(roles).not.toContain("network-policy");
    const error = thrownBy(() => serverInstallation({ ...INPUT, networkPolicy: { metricsFrom: [{}], httpFrom: [] } }));
    expect((error as ServerInstallError).problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      "networkPolicy.httpFrom: must name at least one peer (or turn the policy off)",
      "networkPolicy.metricsFrom.0: must name namespaceSelector, podSelector or ipBlock",
    ]);
  });
});

describe("the installation's options", () => {
  it("are documented as the schema accepts them", () => {
    expectTypeOf<ServerInstallInput>().toExtend<z.input<typeof serverInstallSchema>>();
    expectTypeOf<z.input<typeof serverInstallSchema>>().toExtend<ServerInstallInput>();
  });

  it("are refused all at once, each field named with its rule, before anything is rendered", () => {
    const error = thrownBy(() =>
      serverInstallation({
        image: " ",
        replicas: 0,
        port: 80,
        installation: { server: { user: "kubespaces" } },
        stateBackend: { url: "file:///var/lib/state" },
        config: { namespace: "elsewhere", http: { sessionKeyFile: "/mine" } },
      }),
    );
    expect(error).toBeInstanceOf(ServerInstallError);
    expect((error as ServerInstallError).problems.map((p) => p.path)).toEqual([
      "image",
      "replicas",
      "stateBackend.url",
      "port",
      "installation.server",
      "config.namespace",
      "config.http.sessionKeyFile",
      "config.signIn",
      "config.http.publicUrl",
    ]);
    expect((error as Error).message).toContain("nothing was created");
    expect((error as Error).message).toContain("installation.server: must be a ServiceAccount");
  });

  it("refuse configuration fields the installation sets, and a configuration the server would refuse", () => {
    const error = thrownBy(() =>
      serverInstallation({
        ...INPUT,
        route: undefined,
        config: {
          namespace: "elsewhere",
          adminGroup: "others",
          http: { listen: "127.0.0.1:1", sessionKeyFile: "/mine", sessionHours: 100 },
          metricsListen: "127.0.0.1:2",
          platform: { namespacePrefix: "Not_A_Prefix" },
          concurrency: 0,
        },
      }),
    ) as ServerInstallError;
    expect(error.problems.map((p) => `${p.path}: ${p.message.split(/[:;(]/)[0].trim()}`)).toEqual([
      "config.namespace: is set by the installation",
      "config.adminGroup: is set by the installation",
      "config.http.listen: is set by the installation",
      "config.metricsListen: is set by the installation",
      "config.http.sessionKeyFile: is set by the installation",
      "config.signIn: is required",
      "config.http.publicUrl: is required when no route is given",
      "config.concurrency: Too small",
      "config.http.sessionHours: Too big",
      `config.platform.namespacePrefix: ${error.problems.at(-1)!.message.split(/[:;(]/)[0].trim()}`,
    ]);
  });

  it("of the wrong type are problems, not a crash", () => {
    const input = { ...INPUT, installation: null, config: "server.yaml" } as unknown as ServerInstallInput;
    const error = thrownBy(() => serverInstallation(input)) as ServerInstallError;
    expect(error.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      "installation: must be an object, got null",
      "config: must be a record, got string",
    ]);
  });

  it("take a PostgreSQL backend without a password, its password in the credentials Secret's PGPASSWORD", () => {
    const url = "postgres://kubespaces@db.example.com:5432/state?sslmode=verify-full";
    const installation = serverInstallation({
      ...INPUT,
      stateBackend: { url, credentialsSecret: "state-credentials" },
    });
    const server = JSON.stringify(installation);
    expect(server).toContain(JSON.stringify(url));
    expect(server).toContain('"state-credentials"');
  });

  it("refuse a backend URL with a password, without quoting it", () => {
    const error = thrownBy(() =>
      serverInstallation({ ...INPUT, stateBackend: { url: "postgres://state:hunter2@db.example.com/state" } }),
    ) as ServerInstallError;
    expect(error.problems).toEqual([
      { path: "stateBackend.url", message: expect.stringContaining("must not carry a password") },
    ]);
    expect(error.message).not.toContain("hunter2");
  });

  it.each([
    "postgres://state@db.example.com/state?password=hunter2",
    "postgres://state@db.example.com/state?sslmode=require&PassWord=hunter2",
    "postgresql://db.example.com/state?user=state&pass%77ord=hunter2",
  ])("refuse a password in the backend URL's query string, without quoting it: %s", (url) => {
    const error = thrownBy(() => serverInstallation({ ...INPUT, stateBackend: { url } })) as ServerInstallError;
    expect(error.problems).toEqual([
      { path: "stateBackend.url", message: expect.stringContaining("must not carry a password") },
    ]);
    expect(error.problems[0].message).toContain("password query parameter");
    expect(error.message).not.toContain("hunter2");
  });

  it("refuse a host kubeconfig in the server's policy", () => {
    const error = thrownBy(() =>
      serverInstallation({ ...INPUT, config: { ...INPUT.config, platform: { hostKubeconfig: "apiVersion: v1" } } }),
    ) as ServerInstallError;
    expect(error.problems.map((p) => p.path)).toEqual(["config.platform.hostKubeconfig"]);
  });
});

describe("the image", () => {
  const containerfile = readFileSync(path.join(root, "deploy/image/Containerfile"), "utf8");
  const versions = readFileSync(path.join(root, "test/testbed/lib/versions.sh"), "utf8");
  const pinned = (text: string, name: string, prefix: string) =>
    new RegExp(`^${prefix}${name}=v?([^\\s]+)$`, "m").exec(text)?.[1];

  it.each(["PULUMI_VERSION", "K8S_PROVIDER_VERSION"])("pins %s to the test bed's version", (name) => {
    expect(pinned(containerfile, name, "ARG ")).toBeDefined();
    expect(pinned(containerfile, name, "ARG ")).toBe(pinned(versions, name, ""));
  });

  it("runs as the user the Deployment runs its pods as, which it makes, at home in the pods' work folder", () => {
    expect(/^USER (\d+):(\d+)$/m.exec(containerfile)?.slice(1)).toEqual([String(SERVER_UID), String(SERVER_UID)]);
    expect(/groupadd --gid (\d+) /.exec(containerfile)?.[1]).toBe(String(SERVER_UID));
    expect(/useradd --uid (\d+) --gid (\d+) /.exec(containerfile)?.slice(1)).toEqual([
      String(SERVER_UID),
      String(SERVER_UID),
    ]);
    expect(/--home-dir (\S+)/.exec(containerfile)?.[1]).toBe(WORK_DIR);
    // kube-score's rule, and apart from the Node image's `node` (1000).
    expect(SERVER_UID).toBeGreaterThanOrEqual(10000);
  });
});
