/** The TenantCrd component under Pulumi mocks: what it registers, with which options and inputs. */
import { expect, it } from "vitest";
import { TenantCrd } from "../../provider/index";
import { installOptions } from "../../provider/tenantResource/installOptions";
import { tenantResourceInstallation } from "../../provider/tenantResource/tenantResourceInstallation";
import { programEach, registeredEdges, registeredUrnOf, settle, typesAndNames, valueOf } from "./support/pulumiMocks";

const registered = programEach();

it("registers the CRD, the admission policies and the RBAC, each a typed child of the component", async () => {
  const crd = new TenantCrd("kubespaces");
  await settle();
  expect(typesAndNames(registered())).toEqual(
    [
      "kubespaces:index:TenantCrd kubespaces",
      "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition kubespaces-crd",
      "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition kubespaces-platform-revision-crd",
      "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition kubespaces-tenant-ceilings-crd",
      "kubernetes:core/v1:Namespace kubespaces-namespace",
      "kubernetes:core/v1:ServiceAccount kubespaces-server-service-account",
      "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole kubespaces-server-cluster-role",
      "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding kubespaces-server-cluster-role-binding",
      "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole kubespaces-server-tenant-role",
      "kubernetes:rbac.authorization.k8s.io/v1:Role kubespaces-gateway-role",
      "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding kubespaces-gateway-role-binding",
      "kubernetes:rbac.authorization.k8s.io/v1:Role kubespaces-leases-role",
      "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding kubespaces-leases-role-binding",
      "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole kubespaces-requester-cluster-role",
      "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy kubespaces-owner-policy",
      "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding kubespaces-owner-policy-binding",
      "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy kubespaces-ceiling-policy",
      "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding kubespaces-ceiling-policy-binding",
      "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy kubespaces-server-fence-policy",
      "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding kubespaces-server-fence-policy-binding",
    ].sort(),
  );
  for (const { name } of registered().filter((r) => r.name !== "kubespaces"))
    expect(registeredEdges.get(name)?.parent).toBe(registeredUrnOf("kubespaces"));
  expect(await valueOf(crd.serverUsername)).toBe("system:serviceaccount:kubespaces-system:kubespaces-server");
});

it("gives each child the rendered object's fields", async () => {
  new TenantCrd("kubespaces", { namespace: "ks", adminGroup: "platform" });
  await settle();
  const installation = tenantResourceInstallation(installOptions({ namespace: "ks", adminGroup: "platform" }));
  for (const { role, object } of [...installation.crd, ...installation.admission, ...installation.rbac]) {
    const { apiVersion: _apiVersion, kind, ...fields } = object;
    expect(registered().find((r) => r.name === `kubespaces-${role}`)?.inputs, role).toMatchObject({
      ...JSON.parse(JSON.stringify(fields)),
      kind,
    });
  }
});

it("keeps the CRDs when the component is deleted, and orders what depends on the CRD and the namespace", async () => {
  new TenantCrd("kubespaces");
  await settle();
  expect(registeredEdges.get("kubespaces-crd")?.retainOnDelete).toBe(true);
  expect(registeredEdges.get("kubespaces-platform-revision-crd")?.retainOnDelete).toBe(true);
  expect(registeredEdges.get("kubespaces-requester-cluster-role")?.retainOnDelete).toBe(false);
  for (const role of ["owner-policy", "owner-policy-binding"])
    expect(registeredEdges.get(`kubespaces-${role}`)?.dependencies).toContain(registeredUrnOf("kubespaces-crd"));
  for (const role of ["server-service-account", "leases-role", "leases-role-binding"])
    expect(registeredEdges.get(`kubespaces-${role}`)?.dependencies).toContain(registeredUrnOf("kubespaces-namespace"));
});

it("creates no namespace and no ServiceAccount for a server that is a user in an existing namespace", async () => {
  const crd = new TenantCrd("kubespaces", { server: { user: "kubespaces" }, createNamespace: false });
  await settle();
  const types = registered().map((r) => r.type);
  expect(types).not.toContain("kubernetes:core/v1:Namespace");
  expect(types).not.toContain("kubernetes:core/v1:ServiceAccount");
  expect(registered().find((r) => r.name === "kubespaces-server-cluster-role-binding")?.inputs.subjects).toEqual([
    { kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "kubespaces" },
  ]);
  expect(await valueOf(crd.serverUsername)).toBe("kubespaces");
});

it("registers nothing when an option is bad", async () => {
  expect(() => new TenantCrd("kubespaces", { namespace: "Not A Label" })).toThrow(
    /namespace: must be a DNS-1123 label/,
  );
  await settle();
  expect(registered()).toEqual([]);
});
