#!/usr/bin/env bash
# Smoke check of the kubespaces test bed (run after `testbed.sh up`):
#   - the KWOK node is Ready
#   - a StatefulSet (1 replica, busybox, no PVC) reaches readyReplicas 1
#   - deleting a namespace completes (controller manager works)
#   - the CRDs and fixtures are there; `pulumi version` prints v3.248.0
#   - with helm and the vCluster stand-in simulator available: the stand-in
#     chart's workload gets its vc-<release> Secret, whose kubeconfig keeps
#     the configured server and whose credentials work against the test bed,
#     also after an API server restart.
# Ends with a line "N passed, N failed".
set -euo pipefail

TESTBED="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/testbed.sh"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
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

pulumi_version() { [[ "$(pulumi version)" == v3.248.0 ]]; }
check "pulumi version prints v3.248.0 ($(pulumi version 2>&1 || true))" pulumi_version
check "pulumi-resource-kubernetes on PATH" command -v pulumi-resource-kubernetes
check "kubernetes plugin v4.25.0 installed in PULUMI_HOME" \
  bash -c 'pulumi plugin ls 2>/dev/null | grep -E "kubernetes +resource +4\.25\.0"'

# --- vCluster stand-in -------------------------------------------------------
# helm is built by `testbed.sh build` at the version pulumi-kubernetes embeds.
HELM="${KUBESPACES_CACHE:-${HOME}/.cache/kubespaces}/bin/helm-v3.18.6/helm"
[[ -x "${HELM}" ]] || HELM=""
STATUS="$("${TESTBED}" status 2>/dev/null || true)"
if [[ -z "${HELM}" ]] || ! grep -q 'vcluster-simulator .*running' <<<"${STATUS}"; then
  echo "skip - vCluster stand-in checks (need the helm binary in the cache and the simulator running)"
else
  VNS="${NS}-vc"
  kubectl create namespace "${VNS}" >/dev/null
  render() { # render RELEASE SERVER [extra helm args]
    local rel="$1" server="$2"
    shift 2
    "${HELM}" template "${rel}" "${REPO_ROOT}/test/fixtures/vcluster-stand-in" -n "${VNS}" \
      --set controlPlane.statefulSet.persistence.volumeClaim.enabled=false \
      --set exportKubeConfig.server="${server}" --set exportKubeConfig.context="${rel}-ctx" "$@"
  }
  secret_config() { kubectl -n "${VNS}" get secret "vc-$1" -o jsonpath='{.data.config}' | base64 -d; }
  secret_exists() { kubectl -n "${VNS}" get secret "vc-$1" >/dev/null 2>&1; }
  creds_work() { # the Secret's kubeconfig, pointed at the test bed, can list namespaces
    local f
    f="$(mktemp)"
    secret_config "$1" >"${f}"
    KUBECONFIG="${f}" kubectl --server="${KUBESPACES_TESTBED_SERVER}" get namespaces >/dev/null
    local rc=$?
    rm -f "${f}"
    return "${rc}"
  }
  server_is() { [[ "$(secret_config "$1" | grep -m1 'server:' | awk '{print $2}')" == "$2" ]]; }

  render tenant-a https://tenant-a.kubespaces.example:443 | kubectl apply -f - >/dev/null
  check "stand-in chart renders a Deployment when persistence is off (as the real chart)" \
    kubectl -n "${VNS}" get deployment tenant-a
  check "stand-in Secret vc-tenant-a written" poll 90 secret_exists tenant-a
  check "vc-tenant-a server is the configured one" server_is tenant-a https://tenant-a.kubespaces.example:443
  check "vc-tenant-a credentials work against the test bed" creds_work tenant-a

  # A withheld StatefulSet (no PVC: the template has none with persistence off).
  render tenant-w https://tenant-w.kubespaces.example:443 \
    --set controlPlane.backingStore.etcd.embedded.enabled=true \
    --set controlPlane.statefulSet.persistence.volumeClaim.enabled=false \
    --set-string 'controlPlane.statefulSet.annotations.kubespaces\.io/stand-in-withhold-secret=true' |
    kubectl apply -f - >/dev/null
  wready() { [[ "$(kubectl -n "${VNS}" get statefulset tenant-w -o jsonpath='{.status.readyReplicas}')" == 1 ]]; }
  check "withheld stand-in StatefulSet becomes ready" poll 90 wready
  sleep 3
  check "no Secret for the withheld release" bash -c "! kubectl -n ${VNS} get secret vc-tenant-w >/dev/null 2>&1"

  start=$(date +%s)
  "${TESTBED}" restart-apiserver >/dev/null 2>&1
  echo "     kube-apiserver restarted in $(($(date +%s) - start))s"
  render tenant-b https://tenant-b.kubespaces.example:443 | kubectl apply -f - >/dev/null
  check "after an API server restart, vc-tenant-b is written" poll 90 secret_exists tenant-b
  check "vc-tenant-b credentials work against the test bed" creds_work tenant-b
fi

echo "${PASSED} passed, ${FAILED} failed"
((FAILED == 0))
