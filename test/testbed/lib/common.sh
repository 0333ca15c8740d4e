# shellcheck shell=bash
# Paths and small helpers every part of the test bed uses. Sourced by testbed.sh.

TESTBED_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPO_ROOT="$(cd "${TESTBED_SRC}/../.." && pwd)"
FIXTURES_DIR="${REPO_ROOT}/test/fixtures/testbed"
# shellcheck source=../../../scripts/lib/goToolCache.sh
source "${REPO_ROOT}/scripts/lib/goToolCache.sh"
CACHE_ROOT="${GO_TOOL_CACHE_ROOT}"
BIN_CACHE="${GO_TOOL_BIN_CACHE}"
RUN_DIR="${KUBESPACES_TESTBED_DIR:-${REPO_ROOT}/.testbed}"

PKI="${RUN_DIR}/pki"
PIDS="${RUN_DIR}/pids"
LOGS="${RUN_DIR}/logs"
ARGS="${RUN_DIR}/args"
KUBECONFIG_FILE="${RUN_DIR}/kubeconfig"
ENV_FILE="${RUN_DIR}/env"
PORTS_FILE="${RUN_DIR}/ports"
NODE_NAME=kwok-node-0

log() { printf '[testbed %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

kc() { kubectl --kubeconfig="${KUBECONFIG_FILE}" "$@"; }

# scoped_name PREFIX PART...: a name for something the test bed makes outside its run dir (a
# network namespace lives in one machine-wide list): PREFIX and a hash of the run dir's real path
# and the PARTs, so that two test beds on one machine (two checkouts, or two run dirs) never pick
# the same name, and one never deletes what the other made. Short: network namespace names are
# kept to 15 characters like interface names.
scoped_name() {
  local prefix="$1"
  shift
  printf '%s\0' "$(realpath -m "${RUN_DIR}")" "$@" | sha256sum | cut -c"1-$((15 - ${#prefix}))" | sed "s/^/${prefix}/"
}

# apt_install PART PACKAGE...: install Debian PACKAGEs for PART of the test bed with apt-get, as
# root, and log how long it took. It waits for dpkg's lock: on a shared machine another install may
# be running.
apt_install() {
  local part="$1" start
  shift
  ((EUID == 0)) || die "${part}: $* not installed, and installing with apt-get needs root"
  command -v apt-get >/dev/null || die "${part}: no apt-get here: install $*"
  start=$(date +%s)
  log "${part}: installing $* with apt-get..."
  apt-get update -q -o DPkg::Lock::Timeout=600 >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 "$@" >&2
  log "${part}: $* installed in $(($(date +%s) - start))s"
}

# wait_for DESCRIPTION SECONDS COMMAND...: poll a health check, bounded.
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
