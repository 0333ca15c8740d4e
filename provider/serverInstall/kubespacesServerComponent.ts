/**
 * `kubespaces:index:KubespacesServer`: runs `kubespaces server` in a host cluster from a Pulumi
 * program: its configuration, Deployment, PodDisruptionBudget, Service, optionally an HTTPRoute on
 * the platform's Gateway, and its Secret when given the values (the same objects as
 * `deploy/server/server.yaml`, for other options). It runs as the ServiceAccount of the Tenant
 * resource's installation: install TenantCrd with the same `installation` options first.
 */
import * as pulumi from "@pulumi/pulumi";
import { indexToken } from "../model/tokens";
import { installedObjectChild } from "../tenantResource/installedObjectChild";
import type { InstalledObject, KubeObject } from "../tenantResource/kubeObject";
import { serverInstallation, serverSecretShell } from "./serverInstallation";
import type { ServerInstallInput } from "./serverInstallOptions";
import { SERVER_SECRET_KEYS, SERVER_WORKLOAD_NAME } from "./serverObjectNames";

/** The values of the server's Secret, each kept secret in the state. */
export interface KubespacesServerSecrets {
  /** The portal client's secret at the identity provider. */
  readonly portalClientSecret: pulumi.Input<string>;
  /** At least 32 random bytes (or characters) that seal the portal's sessions; every replica shares it. */
  readonly sessionKey: pulumi.Input<string>;
  /** The passphrase that encrypts the tenants' stacks' secrets in the state backend; keep it: without it they cannot be read. */
  readonly statePassphrase: pulumi.Input<string>;
}

/**
 * Arguments of a KubespacesServer: the installation's options (plain values, checked before
 * anything is registered), and optionally the Secret's values.
 */
export interface KubespacesServerArgs extends ServerInstallInput {
  /** The Secret's values: the component makes Secret `secretName` of them. None: the platform makes that Secret. */
  readonly secrets?: KubespacesServerSecrets;
}

/** `kubespaces server` running in a host cluster. */
export class KubespacesServer extends pulumi.ComponentResource {
  /** The Service's URL inside the cluster. */
  readonly serviceUrl: pulumi.Output<string>;

  /**
   * @param name the installation's name; children are named `<name>-<role>`.
   * @param args the image, the configuration, the state backend, the Secret, the route, ...
   * @param opts resource options; a Kubernetes `provider` here is the host cluster.
   */
  constructor(name: string, args: KubespacesServerArgs, opts: pulumi.ComponentResourceOptions = {}) {
    // Checked before anything is registered: bad options register nothing.
    const { secrets, ...input } = args;
    const { options, objects } = serverInstallation(input);
    super(indexToken("KubespacesServer"), name, {}, opts);
    const secret = secrets && this.secret(name, serverSecretShell(options), secrets);
    for (const installed of objects) {
      // The pods mount the Secret: it goes first, when made here.
      this.child(name, installed, secret && installed.role === "deployment" ? { dependsOn: [secret] } : {});
    }
    const { namespace } = options.installation;
    this.serviceUrl = pulumi.output(`http://${SERVER_WORKLOAD_NAME}.${namespace}.svc:${options.servicePort}`);
    this.registerOutputs({ serviceUrl: this.serviceUrl });
  }

  private secret(name: string, shell: KubeObject, values: KubespacesServerSecrets): pulumi.CustomResource {
    const stringData = {
      [SERVER_SECRET_KEYS.portalClientSecret]: pulumi.secret(values.portalClientSecret),
      [SERVER_SECRET_KEYS.sessionKey]: pulumi.secret(values.sessionKey),
      [SERVER_SECRET_KEYS.statePassphrase]: pulumi.secret(values.statePassphrase),
    };
    return this.child(name, { role: "secret", object: { ...shell, stringData } });
  }

  private child(name: string, installed: InstalledObject, opts: pulumi.CustomResourceOptions = {}) {
    return installedObjectChild(this, name, installed, opts);
  }
}
