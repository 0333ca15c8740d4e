// Several teams on one host cluster, each with its own virtual cluster published under the
// platform's domain. The platform team writes the policy once; each team's entry in the list is a
// request, held to that policy at preview. Removing a team from the list and running `pulumi up`
// deletes everything that team had, objects in the gateway namespace included.
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { Tenant, type TenantPlatformArgs } from "@kubespaces/pulumi";

interface Team {
  readonly name: string;
  readonly owner: string;
  readonly cpu: string;
  readonly memory: string;
}

const config = new pulumi.Config();
const teams = config.requireObject<Team[]>("teams");
const hostKubeconfig = config.requireSecret("hostKubeconfig");

// One explicit provider for the host cluster: every tenant's children inherit it.
const host = new k8s.Provider("host", { kubeconfig: hostKubeconfig });

// The platform's policy: set here once, never by a team.
const platform: TenantPlatformArgs = {
  exposure: {
    baseDomain: config.require("baseDomain"),
    gateway: { name: "shared", namespace: "kubespaces-gateway", sectionName: "tls-passthrough" },
    issuerRef: { name: "letsencrypt", kind: "ClusterIssuer" },
  },
  podSecurity: { default: "restricted", allowed: ["restricted"] },
  quota: {
    ceilings: {
      cpu: "16",
      memory: "64Gi",
      storage: "200Gi",
      pods: 200,
      servicesNodePorts: 0,
      servicesLoadBalancers: 0,
    },
  },
  // The host check, the readiness wait and the cleanup read the same cluster the provider writes to.
  hostKubeconfig,
};

const tenants = teams.map(
  (team) =>
    new Tenant(
      team.name,
      { owner: team.owner, resources: { cpu: team.cpu, memory: team.memory, storage: "50Gi", pods: 100 }, platform },
      { providers: [host] },
    ),
);

export const apiServerUrls = Object.fromEntries(teams.map((team, i) => [team.name, tenants[i].apiServerUrl]));
export const appsDomains = Object.fromEntries(teams.map((team, i) => [team.name, tenants[i].appsDomain]));
export const kubeconfigs = pulumi.secret(
  Object.fromEntries(teams.map((team, i) => [team.name, tenants[i].kubeconfig])),
);
