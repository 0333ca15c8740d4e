#!/usr/bin/env bash
# Python environment of the Python SDK checks and end-to-end runs, outside the repo:
# a venv with pulumi==3.248.0 from PyPI and pulumi_kubespaces installed from sdk/python.
#
#   test/e2e/python/venv.sh     ensure it, print the venv's python on stdout (progress on stderr)
#
# The venv is ${KUBESPACES_PYTHON_VENV:-${KUBESPACES_CACHE:-~/.cache/kubespaces}/python-venv-pulumi-<v>-<checkout>},
# one per checkout (a hash of its path): two worktrees with different sdk/python would otherwise
# reinstall pulumi_kubespaces under each other's running tests.
# pulumi is installed once; the SDK is (re)installed only when sdk/python changed (content hash
# kept in the venv), from a copy, so that setuptools' build/ and *.egg-info never land in sdk/.
set -euo pipefail

PULUMI_PY_VERSION=3.248.0
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
SDK_DIR="${REPO_ROOT}/sdk/python"
CACHE_ROOT="${KUBESPACES_CACHE:-${HOME}/.cache/kubespaces}"
CHECKOUT="$(printf '%s' "${REPO_ROOT}" | sha256sum | cut -c1-8)"
VENV="${KUBESPACES_PYTHON_VENV:-${CACHE_ROOT}/python-venv-pulumi-${PULUMI_PY_VERSION}-${CHECKOUT}}"

log() { printf '[python-venv] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

py=$(command -v python3) || die "python3 is not on PATH (Python 3.9 or newer is needed)"
"${py}" -c 'import sys; sys.exit(sys.version_info < (3, 9))' ||
  die "$(${py} --version 2>&1) is too old: the SDK needs Python 3.9 or newer"
[[ -f "${SDK_DIR}/pyproject.toml" ]] || die "${SDK_DIR}/pyproject.toml missing: run npm run generate:sdks"

# One install at a time (the unit and e2e tests may both call this).
mkdir -p "$(dirname "${VENV}")"
exec 9>"${VENV}.lock"
if command -v flock >/dev/null; then flock 9; fi

if [[ ! -x "${VENV}/bin/python" ]]; then
  log "creating ${VENV}"
  "${py}" -m venv "${VENV}" || die "python3 -m venv failed (on Debian: apt-get install python3-venv)"
fi
vpy="${VENV}/bin/python"
pip=("${vpy}" -m pip --disable-pip-version-check --no-input --quiet)

have=$("${vpy}" -c 'import importlib.metadata as m; print(m.version("pulumi"))' 2>/dev/null || true)
if [[ "${have}" != "${PULUMI_PY_VERSION}" ]]; then
  log "installing pulumi==${PULUMI_PY_VERSION} (had: ${have:-none})"
  "${pip[@]}" install "pulumi==${PULUMI_PY_VERSION}"
fi

# Content hash of the SDK (names and bytes of the files generateSdks.sh writes).
hash=$(cd "${SDK_DIR}" && find . -type f ! -path '*/__pycache__/*' ! -path './build/*' ! -path '*.egg-info/*' -print0 |
  LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
if [[ "$(cat "${VENV}/.pulumi_kubespaces.sha256" 2>/dev/null)" != "${hash}" ]]; then
  log "installing pulumi_kubespaces from ${SDK_DIR}"
  tmp=$(mktemp -d)
  trap 'rm -rf "${tmp}"' EXIT
  cp -r "${SDK_DIR}" "${tmp}/python"
  # pyproject.toml names README.md as the readme; the generator puts it in the package folder.
  [[ -f "${tmp}/python/README.md" ]] || cp "${SDK_DIR}/pulumi_kubespaces/README.md" "${tmp}/python/README.md"
  # Same version number as before, so uninstall first: pip would keep the installed one.
  "${pip[@]}" uninstall --yes pulumi_kubespaces 2>/dev/null || true
  "${pip[@]}" install "${tmp}/python"
  echo "${hash}" >"${VENV}/.pulumi_kubespaces.sha256"
fi
echo "${vpy}"
