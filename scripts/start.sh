#!/usr/bin/env bash
# npm start: `pulumi up` of the demo tenant team-atlas (Pulumi.yaml at the repo root), then its
# outputs and commands that work from here to use it. The host is decided by the same rule as the
# `kubespaces` command's (provider/hosts/hostChoice.ts): the context you name
# (KUBESPACES_CONTEXT=<context of $KUBECONFIG> npm start), else the local test bed, brought up
# (and built the first time) with the real vCluster chart it packaged from its pinned module.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

npm run build --silent
kind="$(node -e 'process.stdout.write(require("./bin/hosts/hostChoice.js").hostKind({ context: process.env.KUBESPACES_CONTEXT || undefined }))')"
case "${kind}" in
  testbed)
    echo "npm start: no KUBESPACES_CONTEXT named: using the local test bed" >&2
    bash test/testbed/testbed.sh up
    # shellcheck disable=SC1090
    source "$(bash test/testbed/testbed.sh env)"
    ;;
  context)
    echo "npm start: using context ${KUBESPACES_CONTEXT} of ${KUBECONFIG:-~/.kube/config}" >&2
    kubectl config get-contexts "${KUBESPACES_CONTEXT}" >/dev/null
    ;;
  *)
    echo "npm start: no host: name one with KUBESPACES_CONTEXT=<context> npm start" >&2
    exit 2
    ;;
esac
command -v pulumi >/dev/null || { echo "npm start: no pulumi CLI on PATH (the local test bed builds one; on your own cluster install the Pulumi CLI)" >&2; exit 1; }

state_dir="${PWD}/.testbed/demo-state"
mkdir -p "${state_dir}"
export PULUMI_BACKEND_URL="${PULUMI_BACKEND_URL:-file://${state_dir}}"
export PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-demo}"
export PULUMI_SKIP_UPDATE_CHECK=true

pulumi stack select demo --create --non-interactive >/dev/null
if [[ "${kind}" == testbed ]]; then
  pulumi config set vclusterChartPath "${KUBESPACES_VCLUSTER_CHART}" --non-interactive
else
  pulumi config set kubernetes:context "${KUBESPACES_CONTEXT}" --non-interactive
fi
# The engine says once per plugin load that it uses a plugin from $PATH: each such line is shown once.
pulumi up --yes --non-interactive 2>&1 | awk '!/from \$PATH/ || !seen[$0]++'

echo
echo "Tenant team-atlas is ready. Its outputs:"
pulumi stack output --non-interactive
namespace="$(pulumi stack output namespace --non-interactive)"
server_name="$(pulumi stack output apiServerUrl --non-interactive | sed -E 's#^https://([^:/]+).*#\1#')"
# The demo's own passphrase ("demo") is printed; one the user set is theirs, and never echoed.
if [[ "${PULUMI_CONFIG_PASSPHRASE}" == demo ]]; then passphrase_part=" PULUMI_CONFIG_PASSPHRASE=demo"; else passphrase_part=" # and your PULUMI_CONFIG_PASSPHRASE"; fi
env_line="export PULUMI_BACKEND_URL=${PULUMI_BACKEND_URL}${passphrase_part}"
if [[ "${kind}" == testbed ]]; then
  endpoint="$(bash test/testbed/testbed.sh vcluster-endpoint "${namespace}" team-atlas)"
  cat <<HOW

List the namespaces inside the tenant through the test bed's gateway: Traefik, the controller of
the shared Gateway, routes ${server_name} by SNI and passes TLS through to team-atlas's
control plane. The name does not resolve on this machine, so \`testbed.sh gateway-run\` runs
kubectl where the gateway listens on 443, with that name resolving to it: the kubeconfig is used as
it is. It goes to a private temporary file, never into the checkout:
  source "\$(bash test/testbed/testbed.sh env)"
  ${env_line}
  kubeconfig="\$(mktemp)"; pulumi stack output kubeconfig --show-secrets --stack demo > "\$kubeconfig"
  bash test/testbed/testbed.sh gateway-run ${server_name} -- kubectl --kubeconfig "\$kubeconfig" get namespaces
Or past the gateway, as a port-forward would (the test bed forwards ${endpoint} to the control
plane; TLS still checks the name):
  kubectl --kubeconfig "\$kubeconfig" --server ${endpoint} --tls-server-name ${server_name} get namespaces
Tear it down (same shell):
  pulumi destroy --stack demo --yes
Stop the test bed: bash test/testbed/testbed.sh down
HOW
else
  cat <<HOW

Use its kubeconfig (it reaches ${server_name}; the kubeconfig goes to a private temporary file):
  ${env_line}
  kubeconfig="\$(mktemp)"; pulumi stack output kubeconfig --show-secrets --stack demo > "\$kubeconfig"
  kubectl --kubeconfig "\$kubeconfig" get namespaces
Tear it down: pulumi destroy --stack demo --yes
HOW
fi
