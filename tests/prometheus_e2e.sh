#!/usr/bin/env bash
# End to end against a real Prometheus (Debian's `prometheus` package, with promtool): a
# config of six twin pairs is split over two exporters, `dgscope serve --all-profiles
# --shard 1/2` and `--shard 2/2`, found by Prometheus through the file_sd targets `dgscope
# config sd` prints, and scraped every second on 127.0.0.1 for 90 s. Then, through the
# Prometheus HTTP API: every pair appears exactly once across the shards, the recording and
# alert rules work across them, the p99 of log file sync per pair lies in the bucket
# `dgscope check` finds for the same scenario over 90 s, the finding standby-redo-write-slow
# is 1 for the slow-srl pair only, and the rules load and pass their unit tests. Every process is stopped on every exit path; every wait is
# bounded; nothing listens beyond 127.0.0.1.
#
# Usage: tests/prometheus_e2e.sh   (DGSCOPE_BIN=path to use another binary; E2E_DATA_S=90)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

DATA_S=${E2E_DATA_S:-90}
BIN=${DGSCOPE_BIN:-$ROOT/target/debug/dgscope}
say() { echo "e2e: $*"; }
fail() { echo "e2e: FAIL: $*" >&2; exit 1; }

for tool in prometheus promtool curl jq awk; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found (the Debian packages prometheus, curl, jq provide them)"
done
if [ ! -x "$BIN" ]; then
  say "building $BIN"
  cargo build --quiet
fi
say "$(prometheus --version 2>&1 | head -1)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/dgscope-e2e.XXXXXX")
SERVE_PID=""
PROM_PID=""
cleanup() {
  local rc=$?
  for pid in $PROM_PID $SERVE_PID; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  wait 2>/dev/null || true
  if [ "$rc" -ne 0 ]; then
    for f in serve1.log serve2.log prometheus.log; do
      [ -f "$TMP/$f" ] && { echo "--- $f (tail)"; tail -n 20 "$TMP/$f"; }
    done
  fi
  rm -rf "$TMP"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the rules load and pass their unit tests
say "promtool check rules"
promtool check rules contrib/prometheus/dgscope.rules.yml
say "promtool test rules"
(cd contrib/prometheus && promtool test rules dgscope.rules.test.yml)

# --- two shards of one config, each dgscope serve on a port the kernel picks
PAIRS="twin-slow-srl twin-healthy-sync east west north south"
cat >"$TMP/dgscope.toml" <<TOML
[profiles.twin-slow-srl]
scenario = "slow-srl"
[profiles.twin-healthy-sync]
scenario = "healthy-sync"
[profiles.east]
scenario = "healthy-async"
[profiles.west]
scenario = "fastsync"
[profiles.north]
scenario = "healthy-sync"
[profiles.south]
scenario = "healthy-async"
TOML
TARGETS=()
SHARD_PAIRS=()
for k in 1 2; do
  "$BIN" --config "$TMP/dgscope.toml" serve --all-profiles --shard "$k/2" \
    --web.listen-address 127.0.0.1:0 2>"$TMP/serve$k.log" >/dev/null &
  SERVE_PID="$SERVE_PID $!"
  pid=$!
  URL=""
  for _ in $(seq 200); do
    URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*/metrics' "$TMP/serve$k.log" | head -1 || true)
    [ -n "$URL" ] && break
    kill -0 "$pid" 2>/dev/null || fail "dgscope serve --shard $k/2 exited: $(cat "$TMP/serve$k.log")"
    sleep 0.1
  done
  [ -n "$URL" ] || fail "dgscope serve --shard $k/2 did not say where it listens within 20 s"
  t=${URL#http://}
  TARGETS+=("${t%/metrics}")
  served=$(grep -o 'pair(s): .*' "$TMP/serve$k.log" | head -1 | sed 's/^pair(s): //')
  SHARD_PAIRS+=("$served")
  say "shard $k/2 listens on ${t%/metrics} and serves: ${served:-no pair}"
  [ -n "$served" ] || fail "shard $k/2 serves no pair: the test needs both shards in use"
  curl -sf --max-time 5 "$URL" -o "$TMP/scrape$k.txt" || fail "GET $URL failed"
  promtool check metrics <"$TMP/scrape$k.txt" || fail "promtool check metrics rejects shard $k's exposition"
done
say "promtool check metrics: both shards' text expositions are clean"
# Every pair on exactly one shard, by the exporters' own word.
both=$(printf '%s, %s' "${SHARD_PAIRS[0]}" "${SHARD_PAIRS[1]}" | tr ',' '\n' | sed 's/^ *//' | sort | tr '\n' ' ')
want=$(echo $PAIRS | tr ' ' '\n' | sort | tr '\n' ' ')
[ "$both" = "$want" ] || fail "the shards serve [$both], expected each of [$want] once"
"$BIN" config sd --shards 2 --listen "${TARGETS[0]}" --listen "${TARGETS[1]}" >"$TMP/dgscope-sd.json"
jq -e 'length == 2 and .[1].labels.dgscope_shard == "2/2"' "$TMP/dgscope-sd.json" >/dev/null \
  || fail "config sd wrote $(cat "$TMP/dgscope-sd.json")"

# --- Prometheus: a free port on 127.0.0.1, a scrape every second, the rules loaded
PROM_PORT=""
for _ in $(seq 50); do
  p=$((20000 + RANDOM % 20000))
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then PROM_PORT=$p; break; fi
done
[ -n "$PROM_PORT" ] || fail "no free port for Prometheus"
cat >"$TMP/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $ROOT/contrib/prometheus/dgscope.rules.yml
scrape_configs:
  - job_name: dgscope
    scrape_interval: 1s
    scrape_timeout: 900ms
    file_sd_configs:
      - files: ['$TMP/dgscope-sd.json']
        refresh_interval: 5s
YML
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
  --web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn \
  >"$TMP/prometheus.log" 2>&1 &
PROM_PID=$!
API="http://127.0.0.1:$PROM_PORT"
for _ in $(seq 300); do
  curl -sf --max-time 2 "$API/-/ready" >/dev/null 2>&1 && break
  kill -0 "$PROM_PID" 2>/dev/null || fail "prometheus exited"
  sleep 0.1
done
curl -sf --max-time 2 "$API/-/ready" >/dev/null || fail "prometheus not ready within 30 s"
say "prometheus ready on 127.0.0.1:$PROM_PORT"

query() { # PromQL → the API's JSON result array
  curl -sf --max-time 10 -G "$API/api/v1/query" --data-urlencode "query=$1" | jq -c '.data.result'
}
scalar() { # PromQL with one result → its value ("" when none)
  query "$1" | jq -r 'if length == 1 then .[0].value[1] else "" end'
}

# --- 90 s of data, bounded
need=$DATA_S
deadline=$((SECONDS + DATA_S + 60))
while :; do
  have=$(scalar "count_over_time(dgscope_up{pair=\"twin-slow-srl\",slot=\"primary\"}[10m])")
  [ -n "$have" ] && [ "${have%.*}" -ge "$need" ] && break
  [ "$SECONDS" -lt "$deadline" ] || fail "only ${have:-0} scrapes after $((DATA_S + 60)) s"
  sleep 2
done
say "$have scrapes of each pair in Prometheus"
[ "$(scalar 'count(up{job="dgscope"} == 1)')" = "2" ] || fail "the two shards are not both up"
created=$(query 'dgscope_user_commits_created' | jq 'length')
say "OpenMetrics negotiated: $created dgscope_user_commits_created series ingested"
[ "$created" -ge 2 ] || fail "no _created series: Prometheus did not get OpenMetrics"

failures=0
# promtool check rules, test rules and check metrics passed above (each exits on failure).
checks=3
# --- the shards: each pair exactly once, from the shard it hashes to
per_pair=$(query 'count by (pair) (dgscope_up{slot="primary"})' | jq -r '[.[] | select(.value[1] == "1") | .metric.pair] | sort | join(" ")')
say "pairs in Prometheus, each from one shard: $per_pair"
checks=$((checks + 1))
[ "$per_pair" = "$(echo $want)" ] || { echo "e2e: FAIL: expected [$want] once each" >&2; failures=$((failures + 1)); }
shards=$(query 'count by (dgscope_shard) (dgscope_up{slot="primary"})' | jq -r '[.[] | .metric.dgscope_shard + "=" + .value[1]] | sort | join(" ")')
say "pairs per shard (file_sd label): $shards"
checks=$((checks + 1))
case "$shards" in "1/2="*" 2/2="*) ;; *) failures=$((failures + 1)) ;; esac
# The recording rules aggregate by pair, not by exporter: one commit series per pair.
rec=$(scalar 'count(dgscope:commit_milliseconds)')
say "dgscope:commit_milliseconds series across the shards: ${rec:-none}"
checks=$((checks + 1))
[ "$rec" = "6" ] || failures=$((failures + 1))
# The alert rule for a WARN finding holds (pending its 10 m) for the slow-srl pair only.
pending=$(query 'ALERTS{alertname="DgscopeFindingWarning"}' | jq -r '[.[].metric.pair] | unique | join(",")')
say "DgscopeFindingWarning pending or firing for: ${pending:-no pair}"
checks=$((checks + 1))
[ "$pending" = "twin-slow-srl" ] || failures=$((failures + 1))

# --- p99 of log file sync: Prometheus vs `dgscope check` for the same scenario
for scenario in slow-srl healthy-sync; do
  pair="twin-$scenario"
  # check's histogram over 90 s: the difference of a 15 s run and a 105 s run (same seed,
  # virtual time; check refuses to judge less than the 15 s a finding needs), and the bucket
  # holding its 99th percentile.
  sel="slot=\"primary\",event=\"log file sync\""
  for d in 15 105; do
    "$BIN" check --twin "$scenario" --duration "${d}s" --format openmetrics >"$TMP/check$d.om" || true
    grep "^dgscope_wait_event_duration_seconds_bucket{pair=\"$pair\",.*$sel" "$TMP/check$d.om" \
      | sed 's/.*le="\([^"]*\)"} \([0-9]*\)$/\1 \2/' >"$TMP/b$d"
  done
  [ -s "$TMP/b15" ] && [ -s "$TMP/b105" ] || fail "dgscope check wrote no log file sync histogram for $scenario"
  read -r lower upper < <(paste "$TMP/b15" "$TMP/b105" | awk '
    { le[NR] = $1; c[NR] = $4 - $2 }
    END {
      total = c[NR]; lo = 0
      for (i = 1; i <= NR; i++) { if (c[i] >= 0.99 * total) { print lo, le[i]; exit } ; lo = le[i] }
    }')
  q=$(scalar "histogram_quantile(0.99, sum by (le) (rate(dgscope_wait_event_duration_seconds_bucket{pair=\"$pair\",$sel}[${DATA_S}s])))")
  [ -n "$q" ] || fail "no p99 from Prometheus for $pair"
  ok=$(awk -v q="$q" -v lo="$lower" -v hi="$upper" 'BEGIN { print (q >= lo && q <= hi) ? "yes" : "no" }')
  say "$pair: log file sync p99 from Prometheus ${q} s; dgscope check puts p99 in the bucket ($lower, $upper] s: $ok"
  checks=$((checks + 1))
  [ "$ok" = yes ] || failures=$((failures + 1))
done

# --- the finding, per pair
raised=$(query 'dgscope_finding{id="standby-redo-write-slow"} == 1' | jq -r '[.[].metric.pair] | sort | join(",")')
say "dgscope_finding{id=\"standby-redo-write-slow\"} == 1 for: ${raised:-no pair}"
checks=$((checks + 1))
[ "$raised" = "twin-slow-srl" ] || { echo "e2e: FAIL: expected the slow-srl pair only" >&2; failures=$((failures + 1)); }
lag=$(query 'dgscope_apply_lag_seconds' | jq 'length')
say "apply lag gauges in Prometheus: $lag (one per standby)"
checks=$((checks + 1))
[ "$lag" = 6 ] || failures=$((failures + 1))
# --- impact: what the finding explains, and where the commit time goes (the recording rule
# over the parts, which sum to the average)
share=$(scalar 'dgscope_finding_impact_ratio{pair="twin-slow-srl",id="standby-redo-write-slow",symptom="commit"}')
say "standby-redo-write-slow explains ${share:-no} of twin-slow-srl's log file sync"
checks=$((checks + 1))
ok=$(awk -v s="${share:-0}" 'BEGIN { print (s >= 0.25 && s <= 1) ? "yes" : "no" }')
[ "$ok" = yes ] || failures=$((failures + 1))
rfs=$(scalar 'dgscope:commit_component:share{pair="twin-slow-srl",component="remote-rfs"}')
sum=$(scalar 'sum(dgscope:commit_component:share{pair="twin-slow-srl"})')
say "twin-slow-srl: the standby's RFS write is ${rfs:-no} of its commit time; the parts' shares sum to ${sum:-nothing}"
checks=$((checks + 1))
ok=$(awk -v r="${rfs:-0}" -v s="${sum:-0}" 'BEGIN { print (r > 0.3 && s > 0.999 && s < 1.001) ? "yes" : "no" }')
[ "$ok" = yes ] || failures=$((failures + 1))
rules=$(curl -sf --max-time 5 "$API/api/v1/rules" | jq '[.data.groups[].rules[]] | length')
in_file=$(grep -cE '^ *- (alert|record):' contrib/prometheus/dgscope.rules.yml)
say "Prometheus loaded $rules alert and recording rules of the $in_file in contrib/prometheus/dgscope.rules.yml"
checks=$((checks + 1))
[ "$rules" = "$in_file" ] || failures=$((failures + 1))
# dgscope itself is up, so neither of the rules about its own absence is firing.
down=$(query 'ALERTS{alertname=~"DgscopeExporterDown|DgscopeAbsent"}' | jq 'length')
say "alerts about dgscope's own absence firing: $down"
checks=$((checks + 1))
[ "$down" = 0 ] || failures=$((failures + 1))

echo "prometheus-e2e: $((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ] || fail "$failures comparison(s) failed"
say "PASS"
