# shellcheck shell=bash
# Runs the real vCluster control plane of one vCluster pod as local processes: the test bed
# standing in for the kubelet (KWOK only fakes pod status), not for vCluster. The vCluster runner
# (vclusterRunner.ts) calls `testbed.sh run-vcluster-pod NAMESPACE POD` when KWOK reports the pod
# Running, and stops it (TERM to its process group) when the pod goes.
#
# What a kubelet would give the pod's `syncer` container (or the `snapshot` container of vCluster's
# restore pod, which mounts the same volumes), and how it is given here:
# - its volumes: /data (emptyDir, or the PersistentVolume bound to its claim), /binaries (what the
#   init container copies from the distro image: here the test bed's own kube-apiserver,
#   kube-controller-manager, kube-scheduler, plus kine and helm, bind-mounted read-only), /pki,
#   /tmp, /.cache/helm (emptyDirs), /var/lib/vcluster (Secret vc-config-<release>), and the
#   service-account dir (a token of the pod's own ServiceAccount, bound to the pod, the host CA,
#   the namespace): so it holds exactly the RBAC the chart grants, never the test bed's admin.
# - its env, with fieldRefs resolved from the pod, and KUBERNETES_SERVICE_HOST/PORT.
# - its own filesystem, PIDs and network: a private mount + PID namespace (unshare) with a tmpfs
#   root holding the system dirs read-only and the volumes above, then chroot; killing its PID 1
#   stops every child. A network namespace of its own, with only a loopback (vCluster hard-codes
#   the virtual API server at 127.0.0.1:6443, so two on one loopback would collide).
# - the way in and out: the host API server listens on the machine's loopback only, so a
#   forwarder over unix sockets (forward.mjs) carries 127.0.0.1:<api port> inside the namespace to
#   the host API server, and a loopback port on the machine to the control plane's 8443 inside.
#   That port is written to <pod dir>/endpoint; `testbed.sh vcluster-endpoint NS RELEASE` prints it.
#   The test bed's S3 store (s3.sh) answers at its own 127.0.0.1 port inside the namespace too.
#   And the pod's IP answers on its https port inside the gateway's network namespace, where
#   Traefik dials it (gateway.sh, gateway_route_pod).

VCLUSTERS_DIR="${RUN_DIR}/vclusters"

# vcluster_pod_dir NAMESPACE POD: everything of one pod's control plane on this machine.
vcluster_pod_dir() { echo "${VCLUSTERS_DIR}/$1/$2"; }

# netns_name NAMESPACE POD: the control plane's network namespace, stable for the pod and unique to
# this run dir (scoped_name).
netns_name() { scoped_name ks- "$1" "$2"; }

# socket_dir NETNS: where the control plane's forwarders keep their unix sockets. Not the pod's dir:
# a unix socket's path holds at most 107 bytes, which a pod's dir under a checkout passes (Node.js
# 22 and later refuse such a path, where Node.js 20 cut it short), so they go under /run, named
# after the network namespace, unique to the pod and this run dir.
socket_dir() { echo "/run/kubespaces-testbed/$1"; }

# pod_field JSON JQ: one field of the pod.
pod_field() { jq -r "$2 // empty" <<<"$1"; }

# syncer_env POD_JSON: the syncer container's env as NAME=VALUE lines, fieldRefs and secretKeyRefs
# resolved the way the kubelet resolves them.
syncer_env() {
  local ns line name secret key
  ns="$(pod_field "$1" .metadata.namespace)"
  syncer_env_refs "$1" | while IFS= read -r line; do
    if [[ "${line}" == *$'\x01'* ]]; then
      IFS=$'\x01' read -r name secret key <<<"${line}"
      printf '%s%s\n' "${name}" "$(kc get secret -n "${ns}" "${secret}" -o "jsonpath={.data.${key}}" | base64 -d)"
    else
      printf '%s\n' "${line}"
    fi
  done
}

# syncer_env_refs POD_JSON: syncer_env's lines, a secretKeyRef's as NAME=<x01>SECRET<x01>KEY.
syncer_env_refs() {
  jq -r '
    . as $pod
    | def field($p): {
        "metadata.name": $pod.metadata.name, "metadata.namespace": $pod.metadata.namespace,
        "metadata.uid": $pod.metadata.uid, "spec.nodeName": $pod.spec.nodeName,
        "spec.serviceAccountName": $pod.spec.serviceAccountName,
        "status.podIP": $pod.status.podIP, "status.hostIP": $pod.status.hostIP }[$p] // "";
    .spec.containers[] | select(.name == "syncer" or .name == "snapshot") | (.env // [])[]
    | "\(.name)=\(if .value != null then .value
        elif .valueFrom.fieldRef then field(.valueFrom.fieldRef.fieldPath)
        elif .valueFrom.secretKeyRef then "\u0001\(.valueFrom.secretKeyRef.name)\u0001\(.valueFrom.secretKeyRef.key)"
        else "" end)"' <<<"$1"
}

# container_command POD_JSON: the words the container runs, one a line: the image's entrypoint
# `/vcluster start` for the control plane's `syncer`, its own command (`/vcluster restore`) for the
# `snapshot` container of vCluster's restore pod (pkg/snapshot/pod/pod.go in vCluster).
container_command() {
  jq -r '.spec.containers[] | select(.name == "syncer" or .name == "snapshot")
    | ((.command // ["/vcluster", "start"]) + (.args // []))[]' <<<"$1"
}

# syncer_user POD_JSON: "UID GID" the syncer runs as (container, then pod securityContext; 0 0
# when unset, like the image's root user).
syncer_user() {
  jq -r '(.spec.containers[] | select(.name == "syncer" or .name == "snapshot") | .securityContext) as $c
    | (.spec.securityContext // {}) as $p
    | "\($c.runAsUser // $p.runAsUser // 0) \($c.runAsGroup // $p.runAsGroup // 0)"' <<<"$1"
}

# data_source POD_JSON: the host dir that backs the pod's `data` volume: its bound
# PersistentVolume's path (the test bed's static provisioner makes hostPath PVs), else "".
data_source() {
  local claim pv
  claim="$(jq -r '.spec.volumes[] | select(.name == "data") | .persistentVolumeClaim.claimName // empty' <<<"$1")"
  [[ -n "${claim}" ]] || return 0
  pv="$(kc get pvc -n "$(pod_field "$1" .metadata.namespace)" "${claim}" -o jsonpath='{.spec.volumeName}')"
  [[ -n "${pv}" ]] || die "claim ${claim} is not bound"
  kc get pv "${pv}" -o jsonpath='{.spec.hostPath.path}'
}

# write_service_account DIR NAMESPACE POD_JSON: the projected service-account volume.
write_service_account() {
  local dir="$1" ns="$2" pod="$3" sa
  sa="$(pod_field "${pod}" .spec.serviceAccountName)"
  mkdir -p "${dir}"
  kc create token "${sa}" -n "${ns}" --duration=24h --bound-object-kind=Pod \
    --bound-object-name="$(pod_field "${pod}" .metadata.name)" \
    --bound-object-uid="$(pod_field "${pod}" .metadata.uid)" >"${dir}/token"
  cp "${PKI}/ca.crt" "${dir}/ca.crt"
  printf '%s' "${ns}" >"${dir}/namespace"
  chmod 0644 "${dir}"/*
}

# write_config DIR NAMESPACE POD_JSON: the vcluster-config Secret volume (key config.yaml).
write_config() {
  local dir="$1" ns="$2" pod="$3" secret
  secret="$(jq -r '.spec.volumes[] | select(.name == "vcluster-config") | .secret.secretName' <<<"${pod}")"
  mkdir -p "${dir}"
  kc get secret -n "${ns}" "${secret}" -o json |
    jq -r '.data | to_entries[] | "\(.key) \(.value)"' |
    while read -r key value; do base64 -d <<<"${value}" >"${dir}/${key}"; done
  chmod 0644 "${dir}"/*
}

# netns_up NAME: a network namespace with only its loopback.
netns_up() {
  ip netns del "$1" 2>/dev/null || true
  ip netns add "$1"
  ip netns exec "$1" ip link set lo up
}

# start_forwarders DIR NETNS HOST_PORT: the unix-socket bridges (see the top of this file), their
# sockets in socket_dir, their logs in DIR.
start_forwarders() {
  local dir="$1" netns="$2" port="$3" sockets
  sockets="$(socket_dir "${netns}")"
  rm -rf "${sockets}"
  mkdir -p "${sockets}"
  node "${TESTBED_SRC}/forward.mjs" "unix:${sockets}/host-api.sock=tcp:127.0.0.1:${APISERVER_PORT}" \
    "tcp:127.0.0.1:${port}=unix:${sockets}/control-plane.sock" \
    "unix:${sockets}/s3.sock=tcp:127.0.0.1:${S3_PORT}" >>"${dir}/forward-host.log" 2>&1 &
  ip netns exec "${netns}" node "${TESTBED_SRC}/forward.mjs" \
    "tcp:127.0.0.1:${APISERVER_PORT}=unix:${sockets}/host-api.sock" \
    "unix:${sockets}/control-plane.sock=tcp:127.0.0.1:8443" \
    "tcp:127.0.0.1:${S3_PORT}=unix:${sockets}/s3.sock" >>"${dir}/forward-netns.log" 2>&1 &
  # The control plane's first call goes to the host API server at once, and exits when it is
  # refused: it starts once both forwarders listen. Under load Node's start can take seconds.
  wait_for "forwarders of ${dir##*/}" 60 vcluster_forwarders_ready "${sockets}" "${netns}" || {
    tail -n 5 "${dir}"/forward-*.log >&2
    die "the forwarders of ${dir} did not start"
  }
}

# vcluster_forwarders_ready SOCKETS NETNS: the machine's side listens on its unix sockets, and the
# namespace's side on the host API server's port and the control plane's socket.
vcluster_forwarders_ready() {
  local sockets="$1" netns="$2"
  [[ -S "${sockets}/host-api.sock" && -S "${sockets}/s3.sock" && -S "${sockets}/control-plane.sock" ]] &&
    ip netns exec "${netns}" bash -c "exec 3<>/dev/tcp/127.0.0.1/${APISERVER_PORT}"
}

# cmd_run_vcluster_pod NAMESPACE POD: prepare, then run the control plane in the foreground until
# it exits or this process group is sent TERM; clean up the network namespace either way.
cmd_run_vcluster_pod() {
  local ns="$1" name="$2" pod dir netns port user data pod_ip
  ensure_ports
  pod="$(kc get pod -n "${ns}" "${name}" -o json)"
  dir="$(vcluster_pod_dir "${ns}" "${name}")"
  netns="$(netns_name "${ns}" "${name}")"
  pod_ip="$(pod_field "${pod}" .status.podIP)"
  mkdir -p "${dir}"/{root,data,pki,tmp,helm-cache}
  echo "${netns}" >"${dir}/netns"
  write_service_account "${dir}/serviceaccount" "${ns}" "${pod}"
  write_config "${dir}/config" "${ns}" "${pod}"
  syncer_env "${pod}" >"${dir}/env"
  container_command "${pod}" >"${dir}/command"
  {
    echo "KUBERNETES_SERVICE_HOST=127.0.0.1"
    echo "KUBERNETES_SERVICE_PORT=${APISERVER_PORT}"
    echo "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    echo "HOME=/"
  } >>"${dir}/env"
  data="$(data_source "${pod}")"
  [[ -n "${data}" ]] || data="${dir}/data"
  read -r -a user <<<"$(syncer_user "${pod}")"
  # As fsGroup/the kubelet would: the pod's writable volumes belong to the user it runs as.
  chown -R "${user[0]}:${user[1]}" "${data}" "${dir}/pki" "${dir}/tmp" "${dir}/helm-cache"
  port="$(cat "${dir}/port" 2>/dev/null || free_port)"
  echo "${port}" >"${dir}/port"

  netns_up "${netns}"
  # Expanded now: the EXIT trap runs after this function's locals are gone.
  # shellcheck disable=SC2064
  trap "vcluster_pod_cleanup '${netns}' '${dir}' '${pod_ip}'" EXIT
  trap 'exit 143' TERM INT
  start_forwarders "${dir}" "${netns}" "${port}"
  gateway_route_pod "${dir}" "$(socket_dir "${netns}")" "${pod_ip}"
  echo "https://127.0.0.1:${port}" >"${dir}/endpoint"
  log "control plane of ${ns}/${name}: netns ${netns}, uid ${user[0]}, data ${data}, endpoint https://127.0.0.1:${port}"
  ip netns exec "${netns}" unshare --mount --pid --fork --kill-child --propagation private \
    bash "${TESTBED_SRC}/lib/vclusterRoot.sh" "${dir}" "${data}" "${user[0]}" "${user[1]}" \
    "$(tool_bin vcluster)" "$(tool_bin kube-apiserver)" "$(tool_bin kube-controller-manager)" \
    "$(tool_bin kube-scheduler)" "$(tool_bin kine)" "$(tool_bin helm)" &
  wait $!
}

vcluster_pod_cleanup() {
  local netns="$1" dir="$2" pod_ip="$3"
  rm -f "${dir}/endpoint"
  # The forwarders are this script's children; the control plane died with its PID namespace.
  kill $(jobs -p) 2>/dev/null || true
  gateway_unroute_pod "${pod_ip}"
  ip netns del "${netns}" 2>/dev/null || true
  rm -rf "$(socket_dir "${netns}")"
}

# stop_all_vcluster_pods: `down`'s backstop when the runner is gone: TERM every recorded control
# plane's process group and remove every network namespace the test bed made.
stop_all_vcluster_pods() {
  local f pid
  for f in "${VCLUSTERS_DIR}"/*/*/pid; do
    [[ -f "${f}" ]] || continue
    pid="$(cat "${f}")"
    kill -TERM -- "-${pid}" 2>/dev/null || true
    rm -f "${f}"
  done
  for f in "${VCLUSTERS_DIR}"/*/*/netns; do
    [[ -f "${f}" ]] || continue
    ip netns del "$(cat "${f}")" 2>/dev/null || true
    rm -rf "$(socket_dir "$(cat "${f}")")"
  done
}

# cmd_vcluster_endpoint NAMESPACE RELEASE: the loopback URL of a running control plane.
cmd_vcluster_endpoint() {
  local f
  for f in "${VCLUSTERS_DIR}/$1/$2"-*/endpoint; do
    [[ -f "${f}" ]] && { cat "${f}"; return 0; }
  done
  die "no running control plane for release $2 in namespace $1"
}
