# shellcheck shell=bash
# Versions of everything the test bed builds or takes from Go modules. Each Go tool has its own
# go.mod under tools/, so that dependency versions never merge across tools.

ETCD_VERSION=v3.6.16
KUBE_VERSION=v1.36.3
KWOK_VERSION=v0.8.0
PULUMI_VERSION=v3.248.0
K8S_PROVIDER_VERSION=v4.25.0
# pulumi-kubernetes has no Go tags: this pseudo-version is release v4.25.0.
K8S_PROVIDER_MODULE_VERSION=v4.0.0-20260115033456-f47bc2d6f199
# The Helm library version pulumi-kubernetes v4.25.0 embeds. The CLI packages the vCluster chart,
# renders cert-manager's CRDs, and is the control plane's /binaries/helm.
HELM_VERSION=v3.18.6
# The vCluster control plane (cmd/vcluster) and its chart (chart/), one Go module. The package pins
# the same chart (provider/model/vclusterChart.ts), as does tools/vcluster/go.mod: a unit test
# (test/unit/vclusterPin.test.ts) fails when the three differ.
VCLUSTER_VERSION=v0.36.1
# kine: the etcd shim vCluster's default embedded database runs (/binaries/kine, with sqlite).
KINE_VERSION=v0.17.5
# The Gateway controller (tools/traefik: built with three patches, see its patches/).
TRAEFIK_VERSION=v3.7.13
# The release of abbot/go-http-auth that Traefik's refused fork (containous/go-http-auth) is based
# on; tools/traefik/go.sum pins it.
TRAEFIK_HTTP_AUTH_BASE=v0.4.0
# CRD sources, required (not built) by tools/crds/go.mod.
GATEWAY_API_VERSION=v1.6.1
CERT_MANAGER_VERSION=v1.21.1
# The local identity provider `kubespaces server` starts by default (tools/dex). Dex's v2 tags lack
# /v2, so the module proxy serves release v2.45.1 only as the pseudo-version tools/dex/go.mod pins.
DEX_VERSION=v2.45.1
DEX_MODULE_VERSION=v0.0.0-20260303133905-11d2eeb52b42

# The S3-compatible store that tenants' snapshots go to (tools/s3: gofakes3's server, ours to start it).
GOFAKES3_VERSION=v1.2.0

# The manifest linter the server's install is scored with (tools/kube-score), in the e2e tier.
KUBE_SCORE_VERSION=v1.20.0

# Flux's source-controller and kustomize-controller (tools/source-controller, tools/kustomize-controller),
# run for the GitOps e2e test by `testbed.sh flux`, and their CRDs (config/crd/bases of the same
# modules). v1.9.6, not the newer v1.10.x the proxy also serves: v1.10.0 and later need Go 1.27
# (their go.mod says `go 1.27.0`), and the test bed builds with the machine's Go (1.26).
FLUX_SOURCE_CONTROLLER_VERSION=v1.9.6
FLUX_KUSTOMIZE_CONTROLLER_VERSION=v1.9.6

# Build order (only the log depends on it): independent tools.
ALL_TOOLS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok
  pulumi pulumi-resource-kubernetes helm pulumi-language-nodejs pulumi-language-python
  kine vcluster traefik cert-manager-controller dex s3-store kube-score source-controller kustomize-controller)

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
    vcluster) echo "${VCLUSTER_VERSION}" ;;
    kine) echo "${KINE_VERSION}" ;;
    # Keyed by its patches too: editing one rebuilds it.
    traefik) echo "${TRAEFIK_VERSION}-$(tool_sources_key traefik go.mod go.sum 'patches/*/*')" ;;
    # Our own entry point over cert-manager's public controller packages (tools/cert-manager).
    cert-manager-controller) echo "${CERT_MANAGER_VERSION}-$(tool_sources_key cert-manager go.mod go.sum main.go)" ;;
    dex) echo "${DEX_VERSION}" ;;
    # Our own entry point over gofakes3 (tools/s3).
    s3-store) echo "${GOFAKES3_VERSION}-$(tool_sources_key s3 go.mod go.sum main.go)" ;;
    kube-score) echo "${KUBE_SCORE_VERSION}" ;;
    source-controller) echo "${FLUX_SOURCE_CONTROLLER_VERSION}" ;;
    kustomize-controller) echo "${FLUX_KUSTOMIZE_CONTROLLER_VERSION}" ;;
    *) die "unknown tool $1" ;;
  esac
}

# tool_sources_key TOOL PATTERN...: a short hash of the files under tools/TOOL that the glob
# PATTERNs (quoted by the caller) match there (gotool_sources_key).
tool_sources_key() {
  local tool="$1"
  shift
  # shellcheck disable=SC2048,SC2086 # the patterns are globbed here, inside the tool's folder
  (cd "${TESTBED_SRC}/tools/${tool}" && gotool_sources_key . $*)
}

tool_dir() { gotool_dir "$1" "$(tool_version "$1")"; }
tool_bin() { gotool_bin "$1" "$(tool_version "$1")"; }
