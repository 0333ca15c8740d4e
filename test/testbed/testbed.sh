#!/usr/bin/env bash
# Local test bed for @kubespaces/pulumi end-to-end tests: a real Pulumi engine, a real Kubernetes
# control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, KWOK with one fake
# node), the real pinned vCluster (its chart, and its control plane run as local processes for
# each vCluster pod KWOK reports Running), a real Gateway controller (Traefik) and cert-manager, all
# built from pinned Go modules, cached by version outside the repo, started on loopback or in
# network namespaces of their own.
#
#   testbed.sh build [TOOL...]     build missing tools (all, or those named) into the binary cache,
#                                  and (with no TOOL) take CRDs and the vCluster chart from modules
#                                  and install the browser tests' Chromium with apt (not part of up)
#   testbed.sh up                  build if needed, start, install CRDs/fixtures, start the gateway
#                                  (Traefik), cert-manager and the vCluster runner
#   testbed.sh down [--wipe]       stop everything, control planes included, then the containers and
#                                  every other process of this run dir (what tests left: kubespaces
#                                  server, Dex, Pulumi engines and plugins, a browser), and fail naming any that still
#                                  runs (--wipe: delete the run dir)
#   testbed.sh postgres            install (apt-get), start and print the state backend URL of the
#                                  test bed's PostgreSQL, for a server whose replicas share stacks;
#                                  not part of up, stopped by down
#   testbed.sh flux [REPOSITORY...]
#                                  start Flux's source-controller and kustomize-controller (built if
#                                  needed) and a Git server (lighttpd + git http-backend, apt-get
#                                  install if missing), make each bare REPOSITORY, and print the Git
#                                  server's base URL; not part of up, stopped by down
#   testbed.sh postgres-crash      stop the test bed's PostgreSQL at once, as a crash would (its
#                                  immediate shutdown: the next start recovers from its log)
#   testbed.sh image               install podman, buildah, runc and mmdebstrap (apt-get) and build
#                                  what is missing of the base image (Debian minbase, Node.js from
#                                  .ci/node) and the server's image (deploy/image/Containerfile,
#                                  the test bed's Pulumi tools); print the server image's tag.
#                                  Not part of build or up
#   testbed.sh podman ARG...       podman with the test bed's containers.conf and image storage
#   testbed.sh leftovers           list the processes of this run dir that run; fail if there is any
#   testbed.sh status              show what runs
#   testbed.sh restart-apiserver   stop and start kube-apiserver only
#   testbed.sh env                 print the path of the sourceable env file
#   testbed.sh chart               print the path of the packaged vCluster chart
#   testbed.sh tool-path TOOL      print the path of a built tool's binary (e.g. dex, which
#                                  `kubespaces server` starts as its local identity provider)
#   testbed.sh vcluster-endpoint NAMESPACE RELEASE
#                                  print the loopback URL of a running vCluster control plane
#   testbed.sh gateway-run HOST... -- COMMAND [ARG...]
#                                  run COMMAND where the gateway listens on 443, each HOST resolving
#                                  to it (e.g. kubectl with a tenant's kubeconfig, as is)
#   testbed.sh machine NAME [--publish PORT]... -- COMMAND [ARG...]
#                                  run COMMAND as on another machine: a network namespace and host
#                                  name NAME of its own, reaching the API server and PostgreSQL,
#                                  each PORT of its loopback published here (lib/machine.sh)
#   testbed.sh run-vcluster-pod NAMESPACE POD
#                                  (used by the vCluster runner) run one pod's control plane
#
# Environment:
#   KUBESPACES_CACHE        binary cache root (default ~/.cache/kubespaces)
#   KUBESPACES_TESTBED_DIR  run dir (default <repo>/.testbed)
set -euo pipefail

LIB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib"
# shellcheck source=lib/common.sh
source "${LIB}/common.sh"
# shellcheck source=lib/versions.sh
source "${LIB}/versions.sh"
# shellcheck source=lib/tools.sh
source "${LIB}/tools.sh"
# shellcheck source=lib/upstream.sh
source "${LIB}/upstream.sh"
# shellcheck source=lib/pki.sh
source "${LIB}/pki.sh"
# shellcheck source=lib/processes.sh
source "${LIB}/processes.sh"
# shellcheck source=lib/cluster.sh
source "${LIB}/cluster.sh"
# shellcheck source=lib/pulumi.sh
source "${LIB}/pulumi.sh"
# shellcheck source=lib/vclusterPod.sh
source "${LIB}/vclusterPod.sh"
# shellcheck source=lib/gateway.sh
source "${LIB}/gateway.sh"
# shellcheck source=lib/certManager.sh
source "${LIB}/certManager.sh"
# shellcheck source=lib/browser.sh
source "${LIB}/browser.sh"
# shellcheck source=lib/postgres.sh
source "${LIB}/postgres.sh"
# shellcheck source=lib/machine.sh
source "${LIB}/machine.sh"
# shellcheck source=lib/s3.sh
source "${LIB}/s3.sh"
# shellcheck source=lib/image.sh
source "${LIB}/image.sh"
# shellcheck source=lib/flux.sh
source "${LIB}/flux.sh"

# start_runner: the vCluster runner (vclusterRunner.ts) needs the repo's node_modules.
start_runner() {
  [[ -x "${REPO_ROOT}/node_modules/.bin/tsx" && -d "${REPO_ROOT}/node_modules/@kubernetes/client-node" ]] ||
    die "the vCluster runner needs tsx and @kubernetes/client-node: run npm ci first"
  local log="${LOGS}/vcluster-runner.log" from=0
  [[ -f "${log}" ]] && from="$(wc -l <"${log}")"
  start_component vcluster-runner
  # Only this start's lines count: the log is appended to across runs.
  runner_watching() { tail -n "+$((from + 1))" "${log}" | grep -q 'watching vCluster pods'; }
  wait_for "vcluster-runner" 30 runner_watching || {
    tail -n 20 "${LOGS}/vcluster-runner.log" >&2
    die "vcluster-runner did not start (log: ${LOGS}/vcluster-runner.log)"
  }
}

all_healthy() {
  local name
  for name in "${COMPONENTS[@]}"; do
    # The runner is checked apart; the on-demand ones run only when a test asked for them.
    [[ "${name}" == vcluster-runner ]] || on_demand "${name}" || running "${name}" || return 1
  done
  [[ -f "${PORTS_FILE}" ]] && ensure_ports && apiserver_ready && node_ready && fixtures_installed
}

cmd_up() {
  local start
  start=$(date +%s)
  if all_healthy 2>/dev/null; then
    running vcluster-runner || start_runner
    install_pulumi_plugins
    write_env
    log "already up and healthy; env: ${ENV_FILE}"
    return 0
  fi
  cmd_build
  mkdir -p "${RUN_DIR}" "${PIDS}" "${LOGS}"
  ensure_ports
  ensure_pki
  write_kubeconfig

  start_component etcd
  must_be_healthy etcd 30 etcd_healthy
  start_component kube-apiserver
  must_be_healthy kube-apiserver 90 apiserver_ready
  start_component kube-controller-manager
  start_component kube-scheduler
  must_be_healthy kube-controller-manager 60 kcm_healthy
  must_be_healthy kube-scheduler 60 scheduler_healthy

  ensure_node
  kwok_config
  start_component kwok
  must_be_healthy kwok 60 node_ready

  fixtures_installed || install_crds_and_fixtures
  start_gateway
  start_cert_manager
  start_s3_store
  install_pulumi_plugins
  write_env
  start_runner
  log "up in $(($(date +%s) - start))s: API https://127.0.0.1:${APISERVER_PORT}; source ${ENV_FILE}"
}

# cmd_build_with_browser [TOOL...]: `build`. With no TOOL, also the browser the end-to-end tests
# drive; `up` leaves it out, since only those tests need it.
cmd_build_with_browser() {
  cmd_build "$@"
  (($# > 0)) || ensure_browser
}

cmd_down() {
  local wipe=false i rc=0
  [[ "${1:-}" == "--wipe" ]] && wipe=true
  for ((i = ${#COMPONENTS[@]} - 1; i >= 0; i--)); do
    stop_component "${COMPONENTS[i]}"
  done
  # The runner stops the control planes it started; this catches any it could not.
  stop_all_vcluster_pods
  # Containers a test left (the server's image run with podman), before the processes' sweep.
  image_containers_down
  # What no pid file names: a server, Dex, an engine or a browser a test left, a stray plugin.
  testbed_processes stop || rc=$?
  gateway_netns_down
  machines_down
  if ${wipe}; then
    log "wiping ${RUN_DIR}"
    rm -rf "${RUN_DIR}"
  fi
  return "${rc}"
}

cmd_status() {
  local name state rc=0 f
  for name in "${COMPONENTS[@]}"; do
    if running "${name}"; then
      state="running (pid $(pid_of "${name}"))"
    elif on_demand "${name}"; then
      state="stopped (started on demand: testbed.sh $([[ "${name}" == postgres ]] && echo postgres || echo flux))"
    else
      state="stopped"
      rc=1
    fi
    printf '%-26s %s\n' "${name}" "${state}"
  done
  for f in "${VCLUSTERS_DIR}"/*/*/endpoint; do
    [[ -f "${f}" ]] || continue
    printf 'vcluster control plane     %s at %s\n' "$(dirname "${f#"${VCLUSTERS_DIR}"/}")" "$(cat "${f}")"
  done
  [[ -f "${PORTS_FILE}" ]] && running traefik &&
    printf 'gateway                    listener %s at 127.0.0.1:%s\n' "${GATEWAY_LISTENER_PORT}" "$(ensure_ports && echo "${GATEWAY_PORT}")"
  if [[ -f "${PORTS_FILE}" ]]; then
    ensure_ports
    if apiserver_ready 2>/dev/null; then
      echo "kube-apiserver https://127.0.0.1:${APISERVER_PORT} ready"
      kc get nodes --no-headers 2>/dev/null | sed 's/^/node /'
    else
      echo "kube-apiserver https://127.0.0.1:${APISERVER_PORT} NOT ready"
      rc=1
    fi
  fi
  [[ -f "${ENV_FILE}" ]] && echo "env: ${ENV_FILE}"
  return "${rc}"
}

cmd_restart_apiserver() {
  [[ -f "${PORTS_FILE}" ]] || die "test bed was never started"
  ensure_ports
  stop_component kube-apiserver
  start_component kube-apiserver
  must_be_healthy kube-apiserver 90 apiserver_ready
}

cmd_env() {
  [[ -f "${ENV_FILE}" ]] || die "no env file yet: run $0 up"
  echo "${ENV_FILE}"
}

cmd_chart() {
  [[ -f "${VCLUSTER_CHART}" ]] || die "no vCluster chart yet: run $0 build"
  echo "${VCLUSTER_CHART}"
}

cmd_tool_path() {
  local name="${1:-}" bin
  [[ -n "${name}" ]] || die "usage: $0 tool-path TOOL"
  (tool_version "${name}" >/dev/null) || exit 1
  bin="$(tool_bin "${name}")"
  [[ -x "${bin}" ]] || die "${name} is not built yet: run $0 build ${name}"
  echo "${bin}"
}

# one_at_a_time COMMAND ARGS...: runs `testbed.sh COMMAND-unlocked ARGS...` holding the run dir's
# lock, so that two callers at once (two `kubespaces tenant create`s, say) bring the test bed up
# once and never write its files together. flock -o keeps the lock out of the daemons `up` starts.
one_at_a_time() {
  mkdir -p "${RUN_DIR}"
  flock -o "${RUN_DIR}/.lock" bash "${BASH_SOURCE[0]}" "$1-unlocked" "${@:2}"
}

main() {
  local cmd="${1:-}"
  shift || true
  case "${cmd}" in
    build) cmd_build_with_browser "$@" ;;
    up | down | postgres | postgres-crash) one_at_a_time "${cmd}" "$@" ;;
    # Locked by the image cache, not the run dir: two test beds never build one image at once.
    image)
      mkdir -p "${IMAGE_CACHE}"
      flock -o "${IMAGE_CACHE}/.lock" bash "${BASH_SOURCE[0]}" image-unlocked "$@"
      ;;
    image-unlocked) cmd_image "$@" ;;
    podman) cmd_podman "$@" ;;
    up | down | postgres | postgres-crash | flux) one_at_a_time "${cmd}" "$@" ;;
    flux-unlocked) cmd_flux "$@" ;;
    postgres-unlocked) cmd_postgres "$@" ;;
    postgres-crash-unlocked) cmd_postgres_crash "$@" ;;
    up-unlocked) cmd_up "$@" ;;
    down-unlocked) cmd_down "$@" ;;
    status) cmd_status "$@" ;;
    leftovers) testbed_processes list ;;
    restart-apiserver) cmd_restart_apiserver "$@" ;;
    env) cmd_env "$@" ;;
    chart) cmd_chart "$@" ;;
    tool-path) cmd_tool_path "$@" ;;
    machine) cmd_machine "$@" ;;
    vcluster-endpoint) cmd_vcluster_endpoint "$@" ;;
    run-vcluster-pod) cmd_run_vcluster_pod "$@" ;;
    gateway-run) cmd_gateway_run "$@" ;;
    *)
      sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
      [[ -z "${cmd}" ]] || die "unknown command ${cmd}"
      ;;
  esac
}

# Sourcing the script (for debugging) defines the functions only.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
