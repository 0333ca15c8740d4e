/** The access binding the server asks each tenant for: its own identity as the API server names it. */
import { describe, expect, it } from "vitest";
import { subjectOf, withServerAccess } from "../../provider/server/kube/serverNamespaceAccess";

describe("the server's namespace access", () => {
  it("reads a ServiceAccount's user name as the ServiceAccount, and any other as a user", () => {
    expect(subjectOf("system:serviceaccount:kubespaces-system:kubespaces-server")).toEqual({
      kind: "ServiceAccount",
      namespace: "kubespaces-system",
      name: "kubespaces-server",
    });
    expect(subjectOf("kubespaces")).toEqual({ kind: "User", name: "kubespaces" });
    expect(subjectOf("system:serviceaccount:only-one-part")).toEqual({
      kind: "User",
      name: "system:serviceaccount:only-one-part",
    });
  });

  it("binds ClusterRole kubespaces-server-tenant to the server, whatever the platform's file said", () => {
    const platform = withServerAccess(
      {
        namespacePrefix: "teams-",
        namespaceAccess: { clusterRole: "cluster-admin", subject: { kind: "User", name: "x" } },
      },
      { kind: "User", name: "kubespaces" },
    );
    expect(platform).toEqual({
      namespacePrefix: "teams-",
      namespaceAccess: { clusterRole: "kubespaces-server-tenant", subject: { kind: "User", name: "kubespaces" } },
    });
  });
});
