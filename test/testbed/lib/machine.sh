# shellcheck shell=bash
# Another machine, as far as a test of replicas on several machines needs one: a command run in a
# network namespace of its own (a loopback only) and a UTS namespace of its own (its own host name,
# the machine's NAME), as a pod on another node has them. The test bed runs no second kernel, so
# this stands in for a machine; what its replica may reach of this one is carried over unix
# sockets by forward.mjs, as for the gateway (gateway.sh): the host API server's and PostgreSQL's
# ports, at the same loopback addresses as here, so that kubeconfigs and backend URLs work as
# they are; and each --publish PORT of its own loopback is published back at the same port here
# (the API and portal it serves).
#
#   testbed.sh machine NAME [--publish PORT]... -- COMMAND [ARG...]
#
# The machine lives as long as COMMAND: its forwarders are in COMMAND's process group, so a test
# that kills that group (a killed replica) kills the whole machine. `down` deletes the namespaces.

MACHINES_DIR="${RUN_DIR}/machines"

# machine_netns NAME: machine NAME's network namespace, unique to this run dir.
machine_netns() { scoped_name ksm- machine "$1"; }

# machines_down: the network namespaces of this run dir's machines (their processes are gone).
machines_down() {
  local dir netns
  for dir in "${MACHINES_DIR}"/*/; do
    [[ -d "${dir}" ]] || continue
    netns="$(machine_netns "$(basename "${dir}")")"
    netns_exists "${netns}" && ip netns del "${netns}"
  done
  rm -rf "${MACHINES_DIR}"
}

cmd_machine() {
  local name="${1:-}" port
  [[ "${name}" =~ ^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$ ]] || die "machine: NAME must be a DNS label of at most 32 characters"
  shift
  local -a published=()
  while [[ "${1:-}" == --publish ]]; do
    [[ "${2:-}" =~ ^[0-9]+$ ]] || die "machine: --publish takes a port"
    published+=("$2")
    shift 2
  done
  [[ "${1:-}" == -- && $# -gt 1 ]] || die "usage: testbed.sh machine NAME [--publish PORT]... -- COMMAND [ARG...]"
  shift
  ensure_ports
  local netns dir
  netns="$(machine_netns "${name}")"
  dir="${MACHINES_DIR}/${name}"
  mkdir -p "${dir}"
  if ! netns_exists "${netns}"; then
    ip netns add "${netns}"
    ip netns exec "${netns}" ip link set lo up
  fi
  # Inward: this machine's API server and database; outward: the ports the machine publishes.
  local -a here=() there=()
  for port in "${APISERVER_PORT}" "${POSTGRES_PORT}"; do
    here+=("unix:${dir}/in-${port}.sock=tcp:127.0.0.1:${port}")
    there+=("tcp:127.0.0.1:${port}=unix:${dir}/in-${port}.sock")
  done
  for port in "${published[@]}"; do
    there+=("unix:${dir}/out-${port}.sock=tcp:127.0.0.1:${port}")
    here+=("tcp:127.0.0.1:${port}=unix:${dir}/out-${port}.sock")
  done
  # The forwarders stop with COMMAND (a killed group takes them with it anyway).
  trap 'kill $(jobs -p) 2>/dev/null' EXIT
  node "${TESTBED_SRC}/forward.mjs" "${here[@]}" >>"${dir}/forward-here.log" 2>&1 &
  ip netns exec "${netns}" node "${TESTBED_SRC}/forward.mjs" "${there[@]}" >>"${dir}/forward-there.log" 2>&1 &
  wait_for "machine ${name}'s forwarders" 10 machine_forwarders_ready "${dir}" "${APISERVER_PORT}" "${published[@]}" ||
    die "machine ${name}: its forwarders did not start (${dir}/forward-*.log)"
  ip netns exec "${netns}" unshare --uts -- sh -c 'hostname "$1" && shift && exec "$@"' machine "${name}" "$@"
}

# machine_forwarders_ready DIR PORT...: every unix socket of the machine's forwarders is listening.
machine_forwarders_ready() {
  local dir="$1" port
  shift
  [[ -S "${dir}/in-$1.sock" ]] || return 1
  shift
  for port in "$@"; do [[ -S "${dir}/out-${port}.sock" ]] || return 1; done
}
