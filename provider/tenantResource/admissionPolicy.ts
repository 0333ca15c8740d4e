/**
 * A ValidatingAdmissionPolicy and its binding, as the installation renders its policies (the
 * owners' and the server's fence): named alike, refusing on failure, denying what a rule refuses.
 */
import { PART_OF_KUBESPACES, type InstalledObject, type KubeObject } from "./kubeObject";

/**
 * Policy `name` with `spec` (its matches, conditions, variables and validations), and its binding
 * with `binding`'s fields besides (its parameters'), under roles `<role>` and `<role>-binding`.
 */
export function admissionPolicy(
  role: string,
  name: string,
  spec: Record<string, unknown>,
  binding: Record<string, unknown> = {},
): InstalledObject[] {
  const metadata = { name, labels: PART_OF_KUBESPACES };
  const policy: KubeObject = {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicy",
    metadata,
    spec: { failurePolicy: "Fail", ...spec },
  };
  const policyBinding: KubeObject = {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicyBinding",
    metadata,
    spec: { policyName: name, validationActions: ["Deny"], ...binding },
  };
  return [
    { role, object: policy },
    { role: `${role}-binding`, object: policyBinding },
  ];
}
