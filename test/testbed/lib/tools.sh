# shellcheck shell=bash
# Building the test bed's tools from their pinned Go modules into the binary cache
# (scripts/lib/goToolCache.sh), two at a time (cmd_build says why), each build timed in the log.

# build_work_dir NAME: a fresh folder for assembling one build's sources, in the shared cache but
# never shared: two test beds building the same tool at once each get their own.
build_work_dir() {
  mkdir -p "${CACHE_ROOT}/src"
  mktemp -d "${CACHE_ROOT}/src/$1.XXXXXX"
}

kube_ldflags() {
  local v="${KUBE_VERSION#v}" major minor x
  major="${v%%.*}"
  minor="${v#*.}"
  minor="${minor%%.*}"
  # Both packages carry the version (as kubernetes' hack/lib/version.sh sets them).
  for x in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    printf -- '-X %s.gitVersion=%s -X %s.gitMajor=%s -X %s.gitMinor=%s -X %s.gitTreeState=clean -X %s.buildDate=1970-01-01T00:00:00Z ' \
      "$x" "${KUBE_VERSION}" "$x" "${major}" "$x" "${minor}" "$x" "$x"
  done
}

# build_k8s_provider OUT: pulumi-resource-kubernetes embeds schema-embed.json and
# terraform-mapping-embed.json, which are gitignored upstream and so not in the module zip. Copy
# the module out of the module cache, generate them, then build with the provider's own go.mod
# (its `replace ../sdk` is met by copying the sdk module beside it).
build_k8s_provider() {
  local out="$1" pins="${TESTBED_SRC}/tools/pulumi-resource-kubernetes"
  local work prov sdk
  prov="$(gotool_module_dir "${pins}" "github.com/pulumi/pulumi-kubernetes/provider/v4@${K8S_PROVIDER_MODULE_VERSION}")"
  sdk="$(gotool_module_dir "${pins}" "github.com/pulumi/pulumi-kubernetes/sdk/v4@${K8S_PROVIDER_VERSION}")"
  work="$(build_work_dir "pulumi-kubernetes-${K8S_PROVIDER_VERSION}")"
  cp -r "${prov}" "${work}/provider"
  cp -r "${sdk}" "${work}/sdk"
  chmod -R u+w "${work}" # the module cache is read-only
  VERSION="${K8S_PROVIDER_VERSION}" gotool_go_run "${work}/provider/cmd/pulumi-resource-kubernetes" ./generate.go
  gotool_go_build "${work}/provider" "${out}" ./cmd/pulumi-resource-kubernetes \
    -ldflags="-s -w -X github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version.Version=${K8S_PROVIDER_VERSION}"
  rm -rf "${work}" # sources are in the module cache; keep only the binary
}

# build_language_host NAME OUT: the module proxy reachable here refuses the real language host
# modules, so a host is built only when tools/<name>/go.mod exists: for nodejs that is a small
# stand-in of ours.
build_language_host() {
  local name="$1" out="$2" dir="${TESTBED_SRC}/tools/$1" pkg
  pkg="$(sed -n 's/^module //p' "${dir}/go.mod")"
  gotool_go_build "${dir}" "${out}" "${pkg}" -tags osusergo,grpcnotrace \
    -ldflags="-s -w -X main.version=${PULUMI_VERSION#v} -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${PULUMI_VERSION}"
}

# build_vcluster OUT: the control plane the chart's syncer container runs (`/vcluster start`).
# github.com/loft-sh/api/v4 is not in the checksum database; go.sum still pins every hash.
build_vcluster() {
  GONOSUMDB=github.com/loft-sh gotool_go_build "${TESTBED_SRC}/tools/vcluster" "$1" \
    github.com/loft-sh/vcluster/cmd/vcluster -ldflags="-s -w"
}

# build_kine OUT: with CGO, for kine's sqlite backend (vCluster's default embedded database).
build_kine() {
  CGO_ENABLED=1 gotool_go_build "${TESTBED_SRC}/tools/kine" "$1" github.com/k3s-io/kine \
    -ldflags="-s -w -X github.com/k3s-io/kine/pkg/version.Version=${KINE_VERSION}"
}

# build_traefik OUT: Traefik, from a copy of tools/traefik whose build/ holds the two modules its
# go.mod replaces with patched copies (tools/traefik/patches says why each is patched):
# abbot/go-http-auth at the release Traefik's refused fork is based on, plus patches/go-http-auth;
# lego at the version Traefik requires, its generated DNS provider list replaced by
# patches/lego-dns-providers.
build_traefik() {
  local out="$1" pins="${TESTBED_SRC}/tools/traefik" work auth lego lego_version
  lego_version="$(sed -n 's#^[[:space:]]*github.com/go-acme/lego/v5 \(v[^ ]*\).*#\1#p' "${pins}/go.mod")"
  auth="$(gotool_module_dir "${pins}" "github.com/abbot/go-http-auth@${TRAEFIK_HTTP_AUTH_BASE}")"
  lego="$(gotool_module_dir "${pins}" "github.com/go-acme/lego/v5@${lego_version}")"
  work="$(build_work_dir "traefik-${TRAEFIK_VERSION}")"
  cp -r "${pins}/." "${work}/"
  mkdir -p "${work}/build"
  cp -r "${auth}" "${work}/build/go-http-auth"
  cp -r "${lego}" "${work}/build/lego"
  chmod -R u+w "${work}/build" # the module cache is read-only
  cp "${pins}"/patches/go-http-auth/* "${work}/build/go-http-auth/"
  cp "${pins}/patches/lego-dns-providers/zz_gen_dns_providers.go" "${work}/build/lego/providers/dns/"
  gotool_go_build "${work}" "${out}" github.com/traefik/traefik/v3/cmd/traefik \
    -ldflags="-s -w -X github.com/traefik/traefik/v3/pkg/version.Version=${TRAEFIK_VERSION} -X github.com/traefik/traefik/v3/pkg/version.BuildDate=1970-01-01T00:00:00Z"
  rm -rf "${work}" # sources are in the module cache; keep only the binary
}

# build_dex OUT: Dex, the tool tools/dex/go.mod names in its `tool` directive (`go install
# …@version` refuses Dex's module: its go.mod has a replace line). With cgo, for its sqlite storage:
# the local default keeps its signing keys and refresh tokens in a file, so a login outlives a
# restart. The cache is keyed by DEX_VERSION, so go.mod must pin the pseudo-version that release is
# served as.
build_dex() {
  grep -qE "github.com/dexidp/dex ${DEX_MODULE_VERSION}( |$)" "${TESTBED_SRC}/tools/dex/go.mod" ||
    die "tools/dex/go.mod does not pin github.com/dexidp/dex ${DEX_MODULE_VERSION} (lib/versions.sh)"
  CGO_ENABLED=1 gotool_go_build "${TESTBED_SRC}/tools/dex" "$1" github.com/dexidp/dex/cmd/dex \
    -ldflags="-s -w -X main.version=${DEX_VERSION}"
}

# build_tool NAME OUT: build one tool to OUT.
build_tool() {
  local name="$1" out="$2"
  case "${name}" in
    etcd)
      gotool_go_build "${TESTBED_SRC}/tools/etcd" "${out}" go.etcd.io/etcd/server/v3 -ldflags="-s -w" ;;
    kube-apiserver | kube-controller-manager | kube-scheduler)
      gotool_go_build "${TESTBED_SRC}/tools/kubernetes" "${out}" "k8s.io/kubernetes/cmd/${name}" \
        -ldflags="-s -w $(kube_ldflags)" ;;
    kwok)
      gotool_go_build "${TESTBED_SRC}/tools/kwok" "${out}" sigs.k8s.io/kwok/cmd/kwok \
        -ldflags="-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=${KWOK_VERSION}" ;;
    pulumi)
      gotool_go_build "${TESTBED_SRC}/tools/pulumi" "${out}" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi \
        -tags osusergo,grpcnotrace \
        -ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${PULUMI_VERSION}" ;;
    pulumi-resource-kubernetes) build_k8s_provider "${out}" ;;
    helm)
      gotool_go_build "${TESTBED_SRC}/tools/helm" "${out}" helm.sh/helm/v3/cmd/helm \
        -ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}" ;;
    pulumi-language-nodejs | pulumi-language-python) build_language_host "${name}" "${out}" ;;
    vcluster) build_vcluster "${out}" ;;
    kine) build_kine "${out}" ;;
    traefik) build_traefik "${out}" ;;
    dex) build_dex "${out}" ;;
    source-controller | kustomize-controller)
      gotool_go_build "${TESTBED_SRC}/tools/${name}" "${out}" "github.com/fluxcd/${name}" -ldflags="-s -w" ;;
    s3-store) gotool_go_build "${TESTBED_SRC}/tools/s3" "${out}" kubespaces.io/testbed/tools/s3 -ldflags="-s -w" ;;
    kube-score)
      gotool_go_build "${TESTBED_SRC}/tools/kube-score" "${out}" github.com/zegl/kube-score/cmd/kube-score \
        -ldflags="-s -w -X main.version=${KUBE_SCORE_VERSION}" ;;
    cert-manager-controller)
      gotool_go_build "${TESTBED_SRC}/tools/cert-manager" "${out}" kubespaces.io/testbed/tools/cert-manager \
        -ldflags="-s -w -X github.com/cert-manager/cert-manager/pkg/util.AppVersion=${CERT_MANAGER_VERSION}" ;;
  esac
}

# tool_buildable NAME: false for tools whose sources cannot be had here.
tool_buildable() {
  case "$1" in
    pulumi-language-nodejs | pulumi-language-python) [[ -f "${TESTBED_SRC}/tools/$1/go.mod" ]] ;;
    *) return 0 ;;
  esac
}

# tool_lane NAME LANES: which of LANES build lanes builds NAME. Two lanes run at once: a Go build
# leaves a core idle while it downloads modules, links, or runs the Kubernetes provider's schema
# generator, and the other lane's compiling fills it. The lanes are about equal in build time
# (test/testbed/README.md has each tool's), and tools that share packages stay in one lane, in
# order, so the second reuses the first's compiled packages from Go's build cache instead of
# compiling them at the same time: the three Kubernetes binaries, and Pulumi's engine and tools.
# Flux's two controllers (about 10 minutes together, cold) go one to each lane: both in lane 1
# made it the longer by about 10 minutes, which a cold build waits for.
tool_lane() {
  (($2 > 1)) || { echo 0; return; }
  case "$1" in
    pulumi | pulumi-resource-kubernetes | pulumi-language-* | cert-manager-controller | dex | source-controller) echo 1 ;;
    *) echo 0 ;;
  esac
}

# build_lane LANE LANES FAILED_FILE TOOL...: build, one after another, the missing TOOLs of lane
# LANE; the name of each that fails is appended to FAILED_FILE.
build_lane() {
  local lane="$1" lanes="$2" failed_file="$3" name
  shift 3
  for name in "$@"; do
    [[ "$(tool_lane "${name}" "${lanes}")" == "${lane}" ]] || continue
    if ! tool_buildable "${name}"; then
      log "${name}: not buildable here (see test/testbed/README.md), skipped"
      continue
    fi
    build_one() { build_tool "${name}" "$1"; }
    gotool_ensure "${name}" "$(tool_version "${name}")" build_one || echo "${name}" >>"${failed_file}"
  done
}

# cmd_build [TOOL...]: build the missing tools (KUBESPACES_BUILD_LANES at once, default 2; 1 builds
# them one at a time), then prepare what the test bed takes from Go modules without building it
# (CRDs, the vCluster chart, the vendored schema check).
cmd_build() {
  local total_start name lane lanes="${KUBESPACES_BUILD_LANES:-2}" built=0 failed_file pids=() failed=()
  total_start=$(date +%s)
  command -v go >/dev/null || die "go is not on PATH"
  [[ "${lanes}" =~ ^[12]$ ]] || die "KUBESPACES_BUILD_LANES must be 1 or 2, not ${lanes}"
  for name in "${@:-${ALL_TOOLS[@]}}"; do
    tool_version "${name}" >/dev/null # an unknown name fails here, before anything is built
    tool_buildable "${name}" && [[ ! -x "$(tool_bin "${name}")" ]] && built=$((built + 1))
  done
  failed_file="$(mktemp)"
  for ((lane = 0; lane < lanes; lane++)); do
    build_lane "${lane}" "${lanes}" "${failed_file}" "${@:-${ALL_TOOLS[@]}}" &
    pids+=("$!")
  done
  for lane in "${pids[@]}"; do wait "${lane}" || true; done
  mapfile -t failed <"${failed_file}"
  rm -f "${failed_file}"
  ((${#failed[@]} == 0)) || die "failed to build: ${failed[*]}"
  (($# > 0)) || prepare_upstream
  log "build: ${built} built in ${lanes} lane(s), total $(($(date +%s) - total_start))s; cache ${BIN_CACHE}"
}
