# shellcheck shell=bash
# The host control plane's processes: their command lines, start/stop, health checks.

# Start order; `down` stops in reverse (the vCluster runner, which stands in for the kubelet, first).
# The gateway's (gateway.sh) and cert-manager (certManager.sh) act on the cluster like the
# controllers a platform team installs. The last ones run only when a test asks for them
# (ON_DEMAND_COMPONENTS): PostgreSQL (postgres.sh), and Flux with its Git server (flux.sh).
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok
  gateway-forward-host gateway-forward-netns traefik cert-manager s3-store vcluster-runner postgres
  git-server source-controller kustomize-controller)
ON_DEMAND_COMPONENTS=(postgres git-server source-controller kustomize-controller)

# on_demand NAME: whether component NAME runs only when a test asks for it (not started by up).
on_demand() { [[ " ${ON_DEMAND_COMPONENTS[*]} " == *" $1 "* ]]; }

pid_of() { [[ -f "${PIDS}/$1.pid" ]] && cat "${PIDS}/$1.pid"; }

running() {
  local pid
  pid="$(pid_of "$1" 2>/dev/null)" || return 1
  [[ -n "${pid}" ]] && kill -0 "${pid}" 2>/dev/null
}


# controller_common_args: the flags the controller manager and the scheduler share, one a line:
# the cluster's kubeconfig for the API, authentication and authorization, open health paths,
# loopback, no leader election, the test bed's client limits.
controller_common_args() {
  printf '%s\n' \
    --kubeconfig="${KUBECONFIG_FILE}" \
    --authentication-kubeconfig="${KUBECONFIG_FILE}" \
    --authorization-kubeconfig="${KUBECONFIG_FILE}" \
    --authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics \
    --bind-address=127.0.0.1 \
    --leader-elect=false --kube-api-qps=200 --kube-api-burst=400 \
    --v=1
}

# component_args NAME: print the command line of a component, one word a line.
component_args() {
  case "$1" in
    postgres) postgres_args ;;
    etcd)
      printf '%s\n' "$(tool_bin etcd)" \
        --name=testbed --data-dir="${RUN_DIR}/etcd-data" \
        --listen-client-urls="http://127.0.0.1:${ETCD_PORT}" \
        --advertise-client-urls="http://127.0.0.1:${ETCD_PORT}" \
        --listen-peer-urls="http://127.0.0.1:${ETCD_PEER_PORT}" \
        --initial-advertise-peer-urls="http://127.0.0.1:${ETCD_PEER_PORT}" \
        --initial-cluster="testbed=http://127.0.0.1:${ETCD_PEER_PORT}" \
        --auto-compaction-retention=1 --quota-backend-bytes=4294967296 \
        --unsafe-no-fsync=true --log-level=warn
      ;;
    kube-apiserver)
      # Flags as kwokctl's binary runtime uses them, bound to loopback. The
      # endpoint reconciler is off: Endpoints may not hold 127.0.0.1.
      printf '%s\n' "$(tool_bin kube-apiserver)" \
        --bind-address=127.0.0.1 --advertise-address=127.0.0.1 \
        --secure-port="${APISERVER_PORT}" \
        --etcd-servers="http://127.0.0.1:${ETCD_PORT}" --etcd-prefix=/registry \
        --cert-dir="${RUN_DIR}/apiserver-certs" \
        --tls-cert-file="${PKI}/apiserver.crt" --tls-private-key-file="${PKI}/apiserver.key" \
        --client-ca-file="${PKI}/ca.crt" --token-auth-file="${PKI}/tokens.csv" \
        --service-account-issuer=https://kubernetes.default.svc.cluster.local \
        --service-account-key-file="${PKI}/sa.pub" \
        --service-account-signing-key-file="${PKI}/sa.key" \
        --service-cluster-ip-range=10.96.0.0/16 \
        --authorization-mode=Node,RBAC --allow-privileged=true \
        --endpoint-reconciler-type=none \
        --enable-priority-and-fairness=false --profiling=false \
        --v=1
      ;;
    kube-controller-manager)
      printf '%s\n' "$(tool_bin kube-controller-manager)" \
        --secure-port="${KCM_PORT}" --cert-dir="${RUN_DIR}/kcm-certs" \
        --service-account-private-key-file="${PKI}/sa.key" \
        --root-ca-file="${PKI}/ca.crt"
      controller_common_args
      ;;
    kube-scheduler)
      printf '%s\n' "$(tool_bin kube-scheduler)" \
        --secure-port="${SCHEDULER_PORT}" --cert-dir="${RUN_DIR}/scheduler-certs"
      controller_common_args
      ;;
    kwok)
      printf '%s\n' "$(tool_bin kwok)" \
        --kubeconfig="${KUBECONFIG_FILE}" --config="${RUN_DIR}/kwok.yaml" \
        --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
        --node-lease-duration-seconds=40 \
        --server-address="127.0.0.1:${KWOK_PORT}" \
        --node-ip=127.0.0.1 --cidr=10.244.0.0/16
      ;;
    gateway-forward-host | gateway-forward-netns | traefik) gateway_component_args "$1" ;;
    cert-manager) cert_manager_args ;;
    s3-store) s3_store_args ;;
    git-server) git_server_args ;;
    source-controller | kustomize-controller) flux_controller_args "$1" ;;
    vcluster-runner)
      printf '%s\n' "${REPO_ROOT}/node_modules/.bin/tsx" "${TESTBED_SRC}/vclusterRunner.ts"
      ;;
  esac
}

# start_component NAME: start detached (own session, so it outlives the shell
# that ran `up`), record its pid and its exact command line (args/NAME). The
# command line is written at each start: the flags follow from the ports file,
# so restart-apiserver gets the same ones, and a tool rebuilt under a new cache
# key (one keyed by its sources) is the one that runs.
start_component() {
  local name="$1"
  if running "${name}"; then
    log "${name} already running (pid $(pid_of "${name}"))"
    return 0
  fi
  mkdir -p "${PIDS}" "${LOGS}" "${ARGS}"
  component_args "${name}" >"${ARGS}/${name}"
  local -a argv
  mapfile -t argv <"${ARGS}/${name}"
  log "starting ${name}"
  (
    cd "${RUN_DIR}"
    export KUBECONFIG="${KUBECONFIG_FILE}" KUBESPACES_TESTBED_DIR="${RUN_DIR}"
    exec setsid "${argv[@]}" >>"${LOGS}/${name}.log" 2>&1 </dev/null
  ) &
  echo $! >"${PIDS}/${name}.pid"
}

# stop_component NAME [SIGNAL]: stop it with SIGNAL (default TERM), then KILL its group after 10 s.
stop_component() {
  local name="$1" signal="${2:-TERM}" pid i
  pid="$(pid_of "${name}" 2>/dev/null)" || return 0
  if [[ -n "${pid}" ]] && kill -0 "${pid}" 2>/dev/null; then
    log "stopping ${name} (pid ${pid}, SIG${signal})"
    kill "-${signal}" "${pid}" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
      kill -0 "${pid}" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "${pid}" 2>/dev/null; then
      # setsid made the component its own process group: kill its children too.
      log "${name} ignored ${signal} for 10s, sending KILL to its process group"
      kill -KILL -- "-${pid}" 2>/dev/null || kill -KILL "${pid}" 2>/dev/null || true
    fi
  fi
  rm -f "${PIDS}/${name}.pid"
}

# testbed_processes list|stop: the processes of this run dir, whatever started them
# (testbedProcesses.ts says which count); `stop` ends them first. Both fail naming any that runs.
# Without npm ci there is no tsx to run it: `stop` says so and goes on (down must still work).
testbed_processes() {
  local tsx="${REPO_ROOT}/node_modules/.bin/tsx"
  if [[ ! -x "${tsx}" ]]; then
    [[ "$1" == stop ]] || die "listing the test bed's processes needs tsx: run npm ci first"
    log "WARNING: not looking for other processes of the test bed: tsx is missing (run npm ci)"
    return 0
  fi
  "${tsx}" "${TESTBED_SRC}/testbedProcesses.ts" "$1" "${RUN_DIR}" "${BIN_CACHE}"
}

etcd_healthy() { curl -fsS "http://127.0.0.1:${ETCD_PORT}/health" | grep -q '"health":"true"'; }
apiserver_ready() {
  curl -fsS --cacert "${PKI}/ca.crt" --cert "${PKI}/admin.crt" --key "${PKI}/admin.key" \
    "https://127.0.0.1:${APISERVER_PORT}/readyz" | grep -qx ok
}
kcm_healthy() { curl -fsSk "https://127.0.0.1:${KCM_PORT}/healthz" | grep -qx ok; }
scheduler_healthy() { curl -fsSk "https://127.0.0.1:${SCHEDULER_PORT}/healthz" | grep -qx ok; }
must_be_healthy() {
  local name="$1" secs="$2" check="$3"
  if ! wait_for "${name}" "${secs}" "${check}"; then
    tail -n 30 "${LOGS}/${name}.log" >&2 || true
    die "${name} did not become healthy (log: ${LOGS}/${name}.log)"
  fi
}

