# shellcheck shell=bash
# The S3-compatible store tenants' snapshots go to (tools/s3: gofakes3's server over a bolt file
# under the run dir, one bucket), on a loopback port. Each vCluster control plane reaches it at the
# same 127.0.0.1 port inside its own network namespace, through a forwarder (vclusterPod.sh), as a
# pod would reach a platform's store through the pod network. It checks no credentials.

S3_BUCKET=kubespaces-snapshots
S3_DATA="${RUN_DIR}/s3-store"

# s3_store_args: its command line, one word a line.
s3_store_args() {
  mkdir -p "${S3_DATA}"
  printf '%s\n' "$(tool_bin s3-store)" --listen="127.0.0.1:${S3_PORT}" --db="${S3_DATA}/store.db" \
    --bucket="${S3_BUCKET}"
}

# s3_store_healthy: it lists its bucket.
s3_store_healthy() {
  running s3-store && curl -sf -o /dev/null "http://127.0.0.1:${S3_PORT}/${S3_BUCKET}?list-type=2"
}

# start_s3_store: start it and wait until it lists its bucket.
start_s3_store() {
  start_component s3-store
  must_be_healthy s3-store 30 s3_store_healthy
}
