#!/usr/bin/env bash
# npm run generate:sdks: the Python and Go SDKs of the kubespaces package, generated from schema.json
# into sdk/python and sdk/go the way `pulumi package gen-sdk` lays them out, by
# scripts/sdkgen (pulumi/pkg/v3 codegen; the CLI's language plugins are not served here).
#
#   scripts/generateSdks.sh           regenerate sdk/python and sdk/go
#   scripts/generateSdks.sh --check   regenerate into a temporary folder and fail (exit 1), naming
#                                     the files, when sdk/ differs from it; sdk/ is left alone
#
# sdkgen is built into the Go tool cache (scripts/lib/goToolCache.sh) the first time, keyed by the
# Pulumi version it generates for and a hash of its own sources, so that edits rebuild it.
# sdk/go/go.sum comes from `go mod tidy` (the module cache, or the Go module proxy when cold).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)

check=false
case "${1:-}" in
  "") ;;
  --check) check=true ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

command -v go >/dev/null || { echo "generateSdks: go is not on PATH (needed to build sdkgen and tidy sdk/go)" >&2; exit 1; }
# shellcheck source=lib/goToolCache.sh
source scripts/lib/goToolCache.sh

# The pulumi/pkg/v3 release whose codegen sdkgen's go.mod pins (and whose SDK headers it writes).
SDKGEN_PULUMI_VERSION=v3.248.0
sdkgen_version="${SDKGEN_PULUMI_VERSION}-$(gotool_sources_key scripts/sdkgen go.mod go.sum main.go)"
build_sdkgen() {
  gotool_go_build "${root}/scripts/sdkgen" "$1" kubespaces.io/scripts/sdkgen -tags osusergo,grpcnotrace -ldflags="-s -w"
}
gotool_ensure sdkgen "${sdkgen_version}" build_sdkgen
sdkgen=$(gotool_bin sdkgen "${sdkgen_version}")

tmp=$(mktemp -d)
trap 'rm -rf "${tmp}"' EXIT

# generate OUT: both SDKs into OUT/python and OUT/go; go.sum by `go mod tidy`, started from the
# current sdk/go/go.sum (sdkgen empties OUT/go) so that tidy only adds or drops lines.
generate() {
  local out="$1"
  [[ -f sdk/go/go.sum ]] && cp sdk/go/go.sum "${tmp}/go.sum.before"
  "${sdkgen}" -schema schema.json -out "${out}" -languages python,go
  [[ -f "${tmp}/go.sum.before" ]] && cp "${tmp}/go.sum.before" "${out}/go/go.sum"
  (cd "${out}/go" && go mod tidy)
}

if ! ${check}; then
  start=$(date +%s%N)
  generate sdk
  echo "generateSdks: sdk/python and sdk/go written in $((($(date +%s%N) - start) / 1000000)) ms"
  exit 0
fi

generate "${tmp}/sdk"
# Compare file by file; files git ignores (build/, *.egg-info, __pycache__ from a local pip
# install, ...) are not part of the SDK.
stale=()
while IFS= read -r rel; do
  git -C "${root}" check-ignore -q "sdk/${rel}" 2>/dev/null && continue
  if [[ ! -f "${tmp}/sdk/${rel}" ]]; then
    stale+=("sdk/${rel} (not generated any more)")
  elif [[ ! -f "sdk/${rel}" ]]; then
    stale+=("sdk/${rel} (missing)")
  elif ! cmp -s "${tmp}/sdk/${rel}" "sdk/${rel}"; then
    stale+=("sdk/${rel} (differs)")
  fi
done < <({
  [[ -d sdk ]] && (cd sdk && find python go -type f 2>/dev/null)
  (cd "${tmp}/sdk" && find python go -type f)
} | LC_ALL=C sort -u)

if ((${#stale[@]} > 0)); then
  echo "generateSdks --check: sdk/ is not what schema.json generates (run npm run generate:sdks):" >&2
  printf '  %s\n' "${stale[@]}" >&2
  exit 1
fi
echo "generateSdks --check: sdk/python and sdk/go are up to date with schema.json"
