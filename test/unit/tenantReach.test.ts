/** How a person reaches a tenant's API server (provider/tenants/tenantReach.ts), from its status. */
import { describe, expect, it } from "vitest";
import { inClusterReach, reachHint, reachKind } from "../../provider/tenants/tenantReach";

const IN_CLUSTER = {
  phase: "Ready",
  apiServerUrl: "https://team-a.kubespaces-tenant-team-a.svc:443",
  namespace: "kubespaces-tenant-team-a",
};

describe("how a tenant is reached", () => {
  it.each([
    [{}, "unknown"],
    [{ namespace: "kubespaces-tenant-team-a" }, "unknown"],
    [{ apiServerUrl: "https://team-a.api.example.com:443", appsDomain: "team-a.apps.example.com" }, "exposed"],
    [IN_CLUSTER, "inCluster"],
  ] as const)("from %j: %s", (status, kind) => {
    expect(reachKind(status)).toBe(kind);
  });

  it("when not exposed: a port-forward to its Service, and its kubeconfig through the port with the Service's name", () => {
    const reach = inClusterReach("team-a", "kubespaces-tenant-team-a");
    expect(reach).toMatchObject({
      apiServerUrl: IN_CLUSTER.apiServerUrl,
      portForward: "kubectl port-forward -n kubespaces-tenant-team-a svc/team-a 8443:443",
      tlsServerName: "team-a.kubespaces-tenant-team-a.svc",
      merge: "kubespaces tenant kubeconfig team-a --merge --server https://127.0.0.1:8443",
    });
    expect(reach.kubectl("a.yaml")).toBe(
      "kubectl --kubeconfig a.yaml --server https://127.0.0.1:8443 --tls-server-name team-a.kubespaces-tenant-team-a.svc get namespaces",
    );
  });

  it("is a hint for the command only for a Ready tenant that is not exposed; on the test bed, the test bed's port", () => {
    expect(reachHint("team-a", IN_CLUSTER, false)).toContain(
      "  kubectl port-forward -n kubespaces-tenant-team-a svc/team-a 8443:443\n",
    );
    expect(reachHint("team-a", IN_CLUSTER, true)).toBe(
      "tenant team-a is not exposed outside the host cluster: its API server answers only inside it, at the URL its kubeconfig names; on the local test bed, kubespaces tenant kubeconfig team-a --merge reaches it through the test bed's port for it\n",
    );
    expect(reachHint("team-a", { ...IN_CLUSTER, phase: "Provisioning" }, false)).toBe("");
    expect(reachHint("team-a", { ...IN_CLUSTER, appsDomain: "team-a.apps.example.com" }, false)).toBe("");
  });
});
