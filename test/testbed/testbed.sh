#!/usr/bin/env bash
# Local test bed for @kubespaces/pulumi end-to-end tests: a real Pulumi engine
# and a real Kubernetes control plane (etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler, KWOK with one fake node), all built
# from Go modules, cached by version outside the repo, started on loopback.
#
#   testbed.sh build [TOOL...]     build missing tools (all, or those named) into the binary cache
#   testbed.sh up                  build if needed, start, install CRDs/fixtures
#   testbed.sh down [--wipe]       stop (and with --wipe delete the run dir)
#   testbed.sh status              show what runs
#   testbed.sh restart-apiserver   stop and start kube-apiserver only
#   testbed.sh env                 print the path of the sourceable env file
#
# Environment:
#   KUBESPACES_CACHE        binary cache root (default ~/.cache/kubespaces)
#   KUBESPACES_TESTBED_DIR  run dir (default <repo>/.testbed)
#   KUBESPACES_CRDS_DIR     CRD folder (default <repo>/../shared/reference/crds)
#   KUBESPACES_SIMULATOR_DELAY_MS  delay of the vCluster stand-in simulator
set -euo pipefail

TESTBED_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "${TESTBED_SRC}/../.." && pwd)"
CACHE_ROOT="${KUBESPACES_CACHE:-${HOME}/.cache/kubespaces}"
BIN_CACHE="${CACHE_ROOT}/bin"
RUN_DIR="${KUBESPACES_TESTBED_DIR:-${REPO_ROOT}/.testbed}"
CRDS_DIR="${KUBESPACES_CRDS_DIR:-${REPO_ROOT}/../shared/reference/crds}"

# ---------------------------------------------------------------------------
# Versions. Each Go tool has its own go.mod under tools/ so that dependency
# versions never merge across tools.
# ---------------------------------------------------------------------------
ETCD_VERSION=v3.6.16
KUBE_VERSION=v1.36.3
KWOK_VERSION=v0.8.0
PULUMI_VERSION=v3.248.0
K8S_PROVIDER_VERSION=v4.25.0
# pulumi-kubernetes has no Go tags: this pseudo-version is release v4.25.0.
K8S_PROVIDER_MODULE_VERSION=v4.0.0-20260115033456-f47bc2d6f199
# The Helm library version pulumi-kubernetes v4.25.0 embeds; the CLI is only
# for checking the stand-in chart, and reuses the provider's build cache.
HELM_VERSION=v3.18.6

# Order matters only for the log: dependencies are independent.
ALL_TOOLS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok
  pulumi pulumi-resource-kubernetes helm pulumi-language-nodejs pulumi-language-python)

log() { printf '[testbed %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# tool_version NAME: the version the cache directory is keyed by.
tool_version() {
  case "$1" in
    etcd) echo "${ETCD_VERSION}" ;;
    kube-apiserver | kube-controller-manager | kube-scheduler) echo "${KUBE_VERSION}" ;;
    kwok) echo "${KWOK_VERSION}" ;;
    pulumi | pulumi-language-python) echo "${PULUMI_VERSION}" ;;
    # Our own stand-in (tools/pulumi-language-nodejs/main.go): the real module is not served.
    pulumi-language-nodejs) echo "${PULUMI_VERSION}-stand-in" ;;
    pulumi-resource-kubernetes) echo "${K8S_PROVIDER_VERSION}" ;;
    helm) echo "${HELM_VERSION}" ;;
    *) die "unknown tool $1" ;;
  esac
}

tool_dir() { echo "${BIN_CACHE}/$1-$(tool_version "$1")"; }
tool_bin() { echo "$(tool_dir "$1")/$1"; }

# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------

# go_build DIR OUT PKG [extra go build args...]: build PKG with the go.mod in
# DIR. Static, stripped, trimmed binaries keep the cache small and relocatable.
go_build() {
  local dir="$1" out="$2" pkg="$3"
  shift 3
  (cd "${dir}" && CGO_ENABLED=0 GOFLAGS="-trimpath -buildvcs=false" \
    go build "$@" -o "${out}" "${pkg}")
}

kube_ldflags() {
  local v="${KUBE_VERSION#v}" major minor
  major="${v%%.*}"
  minor="${v#*.}"
  minor="${minor%%.*}"
  local x
  # Both packages carry the version (as kubernetes' hack/lib/version.sh sets them).
  for x in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    printf -- '-X %s.gitVersion=%s -X %s.gitMajor=%s -X %s.gitMinor=%s -X %s.gitTreeState=clean -X %s.buildDate=1970-01-01T00:00:00Z ' \
      "$x" "${KUBE_VERSION}" "$x" "${major}" "$x" "${minor}" "$x" "$x"
  done
}

# build_k8s_provider OUT: pulumi-resource-kubernetes embeds schema-embed.json
# and terraform-mapping-embed.json, which are gitignored upstream and so not
# in the module zip. Copy the module out of the module cache, generate them,
# then build with the provider's own go.mod (its `replace ../sdk` is met by
# copying the sdk module beside it).
build_k8s_provider() {
  local out="$1" pins="${TESTBED_SRC}/tools/pulumi-resource-kubernetes"
  local work="${CACHE_ROOT}/src/pulumi-kubernetes-${K8S_PROVIDER_VERSION}"
  local prov sdk
  prov="$(cd "${pins}" && go mod download -json \
    "github.com/pulumi/pulumi-kubernetes/provider/v4@${K8S_PROVIDER_MODULE_VERSION}" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  sdk="$(cd "${pins}" && go mod download -json \
    "github.com/pulumi/pulumi-kubernetes/sdk/v4@${K8S_PROVIDER_VERSION}" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [[ -d "${prov}" && -d "${sdk}" ]] || die "provider modules not in the module cache"
  rm -rf "${work}"
  mkdir -p "${work}"
  cp -r "${prov}" "${work}/provider"
  cp -r "${sdk}" "${work}/sdk"
  chmod -R u+w "${work}" # the module cache is read-only
  (cd "${work}/provider/cmd/pulumi-resource-kubernetes" &&
    CGO_ENABLED=0 VERSION="${K8S_PROVIDER_VERSION}" go run ./generate.go)
  go_build "${work}/provider" "${out}" ./cmd/pulumi-resource-kubernetes \
    -ldflags="-s -w -X github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version.Version=${K8S_PROVIDER_VERSION}"
  rm -rf "${work}" # sources are in the module cache; keep only the binary
}

# build_tool NAME: build one tool into its cache directory (atomic rename).
build_tool() {
  local name="$1" out tmp
  out="$(tool_bin "${name}")"
  mkdir -p "$(dirname "${out}")"
  tmp="${out}.partial"
  case "${name}" in
    etcd)
      go_build "${TESTBED_SRC}/tools/etcd" "${tmp}" go.etcd.io/etcd/server/v3 -ldflags="-s -w" ;;
    kube-apiserver | kube-controller-manager | kube-scheduler)
      go_build "${TESTBED_SRC}/tools/kubernetes" "${tmp}" "k8s.io/kubernetes/cmd/${name}" \
        -ldflags="-s -w $(kube_ldflags)" ;;
    kwok)
      go_build "${TESTBED_SRC}/tools/kwok" "${tmp}" sigs.k8s.io/kwok/cmd/kwok \
        -ldflags="-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=${KWOK_VERSION}"
      kwok_stages_dir >/dev/null ;;
    pulumi)
      go_build "${TESTBED_SRC}/tools/pulumi" "${tmp}" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi \
        -tags osusergo,grpcnotrace \
        -ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${PULUMI_VERSION}" ;;
    pulumi-resource-kubernetes)
      build_k8s_provider "${tmp}" ;;
    helm)
      go_build "${TESTBED_SRC}/tools/helm" "${tmp}" helm.sh/helm/v3/cmd/helm \
        -ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}" ;;
    pulumi-language-nodejs | pulumi-language-python)
      build_language_host "${name}" "${tmp}" ;;
  esac
  mv "${tmp}" "${out}"
}

# build_language_host NAME OUT: the module proxy reachable here refuses the
# real language host modules (sdk/nodejs/cmd/pulumi-language-nodejs/v3 and
# sdk/python/cmd/pulumi-language-python/v3), so a host is built only when
# tools/<name>/go.mod exists: for nodejs that is a small stand-in of ours.
build_language_host() {
  local name="$1" out="$2" dir="${TESTBED_SRC}/tools/$1" pkg
  [[ -f "${dir}/go.mod" ]] || return 3
  pkg="$(sed -n 's/^module //p' "${dir}/go.mod")"
  go_build "${dir}" "${out}" "${pkg}" -tags osusergo,grpcnotrace \
    -ldflags="-s -w -X main.version=${PULUMI_VERSION#v} -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${PULUMI_VERSION}"
}

# tool_buildable NAME: false for tools whose sources cannot be had here.
tool_buildable() {
  case "$1" in
    pulumi-language-nodejs | pulumi-language-python) [[ -f "${TESTBED_SRC}/tools/$1/go.mod" ]] ;;
    *) return 0 ;;
  esac
}

cmd_build() {
  local total_start name start secs rc built=0 failed=()
  total_start=$(date +%s)
  command -v go >/dev/null || die "go is not on PATH"
  for name in "${@:-${ALL_TOOLS[@]}}"; do
    if [[ -x "$(tool_bin "${name}")" ]]; then
      log "${name} $(tool_version "${name}"): cached at $(tool_bin "${name}")"
      continue
    fi
    if ! tool_buildable "${name}"; then
      log "${name}: not buildable here (see test/testbed/README.md), skipped"
      continue
    fi
    log "${name} $(tool_version "${name}"): building (one tool at a time)..."
    start=$(date +%s)
    # A subshell outside any `if` keeps `set -e` in force inside build_tool.
    set +e
    (set -e; build_tool "${name}")
    rc=$?
    set -e
    if ((rc == 0)); then
      secs=$(($(date +%s) - start))
      built=$((built + 1))
      log "${name}: built in ${secs}s ($(du -h "$(tool_bin "${name}")" | cut -f1))"
    else
      failed+=("${name}")
      log "${name}: BUILD FAILED after $(($(date +%s) - start))s"
    fi
  done
  log "build: ${built} built, total $(($(date +%s) - total_start))s; cache ${BIN_CACHE}"
  ((${#failed[@]} == 0)) || die "failed to build: ${failed[*]}"
}

# ---------------------------------------------------------------------------
# run dir helpers
# ---------------------------------------------------------------------------
PKI="${RUN_DIR}/pki"
PIDS="${RUN_DIR}/pids"
LOGS="${RUN_DIR}/logs"
ARGS="${RUN_DIR}/args"
KUBECONFIG_FILE="${RUN_DIR}/kubeconfig"
ENV_FILE="${RUN_DIR}/env"
PORTS_FILE="${RUN_DIR}/ports"
NODE_NAME=kwok-node-0
# Start order; `down` stops in reverse.
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok vcluster-simulator)

kc() { kubectl --kubeconfig="${KUBECONFIG_FILE}" "$@"; }

pid_of() { [[ -f "${PIDS}/$1.pid" ]] && cat "${PIDS}/$1.pid"; }

running() {
  local pid
  pid="$(pid_of "$1" 2>/dev/null)" || return 1
  [[ -n "${pid}" ]] && kill -0 "${pid}" 2>/dev/null
}

# free_port: ask the kernel for a free loopback port.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# ensure_ports: pick the loopback ports once and keep them, so that etcd's
# stored member URLs and the written kubeconfig stay valid across down/up.
ensure_ports() {
  if [[ ! -f "${PORTS_FILE}" ]]; then
    {
      echo "ETCD_PORT=$(free_port)"
      echo "ETCD_PEER_PORT=$(free_port)"
      echo "APISERVER_PORT=$(free_port)"
      echo "KCM_PORT=$(free_port)"
      echo "SCHEDULER_PORT=$(free_port)"
      echo "KWOK_PORT=$(free_port)"
    } >"${PORTS_FILE}"
  fi
  # shellcheck disable=SC1090
  source "${PORTS_FILE}"
}

# ---------------------------------------------------------------------------
# PKI: one CA signs the API server's serving cert and the admin client cert;
# a separate RSA key pair signs service-account tokens.
# ---------------------------------------------------------------------------
ensure_pki() {
  [[ -f "${PKI}/admin.crt" ]] && return 0
  log "generating PKI in ${PKI}"
  mkdir -p "${PKI}"
  (
    cd "${PKI}"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 3650 \
      -subj "/CN=kubespaces-testbed-ca" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout apiserver.key -out apiserver.csr \
      -subj "/CN=kube-apiserver" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local\nextendedKeyUsage=serverAuth\n' >apiserver.ext
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
      -out apiserver.crt -days 3650 -extfile apiserver.ext 2>/dev/null
    # O=system:masters makes the admin a cluster-admin without any RBAC object.
    openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr \
      -subj "/O=system:masters/CN=kubespaces-testbed-admin" 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' >admin.ext
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
      -out admin.crt -days 3650 -extfile admin.ext 2>/dev/null
    openssl genrsa -out sa.key 2048 2>/dev/null
    openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
    # Static bearer token for the same admin (the stand-in kubeconfigs carry it).
    openssl rand -hex 24 >admin.token
    printf '%s,kubespaces-testbed-admin,kubespaces-testbed-admin,"system:masters"\n' "$(cat admin.token)" >tokens.csv
    rm -f ./*.csr ./*.ext ./*.srl
    chmod 600 ./*.key admin.token tokens.csv
  )
}

write_kubeconfig() {
  local tmp="${KUBECONFIG_FILE}.tmp"
  rm -f "${tmp}"
  KUBECONFIG="${tmp}" kubectl config set-cluster kubespaces-testbed \
    --server="https://127.0.0.1:${APISERVER_PORT}" \
    --certificate-authority="${PKI}/ca.crt" --embed-certs=true >/dev/null
  KUBECONFIG="${tmp}" kubectl config set-credentials kubespaces-testbed-admin \
    --client-certificate="${PKI}/admin.crt" --client-key="${PKI}/admin.key" --embed-certs=true >/dev/null
  KUBECONFIG="${tmp}" kubectl config set-context kubespaces-testbed \
    --cluster=kubespaces-testbed --user=kubespaces-testbed-admin >/dev/null
  KUBECONFIG="${tmp}" kubectl config use-context kubespaces-testbed >/dev/null
  chmod 600 "${tmp}"
  mv "${tmp}" "${KUBECONFIG_FILE}"
}

# ---------------------------------------------------------------------------
# process management
# ---------------------------------------------------------------------------

# component_args NAME: print the command line of a component, one word a line.
component_args() {
  case "$1" in
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
        --kubeconfig="${KUBECONFIG_FILE}" \
        --authentication-kubeconfig="${KUBECONFIG_FILE}" \
        --authorization-kubeconfig="${KUBECONFIG_FILE}" \
        --authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics \
        --bind-address=127.0.0.1 --secure-port="${KCM_PORT}" \
        --cert-dir="${RUN_DIR}/kcm-certs" \
        --service-account-private-key-file="${PKI}/sa.key" \
        --root-ca-file="${PKI}/ca.crt" \
        --leader-elect=false --kube-api-qps=200 --kube-api-burst=400 \
        --v=1
      ;;
    kube-scheduler)
      printf '%s\n' "$(tool_bin kube-scheduler)" \
        --kubeconfig="${KUBECONFIG_FILE}" \
        --authentication-kubeconfig="${KUBECONFIG_FILE}" \
        --authorization-kubeconfig="${KUBECONFIG_FILE}" \
        --authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics \
        --bind-address=127.0.0.1 --secure-port="${SCHEDULER_PORT}" \
        --cert-dir="${RUN_DIR}/scheduler-certs" \
        --leader-elect=false --kube-api-qps=200 --kube-api-burst=400 \
        --v=1
      ;;
    kwok)
      printf '%s\n' "$(tool_bin kwok)" \
        --kubeconfig="${KUBECONFIG_FILE}" --config="${RUN_DIR}/kwok.yaml" \
        --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
        --node-lease-duration-seconds=40 \
        --server-address="127.0.0.1:${KWOK_PORT}" \
        --node-ip=127.0.0.1 --cidr=10.244.0.0/16
      ;;
    vcluster-simulator)
      printf '%s\n' "${REPO_ROOT}/node_modules/.bin/tsx" "${TESTBED_SRC}/vcluster-simulator.ts"
      ;;
  esac
}

# start_component NAME: start detached (own session, so it outlives the shell
# that ran `up`), record its pid and its exact command line (args/NAME) so that
# restart-apiserver reuses the same flags.
start_component() {
  local name="$1"
  if running "${name}"; then
    log "${name} already running (pid $(pid_of "${name}"))"
    return 0
  fi
  mkdir -p "${PIDS}" "${LOGS}" "${ARGS}"
  [[ -s "${ARGS}/${name}" ]] || component_args "${name}" >"${ARGS}/${name}"
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

stop_component() {
  local name="$1" pid i
  pid="$(pid_of "${name}" 2>/dev/null)" || return 0
  if [[ -n "${pid}" ]] && kill -0 "${pid}" 2>/dev/null; then
    log "stopping ${name} (pid ${pid})"
    kill -TERM "${pid}" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
      kill -0 "${pid}" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "${pid}" 2>/dev/null; then
      # setsid made the component its own process group: kill its children too.
      log "${name} ignored TERM for 10s, sending KILL to its process group"
      kill -KILL -- "-${pid}" 2>/dev/null || kill -KILL "${pid}" 2>/dev/null || true
    fi
  fi
  rm -f "${PIDS}/${name}.pid"
}

# wait_for DESCRIPTION SECONDS COMMAND...: poll a health check; on timeout
# show the component log tail.
wait_for() {
  local what="$1" secs="$2" i
  shift 2
  for ((i = 0; i < secs * 4; i++)); do
    if "$@" >/dev/null 2>&1; then
      log "${what}: ok"
      return 0
    fi
    sleep 0.25
  done
  log "${what}: not healthy after ${secs}s"
  return 1
}

etcd_healthy() { curl -fsS "http://127.0.0.1:${ETCD_PORT}/health" | grep -q '"health":"true"'; }
apiserver_ready() {
  curl -fsS --cacert "${PKI}/ca.crt" --cert "${PKI}/admin.crt" --key "${PKI}/admin.key" \
    "https://127.0.0.1:${APISERVER_PORT}/readyz" | grep -qx ok
}
kcm_healthy() { curl -fsSk "https://127.0.0.1:${KCM_PORT}/healthz" | grep -qx ok; }
scheduler_healthy() { curl -fsSk "https://127.0.0.1:${SCHEDULER_PORT}/healthz" | grep -qx ok; }
node_ready() {
  [[ "$(kc get node "${NODE_NAME}" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" == True ]]
}

must_be_healthy() {
  local name="$1" secs="$2" check="$3"
  if ! wait_for "${name}" "${secs}" "${check}"; then
    tail -n 30 "${LOGS}/${name}.log" >&2 || true
    die "${name} did not become healthy (log: ${LOGS}/${name}.log)"
  fi
}

# kwok_config: kwok run out of cluster has no default stages (only kwokctl
# adds them), so write the ones kwokctl uses by default: node-initialize,
# node-heartbeat-with-lease, pod-ready, pod-complete, pod-delete, taken from
# the kwok module of the pinned version and kept beside the cached binary.
KWOK_STAGES=(node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml
  pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml)

kwok_stages_dir() {
  local stages dir f
  stages="$(tool_dir kwok)/stages"
  if [[ ! -f "${stages}/pod/fast/pod-delete.yaml" ]]; then
    dir="$(cd "${TESTBED_SRC}/tools/kwok" && go mod download -json "sigs.k8s.io/kwok@${KWOK_VERSION}" |
      sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
    [[ -d "${dir}" ]] || die "kwok ${KWOK_VERSION} sources not found in the module cache"
    for f in "${KWOK_STAGES[@]}"; do
      mkdir -p "${stages}/$(dirname "${f}")"
      cp "${dir}/kustomize/stage/${f}" "${stages}/${f}"
      chmod u+w "${stages}/${f}"
    done
  fi
  echo "${stages}"
}

kwok_config() {
  local stages f
  [[ -s "${RUN_DIR}/kwok.yaml" ]] && return 0
  stages="$(kwok_stages_dir)"
  {
    echo "# Generated by testbed.sh from sigs.k8s.io/kwok@${KWOK_VERSION} kustomize/stage (kwokctl's defaults)."
    for f in "${KWOK_STAGES[@]}"; do
      echo "---"
      cat "${stages}/${f}"
    done
  } >"${RUN_DIR}/kwok.yaml"
}

# ensure_node: the fake node KWOK manages. Its status carries capacity incl.
# ephemeral-storage (KWOK's default has none, and the vCluster chart requests it).
ensure_node() {
  if ! kc get node "${NODE_NAME}" >/dev/null 2>&1; then
    kc apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Node
metadata:
  name: ${NODE_NAME}
  annotations:
    kwok.x-k8s.io/node: fake
    node.alpha.kubernetes.io/ttl: "0"
  labels:
    kubernetes.io/arch: amd64
    kubernetes.io/hostname: ${NODE_NAME}
    kubernetes.io/os: linux
    kubernetes.io/role: agent
    node-role.kubernetes.io/agent: ""
    type: kwok
YAML
  fi
  kc patch node "${NODE_NAME}" --subresource=status --type=merge -p \
    '{"status":{"capacity":{"cpu":"64","memory":"256Gi","ephemeral-storage":"1Ti","pods":"250"},"allocatable":{"cpu":"64","memory":"256Gi","ephemeral-storage":"1Ti","pods":"250"}}}' >/dev/null
}

crds_established() {
  kc wait --for=condition=Established crd --all --timeout=2s
}

# install_crds: server-side apply, since several CRDs exceed the 256 KiB
# last-applied annotation of client-side apply.
install_crds() {
  local f files=()
  [[ -d "${CRDS_DIR}" ]] || die "CRD folder ${CRDS_DIR} not found (set KUBESPACES_CRDS_DIR)"
  for f in "${CRDS_DIR}"/gateway-api-v1.6.1/standard/*.yaml "${CRDS_DIR}"/cert-manager-v1.21.1/*.yaml; do
    case "$(basename "${f}")" in kustomization.yaml | *vap*) continue ;; esac
    files+=(-f "${f}")
  done
  log "installing $((${#files[@]} / 2)) CRD files from ${CRDS_DIR}"
  kc apply --server-side --force-conflicts --field-manager=kubespaces-testbed "${files[@]}" >/dev/null
  wait_for "CRDs established" 60 crds_established || die "CRDs not established"
  # Gateway API's safe-upgrades ValidatingAdmissionPolicy (+ binding).
  for f in "${CRDS_DIR}"/gateway-api-v1.6.1/standard/*vap*.yaml; do
    [[ -f "${f}" ]] || continue
    if kc apply --server-side --force-conflicts --field-manager=kubespaces-testbed -f "${f}" >/dev/null; then
      log "applied $(basename "${f}")"
    else
      log "WARNING: $(basename "${f}") did not apply; continuing without it"
    fi
  done
}

# install_fixtures: the shared objects a platform team would have created.
install_fixtures() {
  kc apply --server-side --force-conflicts --field-manager=kubespaces-testbed -f - >/dev/null <<'YAML'
apiVersion: v1
kind: Namespace
metadata:
  name: kubespaces-gateway
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: kubespaces-testbed
spec:
  controllerName: kubespaces.io/testbed-stand-in
  description: Test bed GatewayClass; no controller runs for it.
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: shared
  namespace: kubespaces-gateway
spec:
  gatewayClassName: kubespaces-testbed
  allowedListeners:
    namespaces:
      from: All
  listeners:
    - name: tls-passthrough
      protocol: TLS
      port: 443
      tls:
        mode: Passthrough
      allowedRoutes:
        namespaces:
          from: All
        kinds:
          - group: gateway.networking.k8s.io
            kind: TLSRoute
---
apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata:
  name: kubespaces-testbed-selfsigned
spec:
  selfSigned: {}
YAML
  log "fixtures: namespace kubespaces-gateway, GatewayClass kubespaces-testbed, Gateway shared, ClusterIssuer kubespaces-testbed-selfsigned"
}

# Directories that hold the Pulumi engine and plugins for the env file.
plugin_path() {
  local p="" t
  for t in pulumi pulumi-language-nodejs pulumi-language-python pulumi-resource-kubernetes; do
    [[ -x "$(tool_bin "${t}")" ]] && p="${p}$(tool_dir "${t}"):"
  done
  # pulumi-resource-pulumi-nodejs (dynamic providers) ships in @pulumi/pulumi.
  [[ -x "${REPO_ROOT}/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" ]] &&
    p="${p}${REPO_ROOT}/node_modules/@pulumi/pulumi:"
  echo "${p}"
}

write_env() {
  cat >"${ENV_FILE}.tmp" <<ENV
# Generated by test/testbed/testbed.sh: source it to use the test bed.
export KUBESPACES_TESTBED_DIR='${RUN_DIR}'
export KUBECONFIG='${KUBECONFIG_FILE}'
export KUBESPACES_TESTBED_SERVER='https://127.0.0.1:${APISERVER_PORT}'
export PATH='$(plugin_path)'"\${PATH}"
export PULUMI_HOME='${RUN_DIR}/pulumi-home'
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK=true
export PULUMI_CONFIG_PASSPHRASE="\${PULUMI_CONFIG_PASSPHRASE:-testbed}"
ENV
  mv "${ENV_FILE}.tmp" "${ENV_FILE}"
}

# install_pulumi_plugins: register the kubernetes provider with its version
# in PULUMI_HOME, so version lookups work without downloads. (Language hosts
# count as bundled with the CLI: `plugin install` refuses them; they are
# found on PATH, which the env file sets.)
install_pulumi_plugins() {
  local home="${RUN_DIR}/pulumi-home" kind name version bin
  [[ -x "$(tool_bin pulumi)" ]] || return 0
  mkdir -p "${home}" "${LOGS}"
  while read -r kind name version bin; do
    [[ -x "${bin}" ]] || continue
    [[ -d "${home}/plugins/${kind}-${name}-${version}" ]] && continue
    log "installing plugin ${kind} ${name} ${version} into ${home}"
    PULUMI_HOME="${home}" PULUMI_SKIP_UPDATE_CHECK=true \
      "$(tool_bin pulumi)" plugin install "${kind}" "${name}" "${version}" --file "${bin}" \
      >>"${LOGS}/pulumi-plugin-install.log" 2>&1 ||
      log "WARNING: pulumi plugin install ${kind} ${name} failed (see ${LOGS}/pulumi-plugin-install.log)"
  done <<PLUGINS
resource kubernetes ${K8S_PROVIDER_VERSION} $(tool_bin pulumi-resource-kubernetes)
PLUGINS
}

start_simulator() {
  if [[ ! -x "${REPO_ROOT}/node_modules/.bin/tsx" || ! -d "${REPO_ROOT}/node_modules/@kubernetes/client-node" ]]; then
    log "WARNING: vcluster stand-in simulator not started: run npm install (needs tsx and @kubernetes/client-node)"
    return 0
  fi
  start_component vcluster-simulator
  sleep 1
  running vcluster-simulator || {
    tail -n 20 "${LOGS}/vcluster-simulator.log" >&2
    die "vcluster stand-in simulator exited (log: ${LOGS}/vcluster-simulator.log)"
  }
}

all_healthy() {
  running etcd && running kube-apiserver && running kube-controller-manager &&
    running kube-scheduler && running kwok && [[ -f "${PORTS_FILE}" ]] &&
    ensure_ports && apiserver_ready && node_ready && [[ -f "${RUN_DIR}/.fixtures-done" ]]
}

cmd_up() {
  local start
  start=$(date +%s)
  if all_healthy 2>/dev/null; then
    # The simulator may have been added (npm install) since the last up.
    running vcluster-simulator || start_simulator
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

  if [[ ! -f "${RUN_DIR}/.fixtures-done" ]]; then
    install_crds
    install_fixtures
    touch "${RUN_DIR}/.fixtures-done"
  fi
  install_pulumi_plugins
  write_env
  start_simulator
  log "up in $(($(date +%s) - start))s: API https://127.0.0.1:${APISERVER_PORT}; source ${ENV_FILE}"
}

cmd_down() {
  local wipe=false i
  [[ "${1:-}" == "--wipe" ]] && wipe=true
  for ((i = ${#COMPONENTS[@]} - 1; i >= 0; i--)); do
    stop_component "${COMPONENTS[i]}"
  done
  if ${wipe}; then
    log "wiping ${RUN_DIR}"
    rm -rf "${RUN_DIR}"
  fi
}

cmd_status() {
  local name state rc=0
  for name in "${COMPONENTS[@]}"; do
    if running "${name}"; then state="running (pid $(pid_of "${name}"))"; else
      state="stopped"
      [[ "${name}" == vcluster-simulator ]] || rc=1
    fi
    printf '%-26s %s\n' "${name}" "${state}"
  done
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

# ---------------------------------------------------------------------------
main() {
  local cmd="${1:-}"
  shift || true
  case "${cmd}" in
    build) cmd_build "$@" ;;
    up) cmd_up "$@" ;;
    down) cmd_down "$@" ;;
    status) cmd_status "$@" ;;
    restart-apiserver) cmd_restart_apiserver "$@" ;;
    env) cmd_env "$@" ;;
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
