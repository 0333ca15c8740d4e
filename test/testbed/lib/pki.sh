# shellcheck shell=bash
# Loopback ports, the PKI (one CA for serving and client certs, a key pair for service-account
# tokens) and the admin kubeconfig. Sourced by testbed.sh.

# free_port: ask the kernel for a free loopback port.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# ensure_ports: pick the loopback ports once and keep them, so that etcd's
# stored member URLs and the written kubeconfig stay valid across down/up.
# GATEWAY_PORT is the machine's way in to the gateway's listener (gateway.sh). A ports file from
# before a port was added gets it appended.
PORT_NAMES=(ETCD_PORT ETCD_PEER_PORT APISERVER_PORT KCM_PORT SCHEDULER_PORT KWOK_PORT GATEWAY_PORT POSTGRES_PORT S3_PORT
  GIT_PORT FLUX_STORAGE_PORT FLUX_SOURCE_HEALTH_PORT FLUX_KUSTOMIZE_HEALTH_PORT)

ensure_ports() {
  local name
  touch "${PORTS_FILE}"
  for name in "${PORT_NAMES[@]}"; do
    grep -q "^${name}=" "${PORTS_FILE}" || echo "${name}=$(free_port)" >>"${PORTS_FILE}"
  done
  # shellcheck disable=SC1090
  source "${PORTS_FILE}"
}


# ensure_pki: one CA signs the API server's serving cert and the admin client cert; a separate
# RSA key pair signs service-account tokens.
ensure_pki() {
  [[ -f "${PKI}/admin.crt" ]] && return 0
  log "generating PKI in ${PKI}"
  mkdir -p "${PKI}"
  (
    cd "${PKI}"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 3650 \
      -subj "/CN=kubespaces-testbed-ca" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout apiserver.key -out apiserver.csr \
      -subj "/CN=kube-apiserver" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local\nextendedKeyUsage=serverAuth\n' >apiserver.ext
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
      -out apiserver.crt -days 3650 -extfile apiserver.ext 2>/dev/null
    # O=system:masters makes the admin a cluster-admin without any RBAC object.
    openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr \
      -subj "/O=system:masters/CN=kubespaces-testbed-admin" 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' >admin.ext
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
      -out admin.crt -days 3650 -extfile admin.ext 2>/dev/null
    openssl genrsa -out sa.key 2048 2>/dev/null
    openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
    # Static bearer token for the same admin, for clients that take a token.
    openssl rand -hex 24 >admin.token
    printf '%s,kubespaces-testbed-admin,kubespaces-testbed-admin,"system:masters"\n' "$(cat admin.token)" >tokens.csv
    rm -f ./*.csr ./*.ext ./*.srl
    chmod 600 ./*.key admin.token tokens.csv
  )
}

write_kubeconfig() {
  local tmp="${KUBECONFIG_FILE}.tmp"
  rm -f "${tmp}"
  KUBECONFIG="${tmp}" kubectl config set-cluster kubespaces-testbed \
    --server="https://127.0.0.1:${APISERVER_PORT}" \
    --certificate-authority="${PKI}/ca.crt" --embed-certs=true >/dev/null
  KUBECONFIG="${tmp}" kubectl config set-credentials kubespaces-testbed-admin \
    --client-certificate="${PKI}/admin.crt" --client-key="${PKI}/admin.key" --embed-certs=true >/dev/null
  KUBECONFIG="${tmp}" kubectl config set-context kubespaces-testbed \
    --cluster=kubespaces-testbed --user=kubespaces-testbed-admin >/dev/null
  KUBECONFIG="${tmp}" kubectl config use-context kubespaces-testbed >/dev/null
  chmod 600 "${tmp}"
  mv "${tmp}" "${KUBECONFIG_FILE}"
}


# service_account_kubeconfig NAME: where a controller's own kubeconfig is (run dir, kubeconfigs/).
service_account_kubeconfig() { echo "${RUN_DIR}/kubeconfigs/$1"; }

# write_service_account_kubeconfig NAME NAMESPACE SERVICE_ACCOUNT: a kubeconfig for a controller
# the test bed runs outside the cluster (Traefik, cert-manager) that authenticates as the
# ServiceAccount a real install would run it as, so it holds only the RBAC that grants. A fresh
# token (a year) at each start.
write_service_account_kubeconfig() {
  local file tmp token
  file="$(service_account_kubeconfig "$1")"
  tmp="${file}.tmp"
  mkdir -p "$(dirname "${file}")"
  token="$(kc create token "$3" -n "$2" --duration=8760h)"
  rm -f "${tmp}"
  KUBECONFIG="${tmp}" kubectl config set-cluster kubespaces-testbed \
    --server="https://127.0.0.1:${APISERVER_PORT}" \
    --certificate-authority="${PKI}/ca.crt" --embed-certs=true >/dev/null
  KUBECONFIG="${tmp}" kubectl config set-credentials "$2-$3" --token="${token}" >/dev/null
  KUBECONFIG="${tmp}" kubectl config set-context "$1" --cluster=kubespaces-testbed --user="$2-$3" >/dev/null
  KUBECONFIG="${tmp}" kubectl config use-context "$1" >/dev/null
  chmod 600 "${tmp}"
  mv "${tmp}" "${file}"
}
