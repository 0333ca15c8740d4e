#!/usr/bin/env bash
# npm start: `pulumi up` of the demo tenant team-atlas (Pulumi.yaml at the repo root), then its
# outputs and how to use its kubeconfig. Without KUBECONFIG (or ~/.kube/config) it brings up the
# local test bed first and uses the real vCluster chart 0.36.1 the test bed packaged from its pinned
# Go module; the test bed runs the tenant's real control plane and forwards a loopback port to it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

npm run build --silent
on_testbed=false
if [[ -z "${KUBECONFIG:-}" && ! -f "${HOME}/.kube/config" ]]; then
  bash test/testbed/testbed.sh up
  # shellcheck disable=SC1090
  source "$(bash test/testbed/testbed.sh env)"
  on_testbed=true
fi
command -v pulumi >/dev/null || { echo "npm start: no pulumi CLI on PATH" >&2; exit 1; }

state_dir="${PWD}/.testbed/demo-state"
mkdir -p "${state_dir}"
export PULUMI_BACKEND_URL="${PULUMI_BACKEND_URL:-file://${state_dir}}"
export PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-demo}"
export PULUMI_SKIP_UPDATE_CHECK=true

pulumi stack select demo --create --non-interactive >/dev/null
if ${on_testbed}; then
  pulumi config set vclusterChartPath "${KUBESPACES_VCLUSTER_CHART}" --non-interactive
fi
pulumi up --yes --non-interactive

echo
echo "Tenant team-atlas is ready. Its outputs:"
pulumi stack output --non-interactive
cat <<HOW

Use its kubeconfig (a secret output):
  pulumi stack output kubeconfig --show-secrets > team-atlas.kubeconfig
  KUBECONFIG=team-atlas.kubeconfig kubectl get namespaces
HOW
if ${on_testbed}; then
  namespace="$(pulumi stack output namespace --non-interactive)"
  endpoint="$(bash test/testbed/testbed.sh vcluster-endpoint "${namespace}" team-atlas)"
  server_name="$(pulumi stack output apiServerUrl --non-interactive | sed -E 's#^https://([^:/]+).*#\1#')"
  cat <<HOW
On the local test bed the public name ${server_name} does not resolve: the test bed forwards
${endpoint} on this machine to team-atlas's control plane, as a port-forward would. List the
namespaces inside the tenant (TLS still checks the name in the kubeconfig):
  source "\$(bash test/testbed/testbed.sh env)"
  export PULUMI_BACKEND_URL=${PULUMI_BACKEND_URL} PULUMI_CONFIG_PASSPHRASE=${PULUMI_CONFIG_PASSPHRASE}
  pulumi stack output kubeconfig --show-secrets --stack demo > team-atlas.kubeconfig
  KUBECONFIG=team-atlas.kubeconfig kubectl --server ${endpoint} --tls-server-name ${server_name} get namespaces
Tear it down with (same environment):
  pulumi destroy --stack demo
Stop the test bed with: bash test/testbed/testbed.sh down
HOW
fi
