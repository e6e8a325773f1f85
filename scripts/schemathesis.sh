#!/usr/bin/env bash
# Checks the picker server against its own OpenAPI document with schemathesis, live.
#
#   scripts/schemathesis.sh .build/debug/assets-picker
#
# Starts `assets-picker serve` on a free loopback port over a new demo library (in a temporary
# folder, removed afterwards) with a known client key (in its environment), and runs schemathesis twice against the
# document the server serves at /openapi.json, with every check:
#   1. every operation, all phases (examples, coverage, fuzzing, and the stateful phase, which
#      follows the document's links from a created session to polling, listing and deleting it);
#   2. the listing and base URL operations pinned to a session in which a photo and a video were
#      picked and Done was pressed (through the picker page's API, as a person would), so that
#      listings, renditions and video bytes are answered 200/206/304 and checked too.
# Fails when schemathesis reports any failure (a 5xx, an undocumented status, content type or
# header, a body off its schema, invalid input accepted, valid input refused).
#
# Schemathesis is installed with pip when it is missing (into .build/schemathesis-venv when the
# system Python refuses packages from pip). SCHEMATHESIS_EXAMPLES (default 100) bounds the test
# cases per operation and phase; the run takes about a minute. With SCHEMATHESIS_REPORT_DIR set,
# JUnit reports are written there.
set -euo pipefail

SCHEMATHESIS_VERSION=4.32.5
EXAMPLES=${SCHEMATHESIS_EXAMPLES:-100}
CLIENT_KEY=schemathesis-client-key-0123456789

if [[ $# -ne 1 || ! -x $1 ]]; then
    echo "usage: $0 <path to the assets-picker binary>" >&2
    exit 2
fi
BINARY=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [[ -n ${SCHEMATHESIS_REPORT_DIR:-} ]]; then
    mkdir -p "$SCHEMATHESIS_REPORT_DIR"
    SCHEMATHESIS_REPORT_DIR=$(cd "$SCHEMATHESIS_REPORT_DIR" && pwd)
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/assets-picker-schemathesis.XXXXXX")
SERVER_PID=
cleanup() {
    if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The schemathesis command at the pinned version: the one on PATH, the venv's, or a new install.
find_schemathesis() {
    local venv=$ROOT/.build/schemathesis-venv
    if command -v schemathesis >/dev/null && [[ $(schemathesis --version 2>/dev/null) == *" $SCHEMATHESIS_VERSION" ]]; then
        SCHEMATHESIS=$(command -v schemathesis)
    elif [[ -x $venv/bin/schemathesis ]]; then
        SCHEMATHESIS=$venv/bin/schemathesis
    elif python3 -m pip install --quiet "schemathesis==$SCHEMATHESIS_VERSION" 2>"$WORK/pip.log" \
        && command -v schemathesis >/dev/null; then
        SCHEMATHESIS=$(command -v schemathesis)
    else
        # Debian's Python refuses pip outside a virtual environment (externally-managed-environment).
        echo "installing schemathesis $SCHEMATHESIS_VERSION into $venv" >&2
        if ! python3 -m venv "$venv" 2>/dev/null; then
            rm -rf "$venv"
            if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
                apt-get update -qq >&2
                apt-get install -y --no-install-recommends python3-venv >&2
                python3 -m venv "$venv"
            else
                echo "python3 cannot make a virtual environment: install python3-venv (Debian) and run again" >&2
                exit 1
            fi
        fi
        "$venv/bin/pip" install --quiet "schemathesis==$SCHEMATHESIS_VERSION"
        SCHEMATHESIS=$venv/bin/schemathesis
    fi
}
if ! command -v python3 >/dev/null; then
    echo "schemathesis needs python3 (Debian: apt-get install python3 python3-venv)" >&2
    exit 1
fi
find_schemathesis
echo "$("$SCHEMATHESIS" --version)" >&2

# The key goes through the environment, never the command line (where `ps` shows it).
ASSETS_PICKER_CLIENT_KEY=$CLIENT_KEY ASSETS_PICKER_DEMO_LIBRARY=$WORK/library XDG_CACHE_HOME=$WORK/cache XDG_DATA_HOME=$WORK/data \
    "$BINARY" serve --host 127.0.0.1 --port 0 --json --log-level warning \
    >"$WORK/serve.json" 2>"$WORK/serve.log" &
SERVER_PID=$!

# `serve --json` prints one line once it listens (the demo library is made first): wait up to 5 minutes.
for _ in $(seq 1 1500); do
    [[ -s $WORK/serve.json ]] && break
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        echo "the server did not start:" >&2
        cat "$WORK/serve.log" >&2
        exit 1
    fi
    sleep 0.2
done
if [[ ! -s $WORK/serve.json ]]; then
    echo "the server did not listen within 5 minutes:" >&2
    cat "$WORK/serve.log" >&2
    exit 1
fi
# The first line is the announcement (later ones are sign-in links made for pages opened signed out).
PORT=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["port"])' "$WORK/serve.json")
SIGN_IN=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["signInUrl"])' "$WORK/serve.json")
BASE=http://127.0.0.1:$PORT
echo "server at $BASE (pid $SERVER_PID)" >&2

# A finished session for the second run: a client creates it, the person (signed in through the
# printed one-time link, as a browser would be) picks and presses Done.
python3 - "$BASE" "$CLIENT_KEY" "$SIGN_IN" >"$WORK/pinned.env" <<'PYTHON'
import json, sys, urllib.parse, urllib.request

base, key, sign_in = sys.argv[1], sys.argv[2], sys.argv[3]

with urllib.request.urlopen(sign_in) as response:
    person = {"Cookie": response.headers["Set-Cookie"].split(";")[0], "Origin": base}

def call(method, url, body=None, headers=person):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **headers})
    with urllib.request.urlopen(request) as response:
        return json.load(response)

session = call("POST", "/v1/sessions", {"pickingConfig": {"maxItemCount": "5"}}, {"Authorization": "Bearer " + key})
api = urllib.parse.urlparse(session["pickerUri"]).path + "api/"
roll = call("GET", api + "albums")["albums"][0]["id"]
def first(media):
    items = call("GET", api + f"albums/{urllib.parse.quote(roll, safe='')}/assets?limit=50&media={media}")["items"]
    return items[0]["id"]
photo, video = first("photo"), first("video")
for item in (photo, video):
    call("POST", api + f"selection/{item}")
call("POST", api + "done")
# Each pick's baseUrl ends in `/{content}` (its expiry); schemathesis appends nothing, so the pinned
# content is that segment with a parameter: a rendition of the photo, the video's bytes.
listed = call("GET", f"/v1/mediaItems?sessionId={session['id']}", headers={"Authorization": "Bearer " + key})["mediaItems"]
expiry = {item["id"]: item["mediaFile"]["baseUrl"].rsplit("/", 1)[1] for item in listed}
print(f"PINNED_SESSION={session['id']}\nPINNED_PHOTO={photo}\nPINNED_VIDEO={video}")
print(f"PINNED_PHOTO_CONTENT={expiry[photo]}=w64-h64\nPINNED_VIDEO_CONTENT={expiry[video]}=dv")
PYTHON
# shellcheck disable=SC1091
source "$WORK/pinned.env"

# run NAME DESCRIPTION SCHEMATHESIS-ARGUMENTS...
run() {
    local name=$1 description=$2
    shift 2
    local report=()
    if [[ -n ${SCHEMATHESIS_REPORT_DIR:-} ]]; then
        report=(--report junit --report-junit-path "$SCHEMATHESIS_REPORT_DIR/schemathesis-$name.xml")
    fi
    echo "== schemathesis: $description" >&2
    # From the scratch folder: schemathesis and hypothesis keep their caches in the current one.
    (cd "$WORK" && "$SCHEMATHESIS" "$@" --url "$BASE" \
        --header "Authorization: Bearer $CLIENT_KEY" \
        --checks all \
        --max-examples "$EXAMPLES" \
        --seed "${SCHEMATHESIS_SEED:-1}" \
        --request-timeout 60 \
        --no-color \
        "${report[@]}")
}

# The document as the server serves it (without a key).
python3 -c 'import sys, urllib.request; open(sys.argv[2], "wb").write(urllib.request.urlopen(sys.argv[1]).read())' \
    "$BASE/openapi.json" "$WORK/openapi.json"
# Listing a session's picks before the person pressed Done is a well-formed request that the
# Google Photos Picker API answers 400 FAILED_PRECONDITION (not 409): that 400 is expected.
cat >"$WORK/expected.toml" <<TOML
[[operations]]
include-path = "/v1/mediaItems"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
TOML
status=0
run all "every operation" --config-file "$WORK/expected.toml" run "$WORK/openapi.json" || status=1

# The operations of the finished session (its listing and its picks' base URLs), once with its photo
# and once with its video.
for kind in photo video; do
    item=PINNED_${kind^^}
    item=${!item}
    content=PINNED_${kind^^}_CONTENT
    content=${!content}
    cat >"$WORK/pinned.toml" <<TOML
[parameters]
"path.sessionId" = "$PINNED_SESSION"
"query.sessionId" = "$PINNED_SESSION"
"path.itemId" = "$item"
"path.content" = "$content"
TOML
    cat "$WORK/expected.toml" >>"$WORK/pinned.toml"
    run "$kind" "the $kind of a finished session" --config-file "$WORK/pinned.toml" run "$WORK/openapi.json" \
        --include-path-regex '^/v1/(sessions/\{sessionId\}|mediaItems|media/)' --exclude-method DELETE \
        --phases examples,coverage,fuzzing || status=1
done

if [[ $status -ne 0 ]]; then
    echo "schemathesis found failures; the server's log:" >&2
    tail -n 50 "$WORK/serve.log" >&2
fi
exit $status
