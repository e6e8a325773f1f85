#!/usr/bin/env bash
# The benchmarks of issue 28 (a library in an S3-compatible bucket), against boto3 on moto's S3
# server, in one run:
#   1. `assets-picker index s3://bench/photos` (lists, reads each object's head with ranged GETs)
#      against boto3 listing and downloading the whole bucket, CONCURRENCY at a time, twice each
#      (a fresh index each time), best of each, in objects/s; then `index --previews` (which
#      fetches every original to make its preview) once, against the same boto3 download.
#   2. A client program's `=d` downloads of PICKS picked originals through `assets-picker serve
#      --library s3://bench/photos` over real HTTP (`assets-picker-bench client-originals`: the
#      person signs in and picks through the page's API, the client lists the picks), one at a
#      time: first byte and whole, not yet cached (fetched from the bucket) and cached, against
#      boto3 `get_object` of the same objects (first byte, whole; best of two). Medians.
#   3. The peak RSS of `assets-picker export --original` of EXPORTS remote originals (none cached:
#      each is fetched), and the bytes it wrote.
# The photos are OBJECTS 12-MP camera JPEGs (4000x3000 q90, EXIF with an embedded thumbnail;
# `assets-picker-bench bucket-photos`), made once into the benchmark's work folder (WORKDIR,
# default /tmp/assets-picker-bench) and reused. moto, a Python server, is most of every figure:
# the ratios say what each side adds on top of one server on loopback, not what S3 would take.
# Usage: flock /tmp/assets-picker-cpu.lock scripts/bench-s3-library.sh [OBJECTS (2000)] [CONCURRENCY (8)] [PICKS (20)] [EXPORTS (200)]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin:$HOME/.local/bin"
objects=${1:-2000}
concurrency=${2:-8}
picks=${3:-20}
exports=${4:-200}
[ "$picks" -le "$objects" ] || picks=$objects
[ "$exports" -le "$objects" ] || exports=$objects

# One product a build: `swift build` given several builds only the last.
swift build -c release --product assets-picker >&2
swift build -c release --product assets-picker-bench >&2
bin="$(swift build -c release --show-bin-path)"
ap="$bin/assets-picker" bench="$bin/assets-picker-bench"
workdir=${WORKDIR:-/tmp/assets-picker-bench}

# shellcheck source=lib/moto-server.sh
. scripts/lib/moto-server.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/assets-picker-bench-s3-library.XXXXXX")
serve_pid=""
stop_serve() {
  if [ -n "$serve_pid" ]; then
    kill "$serve_pid" 2>/dev/null || true
    wait "$serve_pid" 2>/dev/null || true
    serve_pid=""
  fi
}
trap 'stop_serve; stop_moto_server; rm -rf "$work"' EXIT
say() { echo "bench-s3-library: $*" >&2; }
now() { date +%s.%N; }
# This run's index, previews and fetched originals: never the user's.
export XDG_CACHE_HOME="$work/cache"
library=s3://bench/photos

"$bench" --workdir "$workdir" bucket-photos --count "$objects" >"$work/photos"
# Objects over 1 MB spill to moto's temporary files instead of its memory (2,000 photos are 8 GB).
export MOTO_S3_DEFAULT_KEY_BUFFER_SIZE=1048576
start_moto_server "$work/moto.log"

say "uploading $objects photos with boto3..."
python3 - "$work/photos" "$concurrency" <<'EOF'
import concurrent.futures, os, sys
import boto3
from botocore.config import Config
paths, concurrency = open(sys.argv[1]).read().split(), int(sys.argv[2])
s3 = boto3.client("s3", config=Config(max_pool_connections=concurrency * 2, s3={"addressing_style": "path"}))
s3.create_bucket(Bucket="bench")
with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
    list(pool.map(lambda path: s3.upload_file(path, "bench", "photos/" + os.path.basename(path)), paths))
EOF

# boto3 lists the bucket and downloads every object to a folder, CONCURRENCY at a time.
boto3_download() {
  python3 - "$1" "$concurrency" <<'EOF'
import concurrent.futures, json, os, sys, time
import boto3
from botocore.config import Config
target, concurrency = sys.argv[1], int(sys.argv[2])
s3 = boto3.client("s3", config=Config(max_pool_connections=concurrency * 2, s3={"addressing_style": "path"}))
os.makedirs(target, exist_ok=True)
start = time.perf_counter()
objects = [o for page in s3.get_paginator("list_objects_v2").paginate(Bucket="bench", Prefix="photos/") for o in page.get("Contents", [])]
with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
    list(pool.map(lambda o: s3.download_file("bench", o["Key"], os.path.join(target, os.path.basename(o["Key"]))), objects))
print(json.dumps({"objects": len(objects), "bytes": sum(o["Size"] for o in objects), "seconds": time.perf_counter() - start}))
EOF
}

# `index` into a fresh data folder $1 with the given flags; prints {"objects", "seconds"}.
index_library() {
  local data=$1 start end; shift
  start=$(now)
  XDG_DATA_HOME="$data" "$ap" index "$library" --json "$@" >"$work/index.json" 2>"$work/index.log" \
    || { cat "$work/index.log" >&2; exit 1; }
  end=$(now)
  python3 - "$work/index.json" "$start" "$end" <<'EOF'
import json, sys
summary = json.load(open(sys.argv[1]))
print(json.dumps({"summary": summary, "seconds": float(sys.argv[3]) - float(sys.argv[2])}))
EOF
}

for round in 1 2; do
  say "round $round: boto3 downloads the bucket, then index lists it and reads the heads..."
  boto3_download "$work/boto3" >>"$work/boto3-download.jsonl"
  rm -rf "$work/boto3"
  index_library "$work/index-$round" >>"$work/index.jsonl"
  rm -rf "$work/index-$round"
done
say "index --previews (fetches every original)..."
index_library "$work/library" --previews >"$work/previews.json"
export XDG_DATA_HOME="$work/library"
# The originals fetched into the cache beside the index: their bytes, and forgetting them.
cached_originals() {
  python3 - "$XDG_DATA_HOME" <<'EOF'
import os, sys
print(sum(os.path.getsize(os.path.join(root, name)) for root, _, names in os.walk(sys.argv[1])
          if "library-originals" in root.split(os.sep) and ".partial" not in root.split(os.sep) for name in names))
EOF
}
forget_originals() { find "$XDG_DATA_HOME" -type d -name library-originals -prune -exec rm -rf {} +; }

say "serve: $picks picks downloaded through =d by a client, not yet cached then cached..."
forget_originals
client_key=$(python3 -c "import secrets; print(secrets.token_hex(24))")
export ASSETS_PICKER_CLIENT_KEY="$client_key"
"$ap" serve --library "$library" --port 0 --json --no-watch --log-level error >"$work/announcement.json" 2>"$work/serve.log" &
serve_pid=$!
for _ in $(seq 600); do
  [ -s "$work/announcement.json" ] && break
  kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
  sleep 0.1
done
[ -s "$work/announcement.json" ] || { echo "bench-s3-library: serve did not announce itself" >&2; exit 1; }
announced() { python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())[sys.argv[2]])" "$work/announcement.json" "$1"; }
"$bench" client-originals --server "$(announced url)" --sign-in "$(announced signInUrl)" --picks "$picks" --rounds 2 >"$work/client.json"
stop_serve
cached_originals >"$work/client-fetched"
unset ASSETS_PICKER_CLIENT_KEY

say "boto3 get_object of the same $picks objects, one at a time, twice..."
python3 - "$work/client.json" <<'EOF' >"$work/boto3-get.json"
import json, sys, time
import boto3
from botocore.config import Config
s3 = boto3.client("s3", config=Config(s3={"addressing_style": "path"}))
names = [pick["filename"] for pick in json.load(open(sys.argv[1]))["picks"]]
picks = []
for name in names:
    picks.append({"filename": name, "downloads": []})
for _ in range(2):
    for pick in picks:
        start = time.perf_counter()
        body = s3.get_object(Bucket="bench", Key="photos/" + pick["filename"])["Body"]
        first = body.read(1)
        first_byte = time.perf_counter() - start
        size = len(first) + len(body.read())
        pick["downloads"].append({"firstByteSeconds": first_byte, "wholeSeconds": time.perf_counter() - start, "bytes": size})
print(json.dumps({"picks": picks}))
EOF

say "export --original of $exports remote originals (none cached), its peak RSS..."
forget_originals
"$ap" assets --library "$library" --sort oldest --limit "$exports" --json >"$work/assets.json"
mapfile -t ids < <(python3 -c '
import json, sys
data = json.load(open(sys.argv[1]))
for asset in (data["assets"] if isinstance(data, dict) else data): print(asset["id"])' "$work/assets.json")
start=$(now)
"$bench" peak-rss --log "$work/export.log" -- "$ap" export --library "$library" --original --out "$work/export" --asset "${ids[@]}" \
  >"$work/export-rss" || { cat "$work/export.log" >&2; exit 1; }
end=$(now)
python3 - "$work/export" "$(cat "$work/export-rss")" "$start" "$end" "${#ids[@]}" "$(cached_originals)" >"$work/export.json" <<'EOF'
import json, os, sys
folder, kib, start, end, count, fetched = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
files = [os.path.join(root, name) for root, _, names in os.walk(folder) for name in names]
print(json.dumps({"assets": count, "files": len(files), "bytes": sum(os.path.getsize(f) for f in files),
                  "peakKiB": kib, "seconds": end - start, "fetchedBytes": fetched}))
EOF

python3 - "$work" "$concurrency" <<'EOF'
import json, os, statistics, sys
work, concurrency = sys.argv[1], sys.argv[2]
def lines(name): return [json.loads(line) for line in open(os.path.join(work, name))]
def load(name): return json.load(open(os.path.join(work, name)))
downloads, indexes = lines("boto3-download.jsonl"), lines("index.jsonl")
previews, export = load("previews.json"), load("export.json")
ours, theirs = load("client.json")["picks"], load("boto3-get.json")["picks"]

best_download = min(downloads, key=lambda run: run["seconds"])
count, megabytes = best_download["objects"], best_download["bytes"] / 1e6
best_index = min(indexes, key=lambda run: run["seconds"])
for run in indexes + [previews]:
    summary = run["summary"]
    if summary["added"] != count or summary["failed"]:
        sys.exit(f"bench-s3-library: index added {summary['added']} photos of {count}; failed: {summary['failed'][:3]}")
if previews["summary"]["previews"]["made"] != count:
    sys.exit(f"bench-s3-library: index --previews made {previews['summary']['previews']} previews for {count} photos")
print(f"{count} photos (12 MP, 4000x3000 q90 JPEG, EXIF + thumbnail), {megabytes:,.0f} MB on moto; "
      f"boto3 {concurrency} at a time, index its own 4 a core; best of {len(indexes)} (--previews: 1 run)")
print()
print(f"{'index the bucket (objects/s)':44}{'boto3':>10}{'ours':>10}{'ours/boto3':>12}")
rate = lambda run: count / run["seconds"]
print(f"{'index s3://… vs boto3 list + download all':44}{rate(best_download):>10.1f}{rate(best_index):>10.1f}"
      f"{rate(best_index) / rate(best_download):>11.2f}x")
print(f"{'index --previews vs the same download':44}{rate(best_download):>10.1f}{rate(previews):>10.1f}"
      f"{rate(previews) / rate(best_download):>11.2f}x")
print(f"{'  (seconds)':44}{best_download['seconds']:>10.2f}{best_index['seconds']:>10.2f}   --previews {previews['seconds']:.2f}")
print()

def median(picks, field, round=None):
    values = [p["downloads"][round][field] if round is not None else min(d[field] for d in p["downloads"]) for p in picks]
    return statistics.median(values) * 1000
print(f"{'one original, one at a time (median ms, ' + str(len(ours)) + ' picks)':44}{'boto3':>10}{'=d':>10}{'=d/boto3':>12}")
for field, label in [("firstByteSeconds", "first byte"), ("wholeSeconds", "whole")]:
    peer = median(theirs, field)
    for round, state in [(0, "not yet cached"), (1, "cached")]:
        mine = median(ours, field, round)
        print(f"{label + ', ' + state:44}{peer:>10.1f}{mine:>10.1f}{mine / peer:>12.2f}")
sizes = {p["filename"]: p["downloads"][0]["bytes"] for p in theirs}
print(f"{'  (bytes: =d / the object, median)':44}{statistics.median(p['downloads'][0]['bytes'] / sizes[p['filename']] for p in ours):>32.4f}")
fetched = int(open(os.path.join(work, "client-fetched")).read())
print(f"  (serve fetched {fetched / 1e6:.0f} MB into its cache for the picks' {sum(sizes.values()) / 1e6:.0f} MB)")
print()
peak = export["peakKiB"] * 1024 / 1e6
print(f"export --original of {export['assets']} remote originals: peak RSS {peak:.0f} MB "
      f"({'within' if peak <= 200 else 'OVER'} 200 MB), {export['files']} files, {export['bytes'] / 1e6:,.0f} MB written "
      f"in {export['seconds']:.1f} s ({export['bytes'] / 1e6 / export['seconds']:.0f} MB/s); "
      f"{export['fetchedBytes'] / 1e6:,.0f} MB fetched into the cache")
EOF
