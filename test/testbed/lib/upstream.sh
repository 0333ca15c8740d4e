# shellcheck shell=bash
# What the test bed takes from pinned Go modules without building it: the CRDs it serves, the real
# vCluster chart, KWOK's default stages, the RBAC of the two controllers (Traefik's documented
# ClusterRole, cert-manager's chart), and the check of the vendored vCluster values schema.
# Each module is downloaded through its tool folder's go.mod, so go.sum pins (and `go mod
# download` verifies) its hash. Products go to the cache beside the binaries.

CRDS_CACHE="${BIN_CACHE}/crds-gateway-api-${GATEWAY_API_VERSION}-cert-manager-${CERT_MANAGER_VERSION}"
VCLUSTER_CHART="${BIN_CACHE}/vcluster-chart-${VCLUSTER_VERSION}/vcluster-${VCLUSTER_VERSION#v}.tgz"
KWOK_STAGES_DIR="${BIN_CACHE}/kwok-${KWOK_VERSION}/stages"
TRAEFIK_RBAC="${BIN_CACHE}/traefik-rbac-${TRAEFIK_VERSION}/gateway-role.yaml"
CERT_MANAGER_RBAC="${BIN_CACHE}/cert-manager-rbac-${CERT_MANAGER_VERSION}/controller.yaml"
VENDORED_SCHEMA="${REPO_ROOT}/third_party/vcluster-chart-${VCLUSTER_VERSION}/values.schema.json"

module_dir() { gotool_module_dir "${TESTBED_SRC}/tools/$1" "$2"; }

# prepare_upstream: everything below, each skipped when its product is cached.
prepare_upstream() {
  check_vendored_schema
  ensure_crds
  ensure_traefik_rbac
  ensure_cert_manager_rbac
  ensure_vcluster_chart
  ensure_kwok_stages >/dev/null
}

# check_vendored_schema: third_party/ holds the chart's values.schema.json for the unit tests,
# which run offline; it must be the pinned module's file byte for byte.
check_vendored_schema() {
  local dir
  dir="$(module_dir vcluster "github.com/loft-sh/vcluster@${VCLUSTER_VERSION}")"
  cmp -s "${dir}/chart/values.schema.json" "${VENDORED_SCHEMA}" ||
    die "${VENDORED_SCHEMA#"${REPO_ROOT}"/} differs from chart/values.schema.json of github.com/loft-sh/vcluster@${VCLUSTER_VERSION}: copy it again (third_party/README.md)"
  log "vendored vCluster values.schema.json matches github.com/loft-sh/vcluster@${VCLUSTER_VERSION}"
}

# ensure_crds: Gateway API's standard channel as the module ships it (config/crd/standard, the
# files its release concatenates into standard-install.yaml), and cert-manager's CRDs as its
# released chart renders them: the module's deploy/charts/cert-manager templates each CRD under
# `crds.enabled`, with the chart's labels. Its Chart.yaml version is a placeholder that the
# release tool stamps, so the chart is copied, stamped, and `helm template`d with
# crds.enabled=true, keeping only the CRD templates. (The module's deploy/crds holds the same
# schemas unlabelled, marked "for reference, development and testing" only.)
ensure_crds() {
  [[ -d "${CRDS_CACHE}" ]] && return 0
  local gw work show=() f
  gw="$(module_dir crds "sigs.k8s.io/gateway-api@${GATEWAY_API_VERSION}")"
  work="$(mktemp -d)"
  mkdir -p "${work}/out/gateway-api" "${work}/out/cert-manager"
  cp "${gw}"/config/crd/standard/*.yaml "${work}/out/gateway-api/"
  stamped_cert_manager_chart "${work}"
  for f in "${work}"/cert-manager/templates/crd-*.yaml; do show+=(--show-only "templates/$(basename "${f}")"); done
  render_cert_manager_chart "${work}" --set crds.enabled=true "${show[@]}" >"${work}/out/cert-manager/crds.yaml"
  mkdir -p "$(dirname "${CRDS_CACHE}")"
  mv "${work}/out" "${CRDS_CACHE}" # all or nothing
  rm -rf "${work}"
  log "CRDs: Gateway API ${GATEWAY_API_VERSION} standard, cert-manager ${CERT_MANAGER_VERSION} (rendered from its chart) in ${CRDS_CACHE}"
}

# stamped_cert_manager_chart DIR: cert-manager's chart from its module, copied to DIR/cert-manager
# and stamped with its release version.
stamped_cert_manager_chart() {
  local cm
  cm="$(module_dir crds "github.com/cert-manager/cert-manager@${CERT_MANAGER_VERSION}")"
  cp -r "${cm}/deploy/charts/cert-manager" "$1/"
  chmod -R u+w "$1/cert-manager"
  stamp_chart "$1/cert-manager/Chart.yaml" "${CERT_MANAGER_VERSION}" "${CERT_MANAGER_VERSION}"
}

# render_cert_manager_chart DIR HELM_ARGS...: `helm template` of the stamped chart in DIR, released
# as the chart's docs install it (release cert-manager, namespace cert-manager).
render_cert_manager_chart() {
  local dir="$1"
  shift
  # --kube-version: the chart's kubeVersion constraint is checked against it (helm's default is 1.20).
  "$(tool_bin helm)" template cert-manager "${dir}/cert-manager" --namespace cert-manager \
    --kube-version "${KUBE_VERSION}" "$@"
}

# ensure_cert_manager_rbac: the controller's ServiceAccount and RBAC exactly as its chart renders
# them with default values (templates/serviceaccount.yaml, templates/rbac.yaml: its ClusterRoles
# and bindings, and the leader-election Role it would use in kube-system).
ensure_cert_manager_rbac() {
  [[ -f "${CERT_MANAGER_RBAC}" ]] && return 0
  local work
  work="$(mktemp -d)"
  stamped_cert_manager_chart "${work}"
  render_cert_manager_chart "${work}" --show-only templates/serviceaccount.yaml --show-only templates/rbac.yaml \
    >"${work}/controller.yaml"
  mkdir -p "$(dirname "${CERT_MANAGER_RBAC}")"
  mv "${work}/controller.yaml" "${CERT_MANAGER_RBAC}"
  rm -rf "${work}"
  log "cert-manager ${CERT_MANAGER_VERSION} controller RBAC rendered from its chart: ${CERT_MANAGER_RBAC}"
}

# ensure_traefik_rbac: the ClusterRole Traefik documents for its Gateway provider, taken from the
# pinned module (docs/content/reference/dynamic-configuration/kubernetes-gateway-rbac.yml, its first
# document; the binding that follows it names a ServiceAccount of the docs' own, so
# test/fixtures/testbed/controllers binds the test bed's).
ensure_traefik_rbac() {
  [[ -f "${TRAEFIK_RBAC}" ]] && return 0
  local dir tmp
  dir="$(module_dir traefik "github.com/traefik/traefik/v3@${TRAEFIK_VERSION}")"
  mkdir -p "$(dirname "${TRAEFIK_RBAC}")"
  tmp="${TRAEFIK_RBAC}.$$"
  awk '/^---/ { exit } { print }' "${dir}/docs/content/reference/dynamic-configuration/kubernetes-gateway-rbac.yml" >"${tmp}"
  grep -q '^kind: ClusterRole$' "${tmp}" || die "no ClusterRole first in Traefik's kubernetes-gateway-rbac.yml"
  mv "${tmp}" "${TRAEFIK_RBAC}"
  log "Traefik ${TRAEFIK_VERSION} Gateway provider ClusterRole (from its docs): ${TRAEFIK_RBAC}"
}

# stamp_chart CHART_YAML VERSION APP_VERSION: set the version fields a release pipeline sets.
stamp_chart() {
  sed -i -e "s/^version:.*/version: $2/" -e "/^appVersion:/d" "$1"
  echo "appVersion: $3" >>"$1"
}

# ensure_vcluster_chart: the real chart from the module's chart/, packaged the way loft-sh's
# release does it (hack/embed-chart.sh: `helm package --version <release> chart`), stamped
# with VCLUSTER_VERSION (its Chart.yaml says 0.0.1 until then).
ensure_vcluster_chart() {
  [[ -f "${VCLUSTER_CHART}" ]] && return 0
  local dir work
  dir="$(module_dir vcluster "github.com/loft-sh/vcluster@${VCLUSTER_VERSION}")"
  work="$(mktemp -d)"
  mkdir -p "$(dirname "${VCLUSTER_CHART}")"
  "$(tool_bin helm)" package --version "${VCLUSTER_VERSION#v}" --app-version "${VCLUSTER_VERSION#v}" \
    "${dir}/chart" -d "${work}" >/dev/null
  mv "${work}/vcluster-${VCLUSTER_VERSION#v}.tgz" "${VCLUSTER_CHART}"
  rm -rf "${work}"
  log "vCluster chart ${VCLUSTER_VERSION#v} packaged from github.com/loft-sh/vcluster@${VCLUSTER_VERSION}/chart: ${VCLUSTER_CHART}"
}

# ensure_kwok_stages: kwok run out of cluster has no default stages (only kwokctl adds them), so
# take the ones kwokctl uses by default from the kwok module of the pinned version.
KWOK_STAGES=(node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml
  pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml)

ensure_kwok_stages() {
  local dir f
  if [[ ! -f "${KWOK_STAGES_DIR}/pod/fast/pod-delete.yaml" ]]; then
    dir="$(module_dir kwok "sigs.k8s.io/kwok@${KWOK_VERSION}")"
    for f in "${KWOK_STAGES[@]}"; do
      mkdir -p "${KWOK_STAGES_DIR}/$(dirname "${f}")"
      cp "${dir}/kustomize/stage/${f}" "${KWOK_STAGES_DIR}/${f}"
      chmod u+w "${KWOK_STAGES_DIR}/${f}"
    done
  fi
  echo "${KWOK_STAGES_DIR}"
}
