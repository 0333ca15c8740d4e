#!/usr/bin/env bash
# npm start: `pulumi up` of the demo tenant team-atlas (Pulumi.yaml at the repo root), then its
# outputs and how to use its kubeconfig. Without KUBECONFIG (or ~/.kube/config) it brings up the
# local test bed first and uses the vCluster stand-in chart there.
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
  pulumi config set vclusterChartPath "${PWD}/test/fixtures/vcluster-stand-in" --non-interactive
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
  cat <<HOW
On the local test bed the vCluster is a stand-in and the public name $(pulumi stack output apiServerUrl)
does not resolve; the stand-in's credentials are the test bed's, so point the kubeconfig there:
  KUBECONFIG=team-atlas.kubeconfig kubectl --server "${KUBESPACES_TESTBED_SERVER}" get namespaces
Tear it down with:
  source "\$(bash test/testbed/testbed.sh env)"
  PULUMI_BACKEND_URL=${PULUMI_BACKEND_URL} PULUMI_CONFIG_PASSPHRASE=${PULUMI_CONFIG_PASSPHRASE} pulumi destroy --stack demo
Stop the test bed with: bash test/testbed/testbed.sh down
HOW
fi
