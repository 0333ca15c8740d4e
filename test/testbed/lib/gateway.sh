# shellcheck shell=bash
# The Gateway controller: Traefik, the controller of the fixture's GatewayClass, acting on the
# Gateway, TLSRoutes and ReferenceGrants as on a real host cluster.
#
# - It runs in a network namespace of its own (gateway_netns), with only a loopback: it must listen
#   on the Gateway listener's own port, 443, which the machine's loopback cannot give two test beds.
# - Its way to the host API server, which listens on the machine's loopback only: forward.mjs carries
#   127.0.0.1:<API port> inside the namespace over a unix socket to the API server (as for a vCluster
#   control plane, vclusterPod.sh). It talks to it as its own ServiceAccount, with the ClusterRole
#   Traefik documents for its Gateway provider (upstream.sh) and nothing more.
# - The way in: a free loopback port on the machine (GATEWAY_PORT, exported in the env file as
#   KUBESPACES_TESTBED_GATEWAY_PORT) is carried to 443 inside the namespace.
# - The way to a tenant: Traefik dials the ready addresses of the backend Service's EndpointSlices,
#   that is the vCluster pod's IP (KWOK's) and its https port. When a control plane starts
#   (vclusterPod.sh), gateway_route_pod gives that IP to the namespace's loopback and forwards the
#   port to the control plane, as a pod network would. Nothing of it leaves the namespace.
# - `testbed.sh gateway-run HOST... -- COMMAND`: runs a command inside the namespace with the HOSTs
#   resolving to the gateway (127.0.0.1 there, port 443), so that a kubeconfig naming
#   https://<name>.api.<baseDomain>:443 is used as is: only the address its name resolves to differs
#   from a user's.

GATEWAY_DIR="${RUN_DIR}/gateway"
# The Gateway listener's port (test/fixtures/testbed/shared/gateway.yaml).
GATEWAY_LISTENER_PORT=443
# The port of Traefik's ping endpoint, inside the namespace only.
GATEWAY_PING_PORT=8082
# The vCluster syncer container's https port: what its pod IP answers on, and what the control
# plane's unix socket (control-plane.sock, vclusterPod.sh) reaches.
VCLUSTER_POD_API_PORT=8443

# gateway_netns: the gateway's network namespace, unique to this run dir.
gateway_netns() { scoped_name ksgw- gateway; }

netns_exists() { [[ -e "/run/netns/$1" ]]; }

# gateway_netns_up: the namespace with its loopback up; kept if it is there (control planes that
# still run have their addresses in it).
gateway_netns_up() {
  local netns
  netns="$(gateway_netns)"
  mkdir -p "${GATEWAY_DIR}"
  if ! netns_exists "${netns}"; then
    ip netns add "${netns}"
    ip netns exec "${netns}" ip link set lo up
  fi
  echo "${netns}" >"${GATEWAY_DIR}/netns"
}

# gateway_netns_down: after the gateway's processes and every control plane are stopped.
gateway_netns_down() {
  local netns
  netns="$(gateway_netns)"
  netns_exists "${netns}" && ip netns del "${netns}"
  rm -f "${GATEWAY_DIR}/netns"
}

# gateway_component_args NAME: the command line of the gateway's processes, one word a line.
gateway_component_args() {
  local netns
  netns="$(gateway_netns)"
  case "$1" in
    gateway-forward-host)
      printf '%s\n' node "${TESTBED_SRC}/forward.mjs" \
        "unix:${GATEWAY_DIR}/host-api.sock=tcp:127.0.0.1:${APISERVER_PORT}" \
        "tcp:127.0.0.1:${GATEWAY_PORT}=unix:${GATEWAY_DIR}/listener.sock"
      ;;
    gateway-forward-netns)
      printf '%s\n' ip netns exec "${netns}" node "${TESTBED_SRC}/forward.mjs" \
        "tcp:127.0.0.1:${APISERVER_PORT}=unix:${GATEWAY_DIR}/host-api.sock" \
        "unix:${GATEWAY_DIR}/listener.sock=tcp:127.0.0.1:${GATEWAY_LISTENER_PORT}"
      ;;
    traefik)
      # Its Gateway provider reads KUBECONFIG (outside a cluster: no KUBERNETES_SERVICE_HOST). One
      # entry point on the listener's port; the experimental channel stays off (it would watch
      # TCPRoute v1alpha2, which the standard CRDs do not serve).
      printf '%s\n' env "KUBECONFIG=$(service_account_kubeconfig traefik)" \
        ip netns exec "${netns}" "$(tool_bin traefik)" \
        --global.checkNewVersion=false --global.sendAnonymousUsage=false --log.level=INFO --log.noColor=true \
        "--entryPoints.tls.address=:${GATEWAY_LISTENER_PORT}" \
        --providers.kubernetesGateway=true \
        "--entryPoints.ping.address=127.0.0.1:${GATEWAY_PING_PORT}" --ping=true --ping.entryPoint=ping
      ;;
  esac
}

# start_gateway: the namespace, Traefik's credentials, its forwarders, then Traefik, healthy when it
# answers its ping and has accepted the fixture's GatewayClass.
start_gateway() {
  gateway_netns_up
  write_service_account_kubeconfig traefik kubespaces-gateway traefik
  start_component gateway-forward-host
  start_component gateway-forward-netns
  start_component traefik
  must_be_healthy traefik 60 gateway_healthy
}

gateway_healthy() {
  ip netns exec "$(gateway_netns)" curl -fsS "http://127.0.0.1:${GATEWAY_PING_PORT}/ping" | grep -qx OK &&
    [[ "$(kc get gatewayclass kubespaces-testbed -o jsonpath='{.status.conditions[?(@.type=="Accepted")].status}')" == True ]]
}

# gateway_route_pod POD_DIR SOCKETS POD_IP: the pod's IP answers on its https port inside the
# gateway's namespace, forwarded to its control plane's socket in SOCKETS (run in the background by
# the pod's runner, so that it stops with it; its log in POD_DIR); nothing when the gateway is not up.
gateway_route_pod() {
  local dir="$1" sockets="$2" ip="$3" netns
  netns="$(cat "${GATEWAY_DIR}/netns" 2>/dev/null)" && netns_exists "${netns}" || return 0
  ip netns exec "${netns}" ip addr replace "${ip}/32" dev lo
  ip netns exec "${netns}" node "${TESTBED_SRC}/forward.mjs" \
    "tcp:${ip}:${VCLUSTER_POD_API_PORT}=unix:${sockets}/control-plane.sock" >>"${dir}/forward-gateway.log" 2>&1 &
}

# gateway_unroute_pod POD_IP: the pod's IP leaves the gateway's namespace (its forwarder is gone
# with the pod's runner).
gateway_unroute_pod() {
  local netns
  netns="$(cat "${GATEWAY_DIR}/netns" 2>/dev/null)" && netns_exists "${netns}" || return 0
  ip netns exec "${netns}" ip addr del "$1/32" dev lo 2>/dev/null || true
}

# cmd_gateway_run HOST... -- COMMAND [ARG...]: run COMMAND in the gateway's network namespace, with
# each HOST resolving to 127.0.0.1 there (where the gateway listens on 443): a hosts file of its
# own, bind-mounted over /etc/hosts in a private mount namespace. Everything else is the caller's:
# environment, files, the command's own flags.
cmd_gateway_run() {
  local hosts=() netns file
  while (($# > 0)) && [[ "$1" != -- ]]; do
    hosts+=("$1")
    shift
  done
  ((${#hosts[@]} > 0 && $# > 1)) || die "usage: testbed.sh gateway-run HOST... -- COMMAND [ARG...]"
  shift
  netns="$(cat "${GATEWAY_DIR}/netns" 2>/dev/null)" && netns_exists "${netns}" ||
    die "the gateway is not running: run testbed.sh up"
  file="$(mktemp "${GATEWAY_DIR}/hosts.XXXXXX")"
  { cat /etc/hosts; echo "127.0.0.1 ${hosts[*]}"; } >"${file}"
  chmod 0644 "${file}"
  # The mount keeps the file's content; its name goes at once.
  exec ip netns exec "${netns}" unshare --mount --propagation private \
    sh -c 'mount --bind "$1" /etc/hosts && rm -f "$1" && shift && exec "$@"' sh "${file}" "$@"
}
