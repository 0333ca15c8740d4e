#!/usr/bin/env bash
# Smoke check of the kubespaces test bed (run after `testbed.sh up`):
#   - the KWOK node is Ready
#   - a StatefulSet (1 replica, busybox, no PVC) reaches readyReplicas 1
#   - deleting a namespace completes (controller manager works)
#   - the CRDs and fixtures are there; Traefik has accepted the GatewayClass and programmed the
#     Gateway; cert-manager has the ClusterIssuer Ready; `pulumi version` prints v3.248.0
#   - the real vCluster chart installs, the test bed runs its real control
#     plane, which writes vc-<release>, whose kubeconfig opens the virtual
#     cluster.
# Ends with a line "N passed, N failed".
set -euo pipefail

TESTBED="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/testbed.sh"
# shellcheck disable=SC1090
source "$("${TESTBED}" env)"

PASSED=0
FAILED=0
NS="smoke-$$"

ok() { PASSED=$((PASSED + 1)); echo "ok   - $*"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL - $*"; }

# check DESCRIPTION COMMAND...: run a check and count it.
check() {
  local what="$1"
  shift
  if "$@" >/dev/null; then ok "${what}"; else fail "${what}"; fi
}

# poll SECONDS COMMAND...: true once the command succeeds within SECONDS.
poll() {
  local secs="$1" i
  shift
  for ((i = 0; i < secs * 2; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  return 1
}

cleanup() { kubectl delete namespace "${NS}" "${NS}-vc" --ignore-not-found --wait=false >/dev/null 2>&1 || true; }
trap cleanup EXIT

node_ready() {
  [[ "$(kubectl get node kwok-node-0 -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" == True ]]
}
check "node kwok-node-0 is Ready" node_ready
kubectl get nodes

sts_ready() { [[ "$(kubectl -n "${NS}" get statefulset smoke -o jsonpath='{.status.readyReplicas}')" == 1 ]]; }
start=$(date +%s)
kubectl create namespace "${NS}" >/dev/null
kubectl -n "${NS}" apply -f - >/dev/null <<'YAML'
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: smoke
spec:
  replicas: 1
  serviceName: smoke
  selector:
    matchLabels: {app: smoke}
  template:
    metadata:
      labels: {app: smoke}
    spec:
      containers:
        - name: busybox
          image: busybox:1.36
          command: ["sleep", "3600"]
          resources:
            requests: {cpu: 10m, memory: 16Mi}
YAML
check "StatefulSet reaches readyReplicas 1" poll 120 sts_ready
echo "     StatefulSet ready after $(($(date +%s) - start))s"
check "default ServiceAccount created in ${NS}" poll 30 kubectl -n "${NS}" get serviceaccount default

ns_gone() { ! kubectl get namespace "${NS}" >/dev/null 2>&1; }
start=$(date +%s)
kubectl delete namespace "${NS}" --wait=false >/dev/null
check "namespace deletion completes" poll 120 ns_gone
echo "     namespace deleted after $(($(date +%s) - start))s"

crd_served() { kubectl get crd "$1" -o json | jq -e --arg v "$2" '.spec.versions[] | select(.name == $v and .served)' >/dev/null; }
check "TLSRoute v1 served" crd_served tlsroutes.gateway.networking.k8s.io v1
check "ListenerSet v1 served" crd_served listenersets.gateway.networking.k8s.io v1
check "ReferenceGrant v1 served" crd_served referencegrants.gateway.networking.k8s.io v1
check "Certificate cert-manager.io/v1 served" crd_served certificates.cert-manager.io v1
check "Gateway kubespaces-gateway/shared exists" kubectl -n kubespaces-gateway get gateway shared
check "ClusterIssuer kubespaces-testbed-selfsigned exists" kubectl get clusterissuer kubespaces-testbed-selfsigned
condition() { [[ "$(kubectl get "$1" "${@:3}" -o jsonpath="{.status.conditions[?(@.type==\"$2\")].status}")" == True ]]; }
check "GatewayClass kubespaces-testbed Accepted (by Traefik)" poll 30 condition gatewayclass/kubespaces-testbed Accepted
check "Gateway kubespaces-gateway/shared Programmed (by Traefik)" poll 30 condition gateway/shared Programmed -n kubespaces-gateway
check "ClusterIssuer kubespaces-testbed-selfsigned Ready (by cert-manager)" poll 30 condition clusterissuer/kubespaces-testbed-selfsigned Ready

pulumi_version() { [[ "$(pulumi version)" == v3.248.0 ]]; }
check "pulumi version prints v3.248.0 ($(pulumi version 2>&1 || true))" pulumi_version
check "pulumi-resource-kubernetes on PATH" command -v pulumi-resource-kubernetes
check "kubernetes plugin v4.25.0 installed in PULUMI_HOME" \
  bash -c 'pulumi plugin ls 2>/dev/null | grep -E "kubernetes +resource +4\.25\.0"'

# --- the real vCluster --------------------------------------------------------
# The real pinned chart (helm install, persistence off: a Deployment), then the real control plane
# the test bed runs for its pod writes vc-<release>, whose kubeconfig opens the virtual cluster
# through the control plane's loopback endpoint.
HELM="$(dirname "$(dirname "$(readlink -f "$(command -v pulumi)")")")/helm-v3.18.6/helm"
VNS="${NS}-vc"
secret_exists() { kubectl -n "${VNS}" get secret "vc-$1" >/dev/null 2>&1; }
virtual_namespaces() { # the Secret's kubeconfig, through the control plane's endpoint, lists the virtual namespaces
  local f rc
  f="$(mktemp)"
  kubectl -n "${VNS}" get secret "vc-$1" -o jsonpath='{.data.config}' | base64 -d >"${f}"
  KUBECONFIG="${f}" kubectl --server="$("${TESTBED}" vcluster-endpoint "${VNS}" "$1")" --tls-server-name=localhost \
    get namespaces -o name | grep -qx namespace/kube-system
  rc=$?
  rm -f "${f}"
  return "${rc}"
}
kubectl create namespace "${VNS}" >/dev/null
start=$(date +%s)
"${HELM}" install tenant-a "${KUBESPACES_VCLUSTER_CHART}" -n "${VNS}" \
  --set controlPlane.statefulSet.persistence.volumeClaim.enabled=false >/dev/null
check "the real chart renders a Deployment when persistence is off" kubectl -n "${VNS}" get deployment tenant-a
check "the real control plane writes vc-tenant-a" poll 120 secret_exists tenant-a
echo "     vc-tenant-a written $(($(date +%s) - start))s after helm install"
check "vc-tenant-a's kubeconfig lists the virtual cluster's namespaces" virtual_namespaces tenant-a
"${HELM}" uninstall tenant-a -n "${VNS}" >/dev/null

echo "${PASSED} passed, ${FAILED} failed"
((FAILED == 0))
