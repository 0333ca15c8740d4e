# shellcheck shell=bash
# cert-manager's controller (tools/cert-manager: our entry point over its public controller
# packages), issuing tenants' Certificates from the fixture's self-signed ClusterIssuer as on a
# real host cluster. It runs on the machine (it listens on nothing) as the ServiceAccount its chart
# creates, with the chart's RBAC (upstream.sh renders both), in the namespace the chart installs to.

CERT_MANAGER_NAMESPACE=cert-manager
# The ClusterIssuer of test/fixtures/testbed/shared/clusterissuer.yaml.
TESTBED_CLUSTER_ISSUER=kubespaces-testbed-selfsigned

# cert_manager_args: the command line, one word a line. ClusterIssuers' Secrets are looked up in
# cert-manager's own namespace, as the chart configures it.
cert_manager_args() {
  printf '%s\n' "$(tool_bin cert-manager-controller)" \
    --kubeconfig="$(service_account_kubeconfig cert-manager)" \
    --cluster-resource-namespace="${CERT_MANAGER_NAMESPACE}" --v=2
}

# start_cert_manager: its credentials, then the controller, healthy when the fixture's
# ClusterIssuer is Ready (its clusterissuers controller set it up).
start_cert_manager() {
  write_service_account_kubeconfig cert-manager "${CERT_MANAGER_NAMESPACE}" cert-manager
  start_component cert-manager
  must_be_healthy cert-manager 60 cluster_issuer_ready
}

cluster_issuer_ready() {
  running cert-manager &&
    [[ "$(kc get clusterissuer "${TESTBED_CLUSTER_ISSUER}" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" == True ]]
}
