# Starts `assets-picker serve` on a fresh demo library, for the scripts that drive it from outside
# (scripts/e2e.sh, scripts/google-client.sh). Source it, then:
#   start_demo_server BINARY
# It makes a temporary folder ($workdir: the demo library in $workdir/demo, its own empty caches),
# starts the server on a free loopback port with a new client key in its environment (never on
# the command line, where `ps` shows it), waits until it listens and sets $base, $sign_in and
# $client_key. The server is stopped and the folder removed when the script exits.

workdir=""
server_pid=""
stop_demo_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  [ -z "$workdir" ] || rm -rf "$workdir"
}

start_demo_server() {
  local binary=$1 name
  name=$(basename "$0" .sh)
  workdir=$(mktemp -d "${TMPDIR:-/tmp}/assets-picker-$name.XXXXXX")
  trap stop_demo_server EXIT
  trap 'exit 130' INT TERM
  client_key=$(python3 -c "import secrets; print(secrets.token_hex(24))")
  ASSETS_PICKER_CLIENT_KEY="$client_key" ASSETS_PICKER_DEMO_LIBRARY="$workdir/demo" XDG_CACHE_HOME="$workdir/cache" \
    XDG_DATA_HOME="$workdir/data" "$binary" serve --port 0 --json >"$workdir/announcement.json" 2>"$workdir/server.log" &
  server_pid=$!

  # The announcement line appears once the server listens (the demo library is made first).
  for _ in $(seq 600); do
    [ -s "$workdir/announcement.json" ] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then
      echo "$name: the server exited before it listened; its log:" >&2
      cat "$workdir/server.log" >&2
      exit 1
    fi
    sleep 0.2
  done
  if [ ! -s "$workdir/announcement.json" ]; then
    echo "$name: the server did not announce itself within 120 s; its log:" >&2
    cat "$workdir/server.log" >&2
    exit 1
  fi
  # The first line is the announcement (later ones are sign-in links made for pages opened signed out).
  announced() { python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())[sys.argv[2]])" "$workdir/announcement.json" "$1"; }
  base=$(announced url)
  sign_in=$(announced signInUrl)
  echo "$name: server at $base (demo library in $workdir/demo)"
}
