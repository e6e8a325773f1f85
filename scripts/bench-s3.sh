#!/usr/bin/env bash
# Times S3Storage against boto3 on moto's S3 server (the one the tests use): OBJECTS objects of
# SIZE bytes are uploaded with boto3, then boto3 and `assets-picker-bench s3` each, in turn and
# twice, list them all (pages of 1,000), read the first 64 KiB of each (a photo's EXIF, with
# If-Match) and download each whole into a folder, CONCURRENCY requests at a time. Prints the
# best of each and the ratios (ours / boto3; below 1 is faster). moto itself is the slow part
# here: the ratios say what the clients add on top of one server, not what S3 would take.
# Usage: scripts/bench-s3.sh [OBJECTS (2000)] [SIZE (1000000)] [CONCURRENCY (8)]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin:$HOME/.local/bin"
objects=${1:-2000}
size=${2:-1000000}
concurrency=${3:-8}

swift build -c release --product assets-picker-bench >&2
bench="$(swift build -c release --show-bin-path)/assets-picker-bench"

# shellcheck source=lib/moto-server.sh
. scripts/lib/moto-server.sh
work=$(mktemp -d)
trap 'stop_moto_server; rm -rf "$work"' EXIT
start_moto_server "$work/moto.log"

boto3_run() {
  python3 - "$1" "$concurrency" <<'EOF'
import concurrent.futures, json, os, sys, time
import boto3
from botocore.config import Config
target, concurrency = sys.argv[1], int(sys.argv[2])
s3 = boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"],
                  config=Config(max_pool_connections=concurrency * 2, s3={"addressing_style": "path"}))
os.makedirs(target, exist_ok=True)
start = time.perf_counter()
objects = [o for page in s3.get_paginator("list_objects_v2").paginate(Bucket="bench") for o in page.get("Contents", [])]
listing = time.perf_counter() - start
pool = concurrent.futures.ThreadPoolExecutor(concurrency)
start = time.perf_counter()
list(pool.map(lambda o: s3.get_object(Bucket="bench", Key=o["Key"], Range="bytes=0-65535", IfMatch=o["ETag"])["Body"].read(), objects))
heads = time.perf_counter() - start
start = time.perf_counter()
list(pool.map(lambda o: s3.download_file("bench", o["Key"], os.path.join(target, o["Key"].replace("/", "_"))), objects))
downloads = time.perf_counter() - start
print(json.dumps({"objects": len(objects), "bytes": sum(o["Size"] for o in objects), "listSeconds": listing,
                  "firstBytesSeconds": heads, "downloadSeconds": downloads}))
EOF
}

echo "Uploading $objects objects of $size bytes with boto3..." >&2
python3 - "$objects" "$size" "$concurrency" <<'EOF'
import concurrent.futures, os, sys
import boto3
from botocore.config import Config
count, size, concurrency = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
s3 = boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"],
                  config=Config(max_pool_connections=concurrency * 2, s3={"addressing_style": "path"}))
s3.create_bucket(Bucket="bench")
body = os.urandom(size)
with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
    list(pool.map(lambda i: s3.put_object(Bucket="bench", Key="photos/%06d.jpg" % i, Body=body), range(count)))
EOF

for round in 1 2; do
  echo "Round $round: boto3, then S3Storage..." >&2
  boto3_run "$work/boto3-$round" >>"$work/boto3.jsonl"
  rm -rf "$work/boto3-$round"
  "$bench" s3 --bucket bench --to "$work/ours-$round" --concurrency "$concurrency" >>"$work/ours.jsonl"
  rm -rf "$work/ours-$round"
done

python3 - "$work/boto3.jsonl" "$work/ours.jsonl" "$concurrency" <<'EOF'
import json, sys
boto3_runs = [json.loads(line) for line in open(sys.argv[1])]
our_runs = [json.loads(line) for line in open(sys.argv[2])]
first = our_runs[0]
print(f"{first['objects']} objects, {first['bytes'] / 1e6:.0f} MB on moto, {sys.argv[3]} at a time; best of {len(our_runs)} runs each")
print(f"{'':28}{'boto3':>10}{'S3Storage':>12}{'ratio':>8}")
for field, label in [("listSeconds", "list every object"), ("firstBytesSeconds", "first 64 KiB of each"),
                     ("downloadSeconds", "download each whole")]:
    theirs = min(run[field] for run in boto3_runs)
    ours = min(run[field] for run in our_runs)
    print(f"{label:28}{theirs:>9.2f}s{ours:>11.2f}s{ours / theirs:>8.2f}")
EOF
