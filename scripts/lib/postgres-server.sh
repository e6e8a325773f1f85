# Starts a PostgreSQL server of its own (Debian's, the newest installed) in a temporary folder, for
# the scripts that need one (scripts/cluster.sh, the benchmarks). Source it, then:
#   start_postgres_server FOLDER
# `initdb` makes a cluster in FOLDER/data (as the `postgres` user when run as root, since
# PostgreSQL refuses to run as root; else as the caller), the server listens on a free loopback
# port and a socket in FOLDER, and the script waits until it accepts connections. It sets
# $postgres_pid and $postgres_port and exports ASSETS_PICKER_DATABASE_URL (database
# `assets_picker`, user `assets`, a random password). Settings in the array $postgres_settings
# (`-c name=value` pairs, set before starting) are given to the server after the defaults. The
# caller's EXIT trap calls
# stop_postgres_server; restart_postgres_server stops it (fast shutdown) and starts it again on
# the same port, as an operator's restart would.

postgres_pid="" postgres_port="" postgres_folder="" postgres_bin="" postgres_owner=()
postgres_settings=(${postgres_settings[@]+"${postgres_settings[@]}"})

stop_postgres_server() {
  if [ -n "$postgres_pid" ]; then
    kill -INT "$postgres_pid" 2>/dev/null || true   # fast shutdown: clients are disconnected
    wait "$postgres_pid" 2>/dev/null || true
    postgres_pid=""
  fi
}

_postgres_as_owner() {
  if [ ${#postgres_owner[@]} -gt 0 ]; then exec setpriv "${postgres_owner[@]}" -- "$@"; else exec "$@"; fi
}

_postgres_run() {
  local name
  name=$(basename "$0")
  # In a subshell that becomes the server (exec), so $! is the server's own pid.
  (_postgres_as_owner "$postgres_bin/postgres" -D "$postgres_folder/data" -k "$postgres_folder" -h 127.0.0.1 -p "$postgres_port" \
    -c max_connections=300 -c shared_buffers=128MB ${postgres_settings[@]+"${postgres_settings[@]}"}) >>"$postgres_folder/server.log" 2>&1 &
  postgres_pid=$!
  for _ in $(seq 1 600); do
    if grep -q "database system is ready to accept connections" "$postgres_folder/server.log" 2>/dev/null \
       && [ -S "$postgres_folder/.s.PGSQL.$postgres_port" ]; then
      return 0
    fi
    kill -0 "$postgres_pid" 2>/dev/null || { echo "$name: PostgreSQL exited:" >&2; tail -20 "$postgres_folder/server.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "$name: PostgreSQL was not ready within 60 s" >&2; tail -20 "$postgres_folder/server.log" >&2; exit 1
}

restart_postgres_server() {
  stop_postgres_server
  : >"$postgres_folder/server.log"
  _postgres_run
}

start_postgres_server() {
  local name password
  name=$(basename "$0")
  postgres_folder=$1
  postgres_bin=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null | sort -V | tail -1)
  [ -n "$postgres_bin" ] && [ -x "$postgres_bin/postgres" ] || { echo "$name: PostgreSQL's server is missing; run make dependencies" >&2; exit 1; }
  mkdir -p "$postgres_folder"
  password=$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')
  printf '%s' "$password" >"$postgres_folder/password"
  if [ "$(id -u)" -eq 0 ]; then
    local user=postgres
    id -u postgres >/dev/null 2>&1 || user=nobody
    postgres_owner=(--reuid="$(id -u "$user")" --regid="$(id -g "$user")" --clear-groups)
    chown "$user" "$postgres_folder" "$postgres_folder/password"
  fi
  (_postgres_as_owner "$postgres_bin/initdb" -D "$postgres_folder/data" -U assets --pwfile="$postgres_folder/password" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C) >"$postgres_folder/initdb.log" 2>&1 \
    || { echo "$name: initdb failed:" >&2; cat "$postgres_folder/initdb.log" >&2; exit 1; }
  postgres_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  _postgres_run
  (_postgres_as_owner "$postgres_bin/createdb" -h "$postgres_folder" -p "$postgres_port" -U assets assets_picker)
  export ASSETS_PICKER_DATABASE_URL="postgresql://assets:$password@127.0.0.1:$postgres_port/assets_picker?sslmode=disable"
}
