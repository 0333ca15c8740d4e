# shellcheck shell=bash
# Flux on the test bed, for the GitOps e2e test: its source-controller and kustomize-controller
# (built from their modules, tools/source-controller and tools/kustomize-controller), their CRDs
# and RBAC taken from the same modules, and a Git server for them to read: Debian's lighttpd
# running Git's own `git http-backend` as a CGI (the setup git-http-backend(1) documents), over
# HTTP on a loopback port. Started on demand (`testbed.sh flux`), not by `up`, since only the
# GitOps test needs it, and stopped by `down`.
#
# The controllers run on the machine, as the ServiceAccounts of a real install in flux-system with
# the RBAC their modules ship (test/fixtures/testbed/flux binds them), and the source-controller
# serves its artifacts on a loopback port that it advertises, so the kustomize-controller fetches
# them there as it would fetch them from the source-controller's Service.

FLUX_NAMESPACE=flux-system
FLUX_STORAGE="${RUN_DIR}/flux-storage"
GIT_ROOT="${RUN_DIR}/git"
GIT_SERVER_CONF="${RUN_DIR}/git-server.conf"
GIT_SERVER_PACKAGE=lighttpd
GIT_HTTP_BACKEND=/usr/lib/git-core/git-http-backend
FLUX_CACHE="${BIN_CACHE}/flux-v${FLUX_SOURCE_CONTROLLER_VERSION#v}-v${FLUX_KUSTOMIZE_CONTROLLER_VERSION#v}"

# ensure_git_server_installed: Debian's lighttpd, installed with apt-get when missing (root).
# git-http-backend comes with git, which the test bed's checkout already needs.
ensure_git_server_installed() {
  [[ -x "${GIT_HTTP_BACKEND}" ]] || die "git-server: ${GIT_HTTP_BACKEND} is missing: install git"
  command -v lighttpd >/dev/null && return 0
  apt_install git-server "${GIT_SERVER_PACKAGE}"
}

# git_server_config: lighttpd's configuration, as git-http-backend(1) gives it for lighttpd: every
# repository under GIT_ROOT served at /git/, read and (with http.receivepack, set on each) written.
git_server_config() {
  cat <<EOF
server.document-root = "${GIT_ROOT}"
server.bind = "127.0.0.1"
server.port = ${GIT_PORT}
server.modules = ("mod_alias", "mod_cgi", "mod_setenv")
alias.url = ("/git" => "${GIT_HTTP_BACKEND}")
\$HTTP["url"] =~ "^/git" {
  cgi.assign = ("" => "")
  setenv.set-environment = ("GIT_PROJECT_ROOT" => "${GIT_ROOT}", "GIT_HTTP_EXPORT_ALL" => "")
}
EOF
}

# git_server_args: its command line, one word a line (in the foreground, so the pid is its own).
git_server_args() { printf '%s\n' "$(command -v lighttpd)" -D -f "${GIT_SERVER_CONF}"; }

# git_server_healthy: it answers HTTP (its root lists nothing: any answer will do).
git_server_healthy() { running git-server && curl -sS -o /dev/null "http://127.0.0.1:${GIT_PORT}/"; }

# ensure_git_repository NAME: a bare repository NAME.git under GIT_ROOT, pushable over HTTP.
ensure_git_repository() {
  [[ "$1" =~ ^[a-z0-9][-a-z0-9]*$ ]] || die "git-server: a repository's name is lower-case letters, digits and '-', not $1"
  local dir="${GIT_ROOT}/$1.git"
  [[ -d "${dir}" ]] && return 0
  git init -q --bare --initial-branch=main "${dir}"
  git -C "${dir}" config http.receivepack true
}

# ensure_flux_upstream: the CRDs of both controllers (config/crd/bases, as their releases ship
# them) and each controller's ClusterRole (config/rbac/role.yaml, named as its kustomization's
# namePrefix names it), from the modules their tool folders pin.
ensure_flux_upstream() {
  [[ -d "${FLUX_CACHE}" ]] && return 0
  local work name dir
  work="$(mktemp -d)"
  mkdir -p "${work}/out/crds" "${work}/out/rbac"
  for name in source kustomize; do
    dir="$(module_dir "${name}-controller" "github.com/fluxcd/${name}-controller@$(tool_version "${name}-controller")")"
    cp "${dir}"/config/crd/bases/*.yaml "${work}/out/crds/"
    sed "s/^  name: manager-role$/  name: ${name}-manager-role/" "${dir}/config/rbac/role.yaml" >"${work}/out/rbac/${name}-controller.yaml"
    grep -q "name: ${name}-manager-role" "${work}/out/rbac/${name}-controller.yaml" ||
      die "no ClusterRole manager-role in ${name}-controller's config/rbac/role.yaml"
  done
  chmod -R u+w "${work}/out"
  mkdir -p "$(dirname "${FLUX_CACHE}")"
  mv "${work}/out" "${FLUX_CACHE}" # all or nothing
  rm -rf "${work}"
  log "Flux: CRDs and ClusterRoles of source-controller and kustomize-controller in ${FLUX_CACHE}"
}

# flux_controller_args NAME: a controller's command line, one word a line. Its kubeconfig is its
# ServiceAccount's (controller-runtime reads KUBECONFIG), its metrics off, its health on a loopback
# port; no leader election (one of each), every namespace watched, as a real install.
flux_controller_args() {
  local name="$1" health
  case "${name}" in
    source-controller) health="${FLUX_SOURCE_HEALTH_PORT}" ;;
    kustomize-controller) health="${FLUX_KUSTOMIZE_HEALTH_PORT}" ;;
  esac
  printf '%s\n' env "KUBECONFIG=$(service_account_kubeconfig "${name}")" "RUNTIME_NAMESPACE=${FLUX_NAMESPACE}" \
    "$(tool_bin "${name}")" --watch-all-namespaces --log-level=info --log-encoding=json \
    --metrics-addr=0 --health-addr="127.0.0.1:${health}"
  [[ "${name}" == source-controller ]] &&
    printf '%s\n' --storage-path="${FLUX_STORAGE}" --storage-addr="127.0.0.1:${FLUX_STORAGE_PORT}" \
      --storage-adv-addr="127.0.0.1:${FLUX_STORAGE_PORT}"
  return 0
}

source_controller_healthy() { running source-controller && curl -fsS -o /dev/null "http://127.0.0.1:${FLUX_SOURCE_HEALTH_PORT}/readyz"; }
kustomize_controller_healthy() { running kustomize-controller && curl -fsS -o /dev/null "http://127.0.0.1:${FLUX_KUSTOMIZE_HEALTH_PORT}/readyz"; }

# cmd_flux [REPOSITORY...]: build the controllers if needed, install Flux's CRDs and RBAC, start
# the Git server and the controllers when they do not run, make each named bare repository, and
# print the Git server's base URL (a repository NAME is at <URL>/NAME.git).
cmd_flux() {
  local name
  [[ -f "${PORTS_FILE}" ]] || die "flux: the test bed was never started: run testbed.sh up"
  ensure_ports
  apiserver_ready 2>/dev/null || die "flux: the test bed's API server does not answer: run testbed.sh up"
  cmd_build source-controller kustomize-controller
  ensure_git_server_installed
  ensure_flux_upstream
  server_side_apply "${FLUX_CACHE}"/crds/*.yaml
  # Flux's own CRDs only: a wait on all of them would wait on others' too.
  kc wait --for=condition=Established -f "${FLUX_CACHE}/crds/" --timeout=60s >/dev/null || die "Flux CRDs not established"
  server_side_apply "${FIXTURES_DIR}/flux/flux-system.yaml"
  server_side_apply "${FLUX_CACHE}"/rbac/*.yaml "${FIXTURES_DIR}/flux/controllers.yaml"
  mkdir -p "${GIT_ROOT}" "${FLUX_STORAGE}"
  for name in "$@"; do ensure_git_repository "${name}"; done
  if ! running git-server; then
    git_server_config >"${GIT_SERVER_CONF}"
    start_component git-server
    must_be_healthy git-server 30 git_server_healthy
  fi
  for name in source-controller kustomize-controller; do
    running "${name}" && continue
    write_service_account_kubeconfig "${name}" "${FLUX_NAMESPACE}" "${name}"
    start_component "${name}"
  done
  must_be_healthy source-controller 60 source_controller_healthy
  must_be_healthy kustomize-controller 60 kustomize_controller_healthy
  echo "http://127.0.0.1:${GIT_PORT}/git"
}
