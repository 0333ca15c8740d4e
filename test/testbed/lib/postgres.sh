# shellcheck shell=bash
# PostgreSQL, the database a `kubespaces server` keeps its tenants' stacks in when its replicas
# share one (Pulumi's `postgres://` state backend, a table `pulumi_state` it makes itself).
# Debian's package, installed with apt-get, not built; started on demand (`testbed.sh postgres`),
# not by `up`, since only the tests of a shared backend need it, and stopped by `down`. It runs as
# the package's `postgres` user (PostgreSQL refuses root), on a loopback port, with a database and
# a password-authenticated user of its own, its data under the run dir.

POSTGRES_PACKAGE=postgresql
POSTGRES_DATA="${RUN_DIR}/postgres"
POSTGRES_PASSWORD_FILE="${RUN_DIR}/postgres-password"
# The database and the user the state backend's URL names.
POSTGRES_DATABASE=kubespaces
POSTGRES_USER=kubespaces

# postgres_bin: the newest installed server's bin folder; empty when none is installed.
postgres_bin() {
  compgen -G '/usr/lib/postgresql/*/bin/postgres' | sort -V | tail -n 1 | xargs -r dirname
}

# ensure_postgres_installed: install Debian's PostgreSQL when no server is installed (root: apt-get).
ensure_postgres_installed() {
  [[ -n "$(postgres_bin)" ]] && return 0
  apt_install postgres "${POSTGRES_PACKAGE}"
}

# The words that run a command as the package's postgres user, exec'd in place (no process between).
AS_POSTGRES=(setpriv --reuid=postgres --regid=postgres --init-groups --)

# ensure_postgres_data: the data folder, initialized once, with the password-authenticated user.
ensure_postgres_data() {
  [[ -f "${POSTGRES_DATA}/PG_VERSION" ]] && return 0
  local bin password_file
  bin="$(postgres_bin)"
  mkdir -p "${POSTGRES_DATA}"
  chown postgres:postgres "${POSTGRES_DATA}"
  chmod 700 "${POSTGRES_DATA}"
  [[ -f "${POSTGRES_PASSWORD_FILE}" ]] || (umask 077 && openssl rand -hex 24 >"${POSTGRES_PASSWORD_FILE}")
  # initdb reads the first superuser's password from a file the postgres user can read.
  password_file="$(mktemp)"
  cp "${POSTGRES_PASSWORD_FILE}" "${password_file}"
  chown postgres "${password_file}"
  log "postgres: initializing ${POSTGRES_DATA}"
  "${AS_POSTGRES[@]}" "${bin}/initdb" -D "${POSTGRES_DATA}" -U "${POSTGRES_USER}" --pwfile="${password_file}" \
    --auth-host=scram-sha-256 --auth-local=peer -E UTF8 >"${LOGS}/postgres-initdb.log" 2>&1 || {
    rm -f "${password_file}"
    tail -n 20 "${LOGS}/postgres-initdb.log" >&2
    die "postgres: initdb failed (log: ${LOGS}/postgres-initdb.log)"
  }
  rm -f "${password_file}"
}

# postgres_args: the server's command line, one word a line: loopback only, its socket in the data
# folder, no fsync (a test bed's database, thrown away with it).
postgres_args() {
  printf '%s\n' "${AS_POSTGRES[@]}" "$(postgres_bin)/postgres" \
    -D "${POSTGRES_DATA}" -p "${POSTGRES_PORT}" -c listen_addresses=127.0.0.1 \
    -c "unix_socket_directories=${POSTGRES_DATA}" -c fsync=off -c synchronous_commit=off
}

# postgres_url: the state backend URL of the test bed's database.
postgres_url() {
  printf 'postgres://%s:%s@127.0.0.1:%s/%s?sslmode=disable\n' \
    "${POSTGRES_USER}" "$(cat "${POSTGRES_PASSWORD_FILE}")" "${POSTGRES_PORT}" "${POSTGRES_DATABASE}"
}

# as_admin TOOL ARG...: one of the server's client tools, as the test bed's user, over loopback.
as_admin() {
  local tool="$1"
  shift
  PGPASSWORD="$(cat "${POSTGRES_PASSWORD_FILE}")" "$(postgres_bin)/${tool}" -h 127.0.0.1 -p "${POSTGRES_PORT}" \
    -U "${POSTGRES_USER}" "$@"
}

postgres_ready() {
  "$(postgres_bin)/pg_isready" -q -h 127.0.0.1 -p "${POSTGRES_PORT}"
}

# cmd_postgres: install, initialize and start the database when it is not running, make its
# database, and print the state backend URL.
cmd_postgres() {
  ensure_postgres_installed
  mkdir -p "${RUN_DIR}" "${PIDS}" "${LOGS}"
  ensure_ports
  ensure_postgres_data
  if ! running postgres; then
    start_component postgres
    must_be_healthy postgres 30 postgres_ready
  fi
  as_admin psql -q -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '${POSTGRES_DATABASE}'" | grep -q 1 ||
    as_admin createdb "${POSTGRES_DATABASE}"
  postgres_url
}

# cmd_postgres_crash: the database stops at once, as a crash would stop it: PostgreSQL's immediate
# shutdown (SIGQUIT to the postmaster) ends every connection without a checkpoint, so the next
# `testbed.sh postgres` recovers from the write-ahead log. The e2e tests kill it during an update.
cmd_postgres_crash() {
  running postgres || {
    log "postgres: not running"
    return 0
  }
  stop_component postgres QUIT
}
