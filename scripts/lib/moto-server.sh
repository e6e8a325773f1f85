# Starts moto's S3 server (the one the tests use) on a free loopback port, for the benchmarks
# that time clients against it (scripts/bench-s3.sh, scripts/bench-s3-library.sh). Source it, then:
#   start_moto_server LOG
# It checks that moto_server and boto3 are installed, starts the server with its output in LOG,
# waits until it listens, sets $moto_pid and exports AWS_ENDPOINT_URL and test keys for both
# boto3 and assets-picker. The caller's EXIT trap calls stop_moto_server.

moto_pid=""
stop_moto_server() {
  if [ -n "$moto_pid" ]; then
    kill "$moto_pid" 2>/dev/null || true
    wait "$moto_pid" 2>/dev/null || true
    moto_pid=""
  fi
}

start_moto_server() {
  local log=$1 name port=""
  name=$(basename "$0")
  command -v moto_server >/dev/null 2>&1 || { echo "$name: moto_server is missing; run make dependencies" >&2; exit 1; }
  python3 -c "import boto3" 2>/dev/null || { echo "$name: boto3 is missing (it comes with moto); run make dependencies" >&2; exit 1; }
  moto_server -H 127.0.0.1 -p 0 >"$log" 2>&1 &
  moto_pid=$!
  for _ in $(seq 1 300); do
    port=$(grep -o 'Running on http://127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    [ -n "$port" ] && break
    kill -0 "$moto_pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$port" ] || { echo "$name: moto_server printed no port" >&2; exit 1; }
  export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
}
