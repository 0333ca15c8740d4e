#!/usr/bin/env bash
# PID 1 of one vCluster pod's private mount + PID namespace (see vclusterPod.sh): builds the
# container's filesystem on a tmpfs root, then becomes its command in it (exec), so that
# killing it stops every process the control plane started. Nothing is mounted outside this
# namespace; the mounts vanish with it.
#
#   vclusterRoot.sh POD_DIR DATA_DIR UID GID VCLUSTER KUBE_APISERVER KUBE_CONTROLLER_MANAGER KUBE_SCHEDULER KINE HELM
set -euo pipefail

pod_dir="$1" data="$2" uid="$3" gid="$4" vcluster="$5"
shift 5
root="${pod_dir}/root"

# bind SRC DEST [ro]: bind-mount a file or directory into the root.
bind() {
  local src="$1" dest="${root}$2"
  if [[ -d "${src}" ]]; then mkdir -p "${dest}"; else mkdir -p "$(dirname "${dest}")" && touch "${dest}"; fi
  mount --bind "${src}" "${dest}"
  [[ "${3:-}" != ro ]] || mount -o remount,bind,ro "${dest}"
}

mount -t tmpfs -o mode=0755 tmpfs "${root}"

# The system dirs the image would provide: read-only. On merged-/usr systems /bin, /lib, ... are
# symlinks into /usr; keep them symlinks.
for d in /usr /etc /bin /sbin /lib /lib64; do
  if [[ -L "${d}" ]]; then ln -s "$(readlink "${d}")" "${root}${d}"
  elif [[ -d "${d}" ]]; then bind "${d}" "${d}" ro; fi
done
mkdir -p "${root}/dev" "${root}/proc"
mount --rbind /dev "${root}/dev"
mount -t proc proc "${root}/proc"

# The pod's volumes, at the syncer container's mount paths (chart/templates/statefulset.yaml).
bind "${data}" /data
bind "${pod_dir}/pki" /pki
bind "${pod_dir}/tmp" /tmp
bind "${pod_dir}/helm-cache" /.cache/helm
bind "${pod_dir}/config" /var/lib/vcluster ro
bind "${pod_dir}/serviceaccount" /var/run/secrets/kubernetes.io/serviceaccount ro
# /binaries: what the `kubernetes` init container copies there from the distro image.
for bin in "$@"; do
  if [[ -x "${bin}" ]]; then bind "${bin}" "/binaries/$(basename "${bin}")" ro; else echo "vclusterRoot: ${bin} not built, not in /binaries" >&2; fi
done
# The image's entrypoint binary.
bind "${vcluster}" /vcluster ro

mapfile -t env <"${pod_dir}/env"
mapfile -t command <"${pod_dir}/command"
# As the image runs it (WORKDIR /, ENTRYPOINT ["/vcluster", "start"], or the container's own
# command), as the user the pod's security context names.
cd "${root}"
exec chroot --userspec="${uid}:${gid}" "${root}" /usr/bin/env -i "${env[@]}" "${command[@]}"
