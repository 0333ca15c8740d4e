#!/usr/bin/env bash
# Schemathesis for the unit tier's property-based API test, outside the repo:
#
#   test/unit/support/schemathesisVenv.sh     ensure it, print the path of its `st` on stdout (progress on stderr)
#
# A venv under ${KUBESPACES_CACHE:-~/.cache/kubespaces}/schemathesis-<hash of the requirements>,
# installed from PyPI with pip --require-hashes from schemathesis-requirements.txt beside this
# script (every package pinned with its hashes, wheels only). A `.complete` stamp is written last,
# so that a venv whose install broke off is made again, never used. Needs Python 3.11 or newer,
# and PyPI the first time only.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REQUIREMENTS="${HERE}/schemathesis-requirements.txt"
CACHE_ROOT="${KUBESPACES_CACHE:-${HOME}/.cache/kubespaces}"
VENV="${CACHE_ROOT}/schemathesis-$(sha256sum "${REQUIREMENTS}" | cut -c1-12)"

log() { printf '[schemathesis] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

if [[ ! -f "${VENV}/.complete" ]]; then
  py=$(command -v python3) || die "python3 is not on PATH (Python 3.11 or newer is needed)"
  "${py}" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
    die "$(${py} --version 2>&1) is too old: Schemathesis 4.32 needs Python 3.11 or newer"
  mkdir -p "${CACHE_ROOT}"
  # One install at a time; whoever waited finds the venv complete.
  exec 9>"${VENV}.lock"
  if command -v flock >/dev/null; then flock 9; fi
  if [[ ! -f "${VENV}/.complete" ]]; then
    log "installing Schemathesis into ${VENV} (pinned, hash-checked)"
    rm -rf "${VENV}"
    "${py}" -m venv "${VENV}" || die "python3 -m venv failed (on Debian: apt-get install python3-venv)"
    "${VENV}/bin/python" -m pip --disable-pip-version-check --no-input --quiet \
      install --require-hashes --no-deps --only-binary=:all: -r "${REQUIREMENTS}" >&2
    touch "${VENV}/.complete"
  fi
fi
echo "${VENV}/bin/st"
