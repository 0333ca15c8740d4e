#!/usr/bin/env bash
# npm start: `pulumi up` of the demo tenant team-atlas (Pulumi.yaml at the repo root), then its
# outputs and commands that work from here to use it. The host is decided by the same rule as the
# `kubespaces` command's (provider/hosts/hostChoice.ts): the context you name
# (KUBESPACES_CONTEXT=<context of $KUBECONFIG> npm start), else the local test bed, brought up
# (and built the first time) with the real vCluster chart it packaged from its pinned module.
#
# It says what it does in a screenful: a line per step, with progress while one runs, and the
# outputs and commands at the end. What the build, the test bed and the engine print goes to a log
# per step under .testbed/demo-logs/, whose path is printed; when a step fails, its log's last lines
# are shown with the path. The engine's notes that it uses a plugin from $PATH (the test bed's
# language host, provider and dynamic provider are found there, not next to the pulumi binary:
# test/testbed/README.md) stay in that log: nothing on the screen a newcomer cannot act on.
#
# Environment: KUBESPACES_START_PROGRESS_SECONDS, how often a step that runs says how far it is
# (default 20; the unit test test/unit/startScript.test.ts shortens it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

logs="${PWD}/.testbed/demo-logs"
mkdir -p "${logs}"
every="${KUBESPACES_START_PROGRESS_SECONDS:-20}"
say() { echo "npm start: $*" >&2; }

# fail_with LOG STATUS WHAT: the end of a failed step: LOG's last lines, without the engine's notes
# of plugins found on $PATH (they are in LOG), and its path.
fail_with() {
  echo >&2
  say "${3} failed (exit ${2}). The last lines of ${1}:"
  { grep -v 'from \$PATH at ' "${1}" || true; } | tail -n 25 | sed 's/^/  | /' >&2
  say "the whole output: ${1}"
  exit "${2}"
}

# step LOG WHAT PROGRESS COMMAND...: runs COMMAND in the foreground (Ctrl-C reaches it as usual),
# its output appended to LOG. Every $every seconds while it runs, PROGRESS (a function given the
# seconds so far; - for none) may print a line of how far it is. On failure: fail_with.
step() {
  local log="$1" what="$2" progress="$3" watcher="" status=0
  shift 3
  if [[ "${progress}" != - ]]; then
    watch_progress "${progress}" "${SECONDS}" &
    watcher=$!
  fi
  "$@" >>"${log}" 2>&1 || status=$?
  if [[ -n "${watcher}" ]]; then kill "${watcher}" 2>/dev/null || true; wait "${watcher}" 2>/dev/null || true; fi
  ((status == 0)) || fail_with "${log}" "${status}" "${what}"
}

# watch_progress PROGRESS BEGAN: PROGRESS's line every $every seconds, when it changed; it ends,
# its sleep with it, when it is killed or the script is gone.
watch_progress() {
  local line last="" nap=""
  trap '[[ -z "${nap}" ]] || kill "${nap}" 2>/dev/null; exit 0' TERM
  while sleep "${every}" </dev/null >/dev/null 2>&1 & nap=$! && wait "${nap}" && kill -0 "$$" 2>/dev/null; do
    line="$("$1" "$((SECONDS - $2))")"
    [[ -z "${line}" || "${line}" == "${last}" ]] || say "  ${line}"
    last="${line}"
  done
}

# The test bed's latest log line, without its "[testbed HH:MM:SS]" prefix.
testbed_progress() {
  local latest
  latest="$(tail -n 1 "${logs}/testbed-up.log" | sed -E 's/^\[testbed [0-9:]+\] //')"
  [[ -z "${latest}" ]] || echo "${latest} ($1s)"
}

# How many resources the engine has reported created so far, from its output in the log (pulumi
# 3.248's `up` has no event log flag; its resource lines reach the log as they finish).
engine_progress() {
  local created
  created="$(grep -cE '^ *\+ .* created' "${up_log}" 2>/dev/null)" || true
  echo "${created:-0} resources created ($1s)"
}

say "building the package (npm run build; log ${logs}/build.log)"
: >"${logs}/build.log"
step "${logs}/build.log" "npm run build" - npm run build --silent
kind="$(node -e 'process.stdout.write(require("./bin/hosts/hostChoice.js").hostKind({ context: process.env.KUBESPACES_CONTEXT || undefined }))')"
case "${kind}" in
  testbed)
    if bash test/testbed/testbed.sh tool-path pulumi >/dev/null 2>&1; then
      first=""
    else
      first=" The first time, it builds its Kubernetes control plane, vCluster and Pulumi from pinned Go modules: 26 to 40 minutes on 2 cores."
    fi
    say "no KUBESPACES_CONTEXT named: starting the local test bed (test/testbed/testbed.sh up; log ${logs}/testbed-up.log).${first}"
    : >"${logs}/testbed-up.log"
    began=${SECONDS}
    step "${logs}/testbed-up.log" "test/testbed/testbed.sh up" testbed_progress bash test/testbed/testbed.sh up
    say "the test bed is up ($((SECONDS - began))s)"
    # shellcheck disable=SC1090
    source "$(bash test/testbed/testbed.sh env)"
    ;;
  context)
    say "using context ${KUBESPACES_CONTEXT} of ${KUBECONFIG:-~/.kube/config}"
    kubectl config get-contexts "${KUBESPACES_CONTEXT}" >/dev/null
    ;;
  *)
    say "no host: name one with KUBESPACES_CONTEXT=<context> npm start"
    exit 2
    ;;
esac
command -v pulumi >/dev/null || { say "no pulumi CLI on PATH (the local test bed builds one; on your own cluster install the Pulumi CLI)"; exit 1; }

state_dir="${PWD}/.testbed/demo-state"
mkdir -p "${state_dir}"
export PULUMI_BACKEND_URL="${PULUMI_BACKEND_URL:-file://${state_dir}}"
export PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-demo}"
export PULUMI_SKIP_UPDATE_CHECK=true

up_log="${logs}/pulumi-up.log"
: >"${up_log}"
say "provisioning team-atlas: pulumi up of the stack demo (the engine's output: ${up_log})"
step "${up_log}" "pulumi stack select demo" - pulumi stack select demo --create --non-interactive
if [[ "${kind}" == testbed ]]; then
  step "${up_log}" "pulumi config set" - pulumi config set vclusterChartPath "${KUBESPACES_VCLUSTER_CHART}" --non-interactive
else
  step "${up_log}" "pulumi config set" - pulumi config set kubernetes:context "${KUBESPACES_CONTEXT}" --non-interactive
fi
# --skip-preview: --yes asks nothing, and one pass keeps the log's count of one update.
# --suppress-outputs: they are printed below, secrets hidden, once.
began=${SECONDS}
step "${up_log}" "pulumi up" engine_progress \
  pulumi up --yes --skip-preview --non-interactive --suppress-progress --suppress-outputs
# The engine's summary: "Resources:" and its lines ("+ 27 created", "1 unchanged"), on one line.
summary="$(awk '/^Resources:/ { on = 1; next } on && NF == 0 { exit } on { $1 = $1; printf "%s%s", sep, $0; sep = ", " }' "${up_log}")"
say "team-atlas is provisioned in $((SECONDS - began))s${summary:+ (${summary})}"

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
