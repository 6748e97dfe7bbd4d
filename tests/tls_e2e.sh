#!/usr/bin/env bash
# `dgscope serve --web.config.file` end to end, with the real tools an operator uses: a CA and
# a server certificate made by openssl, a bcrypt hash made by htpasswd (apache2-utils), curl
# over TLS, and a real Prometheus scraping through TLS with basic auth. Every process is
# stopped on every exit path; every wait is bounded; nothing listens beyond 127.0.0.1.
#
# Usage: tests/tls_e2e.sh   (DGSCOPE_BIN=path to use another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=${DGSCOPE_BIN:-$ROOT/target/debug/dgscope}
say() { echo "tls-e2e: $*"; }
fail() { echo "tls-e2e: FAIL: $*" >&2; exit 1; }

for tool in openssl htpasswd curl prometheus jq; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found (Debian: openssl, apache2-utils, curl, prometheus, jq)"
done
if [ ! -x "$BIN" ]; then
  say "building $BIN"
  cargo build --quiet
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/dgscope-tls.XXXXXX")
PIDS=""
cleanup() {
  local rc=$?
  for pid in $PIDS; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  wait 2>/dev/null || true
  if [ "$rc" -ne 0 ]; then
    for f in serve.log prometheus.log; do
      [ -f "$TMP/$f" ] && { echo "--- $f (tail)"; tail -n 20 "$TMP/$f"; }
    done
  fi
  rm -rf "$TMP"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cd "$TMP"

# --- a CA and a server certificate for localhost / 127.0.0.1, as an operator makes them
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout ca.key -out ca.pem -days 2 -subj /CN=dgscope-test-ca 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout server.key -out server.csr -subj /CN=localhost 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >ext.cnf
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
  -out server.pem -days 2 -extfile ext.cnf 2>/dev/null
PASS='s3cret pass'
HASH=$(htpasswd -nbBC 10 prom "$PASS" | cut -d: -f2)
# Relative file names: read relative to the configuration's own directory.
mkdir conf
mv server.pem server.key conf/
cat >conf/web.yml <<YML
tls_server_config:
  cert_file: server.pem
  key_file: server.key
basic_auth_users:
  prom: '$HASH'
YML
say "$(openssl version); htpasswd made a bcrypt hash ${HASH:0:7}…"

# --- dgscope serve with it, on a port the kernel picks
"$BIN" serve --twin healthy-sync --web.listen-address 127.0.0.1:0 \
  --web.config.file "$TMP/conf/web.yml" 2>serve.log >/dev/null &
PIDS="$!"
URL=""
for _ in $(seq 200); do
  URL=$(grep -o 'https://127\.0\.0\.1:[0-9]*/metrics' serve.log | head -1 || true)
  [ -n "$URL" ] && break
  kill -0 "$PIDS" 2>/dev/null || fail "dgscope serve exited: $(cat serve.log)"
  sleep 0.1
done
[ -n "$URL" ] || fail "dgscope serve did not say where it listens within 20 s"
grep -q 'basic auth for 1 user' serve.log || fail "the start line does not say basic auth is on: $(cat serve.log)"
TARGET=${URL#https://}
TARGET=${TARGET%/metrics}
say "dgscope serve listens on $URL"

checks=0
code() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@" || true; }
expect() { # WHAT WANT GOT
  checks=$((checks + 1))
  [ "$2" = "$3" ] || fail "$1: got $3, want $2"
  say "$1: $3"
}
expect "no credentials" 401 "$(code --cacert ca.pem "$URL")"
expect "a wrong password" 401 "$(code --cacert ca.pem -u prom:wrong "$URL")"
expect "an unknown user" 401 "$(code --cacert ca.pem -u nobody:"$PASS" "$URL")"
expect "the landing page without credentials" 401 "$(code --cacert ca.pem "https://$TARGET/")"
expect "the user and its password" 200 "$(code --cacert ca.pem -u "prom:$PASS" "$URL")"
expect "an untrusted certificate (no --cacert)" 000 "$(code -u "prom:$PASS" "$URL")"
expect "plain HTTP to the TLS port" 000 "$(code -u "prom:$PASS" "http://$TARGET/metrics")"
expect "TLS 1.2 only" 200 "$(code --cacert ca.pem --tlsv1.2 --tls-max 1.2 -u "prom:$PASS" "$URL")"
checks=$((checks + 1))
# To a file, then grep: grep -q stopping early would break curl's pipe (pipefail).
curl -sf --max-time 5 --cacert ca.pem -u "prom:$PASS" "$URL" -o scrape.txt \
  || fail "GET $URL with the user failed"
grep -q '^dgscope_up{' scrape.txt || fail "the exposition over TLS has no dgscope_up"
say "the exposition over TLS has dgscope_up"

# --- Prometheus scraping through TLS with basic auth; a second job with a wrong password
PROM_PORT=""
for _ in $(seq 50); do
  p=$((20000 + RANDOM % 20000))
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then PROM_PORT=$p; break; fi
done
[ -n "$PROM_PORT" ] || fail "no free port for Prometheus"
printf '%s' "$PASS" >password
printf 'wrong' >wrong
cat >prometheus.yml <<YML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: dgscope-tls
    scheme: https
    scrape_timeout: 900ms
    tls_config:
      ca_file: $TMP/ca.pem
    basic_auth:
      username: prom
      password_file: $TMP/password
    static_configs:
      - targets: ['$TARGET']
  - job_name: dgscope-wrong-password
    scheme: https
    scrape_timeout: 900ms
    tls_config:
      ca_file: $TMP/ca.pem
    basic_auth:
      username: prom
      password_file: $TMP/wrong
    static_configs:
      - targets: ['$TARGET']
YML
prometheus --config.file=prometheus.yml --storage.tsdb.path=tsdb \
  --web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >prometheus.log 2>&1 &
PIDS="$PIDS $!"
API="http://127.0.0.1:$PROM_PORT"
scalar() {
  curl -sf --max-time 5 -G "$API/api/v1/query" --data-urlencode "query=$1" \
    | jq -r '.data.result | if length == 1 then .[0].value[1] else "" end'
}
good="" bad=""
for _ in $(seq 60); do
  good=$(scalar 'up{job="dgscope-tls"}' 2>/dev/null || true)
  bad=$(scalar 'up{job="dgscope-wrong-password"}' 2>/dev/null || true)
  [ "$good" = 1 ] && [ "$bad" = 0 ] && break
  sleep 1
done
expect "Prometheus over TLS with basic auth: up" 1 "$good"
expect "Prometheus with a wrong password: up" 0 "$bad"
series=$(scalar 'count(dgscope_up{job="dgscope-tls"})')
expect "dgscope_up series scraped through TLS" 2 "$series"
why=$(curl -sf --max-time 5 "$API/api/v1/targets" \
  | jq -r '.data.activeTargets[] | select(.labels.job == "dgscope-wrong-password") | .lastError')
checks=$((checks + 1))
case "$why" in *401*) say "the wrong password's scrape error: $why" ;; *) fail "wrong password, error: $why" ;; esac

echo "tls-e2e: $checks passed"
say "PASS"
