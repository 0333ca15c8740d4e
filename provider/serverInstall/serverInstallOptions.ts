/**
 * What an installation of `kubespaces server` into a host cluster depends on: the image, how many
 * replicas, the server's configuration, where its stacks live, the Secret its secrets are in, the
 * ports, an optional route on the platform's Gateway and the pods' resources. A zod schema checks
 * them and fills in the defaults (which `deploy/server/server.yaml` is rendered with). Who the
 * server is and where it runs come from the Tenant resource's installation options
 * (`installation`, the same as TenantCrd's), so that the Deployment runs as exactly the
 * ServiceAccount the RBAC binds.
 */
import { z } from "zod";
import { METRICS_PORT } from "../contracts/metricsEndpoint";
import { DNS_SUBDOMAIN, DNS_SUBDOMAIN_MAX_LENGTH, dnsLabel, quantity, requiredText } from "../model/schemaParts";
import { toProblem } from "../model/inputProblems";
import type { InputProblem } from "../model/validationError";
import { installOptionsSchema, type InstallOptionsInput } from "../tenantResource/installOptions";
import { isPlainObject } from "../util/plainObject";
import { hasBackendPassword } from "../tenants/automation/backendUrlPassword";
import { serverConfigFile } from "./serverConfigFile";

/** The defaults, named once: the generated YAML's header and the docs quote them. */
export const SERVER_INSTALL_DEFAULTS = {
  replicas: 2,
  secretName: "kubespaces-server",
  port: 8080,
  servicePort: 80,
  terminationGracePeriodSeconds: 300,
  // Ephemeral storage covers the two emptyDirs (serverWorkload.ts) and the container's logs.
  resources: {
    requests: { cpu: "500m", memory: "1Gi", "ephemeral-storage": "256Mi" },
    limits: { memory: "4Gi", "ephemeral-storage": "2Gi" },
  },
} as const;

/** A DNS subdomain: what Kubernetes accepts as the name of a Secret or a hostname. */
const dnsSubdomain = (description: string) =>
  z
    .string()
    .max(DNS_SUBDOMAIN_MAX_LENGTH, { error: `must be at most ${DNS_SUBDOMAIN_MAX_LENGTH} characters` })
    .regex(DNS_SUBDOMAIN, {
      error: "must be a DNS-1123 subdomain: lower-case labels of letters, digits and '-', separated by dots",
    })
    .describe(description);

const port = (description: string) =>
  z
    .int({ error: "must be a whole number" })
    .min(1)
    .max(65535, { error: "must be at most 65535" })
    .describe(description);

const someResources = z.strictObject({
  cpu: quantity("CPU.").optional(),
  memory: quantity("Memory.").optional(),
  "ephemeral-storage": quantity("Local disk: the emptyDirs, the writable layer and the logs.").optional(),
});

/** A file backend lives on one pod's disk: the replicas would each keep stacks of their own, lost with the pod. */
const sharedBackendUrl = requiredText("The Pulumi state backend URL.")
  .refine(
    (url) => !/^file:/i.test(url.trim()),
    "must be a backend every replica shares (postgres://, s3://, gs://, azblob://, https://api.pulumi.com): a file:// backend in a pod is that pod's alone and goes with it",
  )
  // The URL is an argument of the server's container, which whoever may read the Deployment reads.
  .refine(
    (url) => !hasBackendPassword(url),
    "must not carry a password, neither in its user info (user:password@) nor as a password query parameter: it would be in the Deployment for whoever may read it; put the credentials in credentialsSecret (PGPASSWORD)",
  );

/** A label selector, as Kubernetes takes it. */
const labelSelector = z.strictObject({
  matchLabels: z.record(z.string(), z.string()).optional(),
  matchExpressions: z
    .array(
      z.strictObject({
        key: z.string(),
        operator: z.enum(["In", "NotIn", "Exists", "DoesNotExist"]),
        values: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});

/** A NetworkPolicy peer: pods by namespace and labels, or addresses. */
const networkPeer = z
  .strictObject({
    namespaceSelector: labelSelector.optional(),
    podSelector: labelSelector.optional(),
    ipBlock: z.strictObject({ cidr: requiredText("A CIDR."), except: z.array(z.string()).optional() }).optional(),
  })
  .refine((peer) => Object.keys(peer).length > 0, "must name namespaceSelector, podSelector or ipBlock");

/** The server pods' own NetworkPolicy (serverNetworkPolicy.ts). */
const networkPolicy = z.strictObject({
  enabled: z.boolean().default(true),
  httpFrom: z.array(networkPeer).min(1, { error: "must name at least one peer (or turn the policy off)" }).optional(),
  metricsFrom: z
    .array(networkPeer)
    .min(1, { error: "must name at least one peer (or turn the policy off)" })
    .optional(),
  egressPorts: z.array(port("A port the server dials.")).default([]),
});

/** The installation's options. */
export const serverInstallSchema = z
  .strictObject({
    image: requiredText("The server's image."),
    imagePullPolicy: z
      .enum(["Always", "IfNotPresent", "Never"], { error: "must be one of: Always, IfNotPresent, Never" })
      .default("IfNotPresent"),
    replicas: z
      .int({ error: "must be a whole number" })
      .min(1, { error: "must be at least 1" })
      .default(SERVER_INSTALL_DEFAULTS.replicas),
    installation: installOptionsSchema.prefault({}),
    config: z.record(z.string(), z.unknown()),
    stateBackend: z.strictObject({
      url: sharedBackendUrl,
      credentialsSecret: dnsSubdomain("A Secret whose keys are the backend's environment.").optional(),
      credentialsSecretOptional: z.boolean().default(false),
    }),
    secretName: dnsSubdomain("The server's Secret.").default(SERVER_INSTALL_DEFAULTS.secretName),
    // The server runs as a user other than root, which may not bind a port below 1024.
    port: port("The container's port.")
      .min(1024, { error: "must be at least 1024: the server is no root user" })
      .refine((chosen) => chosen !== METRICS_PORT, {
        error: `must not be ${METRICS_PORT}: the metrics listen there, apart from the API and portal`,
      })
      .default(SERVER_INSTALL_DEFAULTS.port),
    servicePort: port("The Service's port.").default(SERVER_INSTALL_DEFAULTS.servicePort),
    route: z
      .strictObject({
        gateway: z.strictObject({
          name: dnsLabel("The Gateway's name."),
          namespace: dnsLabel("The Gateway's namespace."),
          sectionName: dnsLabel("The Gateway's listener.").optional(),
        }),
        hostname: dnsSubdomain("The server's hostname."),
      })
      .optional(),
    resources: z
      .strictObject({ requests: someResources.optional(), limits: someResources.optional() })
      .default(SERVER_INSTALL_DEFAULTS.resources),
    terminationGracePeriodSeconds: z
      .int({ error: "must be a whole number" })
      .min(1, { error: "must be at least 1" })
      .default(SERVER_INSTALL_DEFAULTS.terminationGracePeriodSeconds),
    networkPolicy: networkPolicy.prefault({}),
  })
  .superRefine((options, context) => {
    const { installation, config } = options as { installation?: unknown; config?: unknown };
    if (isPlainObject(installation) && isPlainObject(installation.server) && "user" in installation.server)
      context.addIssue({
        code: "custom",
        path: ["installation", "server"],
        message:
          "must be a ServiceAccount: a pod runs as a ServiceAccount of its namespace, never as a user (give { serviceAccount: NAME } or leave it out)",
      });
    // The configuration is checked here, with the server's own schemas, so that every problem is told at once.
    if (isPlainObject(installation) && isPlainObject(config))
      for (const problem of serverConfigFile(options).problems)
        context.addIssue({ code: "custom", path: problem.path.split("."), message: problem.message });
  });

/** Who is the route's parent: a Gateway and, optionally, one of its listeners. */
export interface GatewayParentInput {
  /** The Gateway's name. */
  readonly name: string;
  /** The Gateway's namespace: its listener must admit HTTPRoutes from the server's namespace. */
  readonly namespace: string;
  /** The listener (an HTTPS listener that terminates TLS for the hostname); none: every listener that admits the route. */
  readonly sectionName?: string;
}

/** A label selector, as Kubernetes takes it. */
export interface LabelSelectorInput {
  /** Labels the objects carry, each with this value. */
  readonly matchLabels?: Record<string, string>;
  /** Requirements on labels. */
  readonly matchExpressions?: {
    /** The label. */
    readonly key: string;
    /** How its value is compared. */
    readonly operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
    /** The values for In and NotIn. */
    readonly values?: string[];
  }[];
}

/** A NetworkPolicy peer, as Kubernetes takes it: pods by their namespace's and their own labels, or addresses. */
export interface NetworkPeerInput {
  /** The namespaces whose pods are peers (`{}`: every namespace). */
  readonly namespaceSelector?: LabelSelectorInput;
  /** The pods that are peers (with namespaceSelector: in those namespaces; alone: in the server's). */
  readonly podSelector?: LabelSelectorInput;
  /** Addresses that are peers. */
  readonly ipBlock?: {
    /** The block. */
    readonly cidr: string;
    /** Blocks left out of it. */
    readonly except?: string[];
  };
}

/** The installation's options as written. (A unit test checks that this is what the schema accepts.) */
export interface ServerInstallInput {
  /** The server's image: built from `deploy/image/Containerfile` by the platform (see docs/self-service.md). */
  readonly image: string;
  /**
   * When the kubelet pulls the image.
   * @default "IfNotPresent"
   */
  readonly imagePullPolicy?: "Always" | "IfNotPresent" | "Never";
  /**
   * How many replicas serve the API and portal, and share the reconciling of the Tenants out between them.
   * @default 2
   */
  readonly replicas?: number;
  /**
   * The Tenant resource's installation, exactly as given to TenantCrd (or rendered into
   * `deploy/rbac.yaml`): its namespace is the server's, its ServiceAccount the pods', its admin
   * group the configuration's. The ServiceAccount and the namespace are TenantCrd's, not made here.
   * @default {}
   */
  readonly installation?: InstallOptionsInput;
  /**
   * The server's configuration (`server.yaml`, see docs/self-service.md) without what the
   * installation sets itself: `namespace`, `adminGroup`, `http.listen`, `metricsListen`,
   * `http.sessionKeyFile` and `signIn.portalClientSecretFile`. `signIn` is required; `http.publicUrl`
   * too, unless a route gives it (`https://<route.hostname>`).
   */
  readonly config: Readonly<Record<string, unknown>>;
  /** Where the tenants' stacks live, shared by every replica. */
  readonly stateBackend: {
    /** The backend's URL: `postgres://...`, `s3://...`, `gs://...`, `azblob://...` or `https://api.pulumi.com`; not `file://`. */
    readonly url: string;
    /** A Secret of the server's namespace whose keys become the server's environment (`AWS_ACCESS_KEY_ID`, ...). */
    readonly credentialsSecret?: string;
    /**
     * Whether the pods start without `credentialsSecret` when it does not exist. For a file applied
     * as it is (deploy/server/server.yaml), whose backend may need no credentials (the pods' own
     * cloud identity reaches it); otherwise a missing Secret keeps the pods from starting, which
     * says at once what is missing.
     * @default false
     */
    readonly credentialsSecretOptional?: boolean;
  };
  /**
   * The Secret of the server's namespace that holds the portal client's secret, the session key and
   * the stacks' passphrase, under the keys of SERVER_SECRET_KEYS (serverObjectNames.ts). Made by the component when it is
   * given their values; else the platform makes it.
   * @default "kubespaces-server"
   */
  readonly secretName?: string;
  /**
   * The port the API and portal listen on in the pod; not the metrics' own port (METRICS_PORT,
   * contracts/metricsEndpoint.ts).
   * @default 8080
   */
  readonly port?: number;
  /**
   * The Service's port.
   * @default 80
   */
  readonly servicePort?: number;
  /** An HTTPRoute on the platform's Gateway for `hostname` to the Service; none: no route. */
  readonly route?: {
    /** The Gateway it attaches to. */
    readonly gateway: GatewayParentInput;
    /** The hostname people reach the server at; the public URL is `https://<hostname>`. */
    readonly hostname: string;
  };
  /**
   * The server container's requests and limits. It runs the Pulumi engine for up to `concurrency`
   * tenants at once, each a few hundred MiB. Its ephemeral storage holds the pod's two emptyDirs
   * (the work folder and /tmp, each with a size limit) besides its logs.
   * @default { requests: { cpu: "500m", memory: "1Gi", "ephemeral-storage": "256Mi" }, limits: { memory: "4Gi", "ephemeral-storage": "2Gi" } }
   */
  readonly resources?: {
    /** Requests. */
    readonly requests?: { readonly cpu?: string; readonly memory?: string; readonly "ephemeral-storage"?: string };
    /** Limits. */
    readonly limits?: { readonly cpu?: string; readonly memory?: string; readonly "ephemeral-storage"?: string };
  };
  /**
   * How long a stopping pod has: on SIGTERM the replica cancels its running updates, which save
   * their state before they stop, then removes its Lease.
   * @default 300
   */
  readonly terminationGracePeriodSeconds?: number;
  /**
   * The server pods' own NetworkPolicy: in, the API and portal's port and the metrics' port from
   * the peers below; out, DNS and the TCP ports the server dials (443 and 6443, the ports of the
   * state backend's, issuer's and snapshot store's URLs, and `egressPorts`), to any address.
   * @default { enabled: true }
   */
  readonly networkPolicy?: {
    /**
     * Whether the policy is made. Off: the pods' traffic is whatever the namespace's other policies allow.
     * @default true
     */
    readonly enabled?: boolean;
    /**
     * Who may reach the API and portal's port. Default: the pods of the route's Gateway's namespace;
     * without a route, any pod of the cluster (an Ingress controller or a Gateway of the platform's).
     */
    readonly httpFrom?: NetworkPeerInput[];
    /** Who may reach the metrics' port (a Prometheus). Default: any pod of the cluster; the metrics name no tenant or person. */
    readonly metricsFrom?: NetworkPeerInput[];
    /**
     * More TCP ports the server may dial, to any address (a proxy, a chart repository on its own port).
     * @default []
     */
    readonly egressPorts?: number[];
  };
}

/** The options with the defaults filled in. */
export type ServerInstallOptions = z.output<typeof serverInstallSchema>;

/** Bad options, each field named. Marked so that the Pulumi CLI prints the message without a stack trace. */
export class ServerInstallError extends Error {
  /** The marker `pulumi.RunError.isInstance` checks. */
  readonly __pulumiRunError = true;

  /** @param problems every problem found, each naming its field. */
  constructor(readonly problems: readonly InputProblem[]) {
    super(
      `the kubespaces server installation's options are invalid; nothing was created:\n${problems
        .map((p) => `  - ${p.path || "options"}: ${p.message}`)
        .join("\n")}`,
    );
  }
}

/** The options checked, with defaults, or every problem found. */
export function parseServerInstall(
  input: ServerInstallInput,
): { readonly options: ServerInstallOptions; readonly problems?: undefined } | { readonly problems: InputProblem[] } {
  const parsed = serverInstallSchema.safeParse(input, { reportInput: true });
  if (parsed.success) return { options: parsed.data };
  return { problems: parsed.error.issues.map((issue) => toProblem(unquoted(issue))) };
}

/** The backend URL is never quoted in a message: it may carry a password, which is what is refused. */
function unquoted(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  const isUrl = issue.path.join(".") === "stateBackend.url";
  return isUrl && issue.code !== "invalid_type" ? { ...issue, input: undefined } : issue;
}
