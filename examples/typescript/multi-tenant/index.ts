// Several teams on one host cluster, each with its own virtual cluster published under the
// platform's domain; the list of teams is the source of truth. Removing a team from the list and
// running `pulumi up` deletes everything that team had, objects in the gateway namespace included.
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { Tenant } from "@kubespaces/pulumi";

interface Team {
  readonly name: string;
  readonly owner: string;
  readonly cpu: string;
  readonly memory: string;
}

const config = new pulumi.Config();
const teams = config.requireObject<Team[]>("teams");

// One explicit provider for the host cluster: every tenant's children inherit it.
const host = new k8s.Provider("host", { kubeconfig: config.requireSecret("hostKubeconfig") });

const tenants = teams.map(
  (team) =>
    new Tenant(
      team.name,
      {
        owner: team.owner,
        resources: { cpu: team.cpu, memory: team.memory, storage: "50Gi", pods: 100 },
        exposure: {
          baseDomain: config.require("baseDomain"),
          gateway: { name: "shared", namespace: "kubespaces-gateway", sectionName: "tls-passthrough" },
          issuerRef: { name: "letsencrypt", kind: "ClusterIssuer" },
        },
        isolation: { podSecurity: "restricted" },
        // The readiness wait reads the same host the provider writes to.
        hostKubeconfig: config.requireSecret("hostKubeconfig"),
      },
      { providers: [host] },
    ),
);

export const apiServerUrls = Object.fromEntries(teams.map((team, i) => [team.name, tenants[i].apiServerUrl]));
export const appsDomains = Object.fromEntries(teams.map((team, i) => [team.name, tenants[i].appsDomain]));
export const kubeconfigs = pulumi.secret(Object.fromEntries(teams.map((team, i) => [team.name, tenants[i].kubeconfig])));
