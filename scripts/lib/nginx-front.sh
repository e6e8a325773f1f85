# Starts nginx in front of several `assets-picker serve` processes, on its own configuration
# (scripts/lib/nginx-front.conf) in a folder of this run's, never Debian's. Source it, then:
#   start_nginx_front FOLDER PORT UPSTREAM_PORT...
# It sets $nginx_pid once nginx listens on 127.0.0.1:PORT. The caller's EXIT trap calls
# stop_nginx_front.

nginx_pid=""

stop_nginx_front() {
  if [ -n "$nginx_pid" ]; then
    kill -QUIT "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
    nginx_pid=""
  fi
}

start_nginx_front() {
  local name folder=$1 port=$2 upstreams="" user="" upstream
  shift 2
  name=$(basename "$0")
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { echo "$name: nginx is missing; run make dependencies" >&2; exit 1; }
  mkdir -p "$folder"
  for upstream in "$@"; do upstreams+="server 127.0.0.1:$upstream max_fails=1 fail_timeout=5s; "; done
  if [ "$(id -u)" -eq 0 ]; then user="user $(id -un) $(id -gn);"; fi
  sed -e "s|@FOLDER@|$folder|g" -e "s|@PORT@|$port|g" -e "s|@UPSTREAMS@|$upstreams|" -e "s|@USER@|$user|" \
    "$(dirname "${BASH_SOURCE[0]}")/nginx-front.conf" >"$folder/nginx.conf"
  PATH="$PATH:/usr/sbin" nginx -p "$folder" -c "$folder/nginx.conf" -e "$folder/error.log" &
  nginx_pid=$!
  for _ in $(seq 1 300); do
    if python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close()' "$port" 2>/dev/null; then
      return 0
    fi
    kill -0 "$nginx_pid" 2>/dev/null || { echo "$name: nginx exited:" >&2; cat "$folder/error.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "$name: nginx did not listen on $port" >&2; exit 1
}
