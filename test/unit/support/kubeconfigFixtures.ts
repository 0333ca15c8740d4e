/** Kubeconfigs for the tests of `kubespaces tenant kubeconfig --merge` and of removing what it merged. */

/** A credential that must never show up where it does not belong (messages, other files). */
export const TOKEN = "fake-token-5c1f0e9d7b";

/** A tenant's kubeconfig as the state records it: one context, its own names. */
export const tenantKubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: vcluster_atlas
  cluster: {server: "https://atlas.api.example.com:443", certificate-authority-data: Q0E=}
users:
- name: vcluster_atlas_admin
  user: {client-certificate-data: Q0VSVA==, client-key-data: S0VZ}
contexts:
- name: vcluster_atlas
  context: {cluster: vcluster_atlas, user: vcluster_atlas_admin, namespace: default}
current-context: vcluster_atlas
`;

/**
 * The user's kubeconfig as kubectl writes it (lists not indented, keys sorted), edited by hand: a
 * comment, a trailing comment, quoting, and tokens a parse and re-stringify would rewrite (`0123`
 * as 123, `0123456789` as a number).
 */
export const userText = `# Edited by hand: prod is the production cluster.
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: Q0E=
    server: https://prod.example.com:6443 # the VIP
    port: 0123
  name: prod
contexts:
- context:
    cluster: prod
    namespace: '007'
    user: prod
  name: prod
current-context: prod
kind: Config
preferences: {}
users:
- name: prod
  user:
    token: 0123456789
`;

/** Whether the lines of `inner` appear in `outer` in the same order (others may come between). */
export function linesKeptInOrder(outer: string, inner: string): boolean {
  const lines = outer.split("\n");
  let at = 0;
  for (const line of inner.split("\n")) {
    at = lines.indexOf(line, at);
    if (at === -1) return false;
    at++;
  }
  return true;
}
