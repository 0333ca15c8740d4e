# shellcheck shell=bash
# Go tools built from pinned modules into a binary cache keyed by name and version, shared by the
# test bed (test/testbed/lib/tools.sh) and scripts/generateSdks.sh (sdkgen). Sourced, not run.
#
# Layout: ${KUBESPACES_CACHE:-~/.cache/kubespaces}/bin/<name>-<version>/<name>. A binary that is
# there is reused (warm start); a build writes <name>.partial.<pid> and renames it, so an interrupted
# build never leaves a binary that looks finished.

GO_TOOL_CACHE_ROOT="${KUBESPACES_CACHE:-${HOME}/.cache/kubespaces}"
GO_TOOL_BIN_CACHE="${GO_TOOL_CACHE_ROOT}/bin"

gotool_log() { printf '[gotool %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# gotool_dir NAME VERSION / gotool_bin NAME VERSION: where a tool's binary lives in the cache.
gotool_dir() { echo "${GO_TOOL_BIN_CACHE}/$1-$2"; }
gotool_bin() { echo "$(gotool_dir "$1" "$2")/$1"; }

# gotool_sources_key DIR FILE...: a short hash of a tool's own sources, for tools of ours whose
# cache key must change when they are edited.
gotool_sources_key() {
  local dir="$1"
  shift
  (cd "${dir}" && cat "$@" | sha256sum | cut -c1-12)
}

# The flags of every go command here. A `go run` of a tool's generator takes the same ones as the
# build after it: compiled packages are cached by flags, so a generator run without -trimpath would
# compile every package it shares with the tool a second time. The binaries are linked stripped
# (-s -w), so the compiler writes no debug info either: that cut a cold build of helm from 91 s
# to 85 s on this project's 2-core machine.
GOTOOL_GOFLAGS="-trimpath -buildvcs=false -gcflags=all=-dwarf=false"

# gotool_go_build DIR OUT PKG [go build args...]: build PKG with the go.mod in DIR. Static (unless
# the caller exports CGO_ENABLED=1), trimmed, stripped: small, relocatable binaries.
gotool_go_build() {
  local dir="$1" out="$2" pkg="$3"
  shift 3
  (cd "${dir}" && CGO_ENABLED="${CGO_ENABLED:-0}" GOFLAGS="${GOTOOL_GOFLAGS}" \
    go build "$@" -o "${out}" "${pkg}")
}

# gotool_go_run DIR FILE [args...]: run a generator FILE with the go.mod of DIR, with the flags of
# the build it prepares (GOTOOL_GOFLAGS says why).
gotool_go_run() {
  local dir="$1"
  shift
  (cd "${dir}" && CGO_ENABLED="${CGO_ENABLED:-0}" GOFLAGS="${GOTOOL_GOFLAGS}" go run "$@")
}

# gotool_module_dir DIR MODULE@VERSION: the module's folder in the module cache, downloaded if
# needed and checked against DIR's go.sum (go mod download verifies what go.sum pins).
gotool_module_dir() {
  local dir="$1" module="$2" found
  found="$(cd "${dir}" && GOFLAGS=-mod=mod go mod download -json "${module}" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [[ -n "${found}" && -d "${found}" ]] || { gotool_log "ERROR: ${module} not in the module cache"; return 1; }
  echo "${found}"
}

# gotool_ensure NAME VERSION BUILD_FN: reuse the cached binary, or run `BUILD_FN OUT` to build it,
# timed. Returns 0 when the binary is there afterwards; prints "<name>: built in <s>s".
gotool_ensure() {
  local name="$1" version="$2" build_fn="$3" out partial start rc
  out="$(gotool_bin "${name}" "${version}")"
  # Per process: two checkouts building the same tool at once never write one file together.
  partial="${out}.partial.$$"
  if [[ -x "${out}" ]]; then
    gotool_log "${name} ${version}: cached at ${out}"
    return 0
  fi
  command -v go >/dev/null || { gotool_log "ERROR: go is not on PATH (needed to build ${name})"; return 1; }
  mkdir -p "$(dirname "${out}")"
  gotool_log "${name} ${version}: building..."
  start=$(date +%s)
  # A subshell outside any `if` keeps `set -e` in force inside the build function.
  set +e
  (set -e; "${build_fn}" "${partial}")
  rc=$?
  set -e
  if ((rc != 0)); then
    gotool_log "${name}: BUILD FAILED after $(($(date +%s) - start))s"
    rm -f "${partial}"
    return 1
  fi
  mv "${partial}" "${out}"
  gotool_log "${name}: built in $(($(date +%s) - start))s ($(du -h "${out}" | cut -f1))"
}
