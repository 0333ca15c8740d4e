/**
 * `kubespaces:index:TenantCrd`: installs the Tenant custom resource on a host cluster from a Pulumi
 * program: the CRD, the admission policy on owners, and the RBAC of `kubespaces server` and of
 * people who request tenants (the same objects as `deploy/*.yaml`, for other options). Named for
 * what kubectl users install ("the Tenant CRD"); `TenantApi` would read as the server's HTTP API.
 *
 * The CRDs (Tenants, and PlatformRevisions) are retained when the component is deleted: deleting
 * the Tenant CRD would delete every Tenant, and with them (through the server's finalizer) every
 * tenant's virtual cluster. Remove them by hand (`kubectl delete crd tenants.kubespaces.io`) when
 * that is what you mean.
 */
import * as pulumi from "@pulumi/pulumi";
import { indexToken } from "../model/tokens";
import { installOptions, serverUsername, type InstallOptionsInput } from "./installOptions";
import { installedObjectChild } from "./installedObjectChild";
import type { InstalledObject } from "./kubeObject";
import { tenantResourceInstallation } from "./tenantResourceInstallation";

/** Arguments of a TenantCrd: who the server is, its namespace and the admin group; each has a default. */
export type TenantCrdArgs = InstallOptionsInput;

/** The Tenant custom resource, its admission policy and its RBAC on a host cluster. */
export class TenantCrd extends pulumi.ComponentResource {
  /** The user name the server's requests carry: what its RBAC is bound to and the admission policy lets through. */
  readonly serverUsername: pulumi.Output<string>;

  /**
   * @param name the installation's name; children are named `<name>-<role>`.
   * @param args who the server is, its namespace and the admin group.
   * @param opts resource options; a Kubernetes `provider` here is the host cluster.
   */
  constructor(name: string, args: TenantCrdArgs = {}, opts: pulumi.ComponentResourceOptions = {}) {
    // Checked before anything is registered: a bad option registers nothing.
    const options = installOptions(args);
    super(indexToken("TenantCrd"), name, {}, opts);
    const installation = tenantResourceInstallation(options);
    const crds = installation.crd.map((installed) => this.child(name, installed, { retainOnDelete: true }));
    const namespace = installation.rbac
      .filter((installed) => installed.role === "namespace")
      .map((installed) => this.child(name, installed));
    for (const installed of installation.rbac.filter((i) => i.role !== "namespace")) {
      // Objects in the server's namespace wait for it, when it is created here.
      this.child(name, installed, installed.object.metadata.namespace ? { dependsOn: namespace } : {});
    }
    // A policy is type-checked against the CRD's schema, and the ceiling policy's parameters are a
    // custom kind, which must be served before it is bound: the CRDs first.
    for (const installed of installation.admission) this.child(name, installed, { dependsOn: crds });
    this.serverUsername = pulumi.output(serverUsername(options));
    this.registerOutputs({ serverUsername: this.serverUsername });
  }

  private child(name: string, installed: InstalledObject, opts: pulumi.CustomResourceOptions = {}) {
    return installedObjectChild(this, name, installed, opts);
  }
}
