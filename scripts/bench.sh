#!/usr/bin/env bash
# The scale table of issue 15, measured through the CLI on the local
# in-process emulator: for each N, generated Services over 20 standard load
# balancers (azsvc bench-fixture), and per command its wall time, CPU time
# (user+sys), peak RSS and the emulator's request counts (azsvc -v).
#
#   scripts/bench.sh                  # N = 1000 5000 10000 (a few minutes)
#   scripts/bench.sh 1000 4000        # any Ns; ratios are against the first
#   BENCH_DIR=/tmp/b scripts/bench.sh # keep the fixtures and state files
#   BENCH_BIN=/tmp/old/azsvc scripts/bench.sh  # measure another build (before/after)
#
# Commands, per N (each on its own state file):
#   plan-empty   azsvc plan over an empty emulator
#   apply-empty  azsvc apply --auto-approve over an empty emulator
#   replan       azsvc plan again after that apply (must find no changes)
#   plan-1pct    azsvc plan after 1% of the Services changed port
#
# Not part of CI: the numbers depend on the machine and its load, which
# the script prints with them.
set -euo pipefail
cd "$(dirname "$0")/.."

ns=("$@")
[ ${#ns[@]} -gt 0 ] || ns=(1000 5000 10000)
bin=${BENCH_BIN:-bin/azsvc}
timefmt='%e %U %S %M'
command -v /usr/bin/time >/dev/null || { echo "bench: needs GNU time at /usr/bin/time" >&2; exit 1; }

if [ -z "${BENCH_BIN:-}" ]; then
	echo "building $bin" >&2
	go build -o "$bin" ./cmd/azsvc
fi

dir=${BENCH_DIR:-$(mktemp -d -t azsvc-bench.XXXXXX)}
[ -n "${BENCH_DIR:-}" ] || trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir"

# run NAME WANT_EXIT ARGS...: runs azsvc under GNU time and appends a row
# "N name wall cpu rss_mb requests writes polls reads" to $dir/rows.
run() {
	local n=$1 name=$2 want=$3
	shift 3
	local log="$dir/$n/$name.log" tf="$dir/$n/$name.time"
	set +e
	/usr/bin/time -f "$timefmt" -o "$tf" "$bin" -v "$@" >"$dir/$n/$name.out" 2>"$log"
	local code=$?
	set -e
	if [ "$code" != "$want" ]; then
		echo "bench: $name at N=$n exited $code, want $want; see $log" >&2
		tail -5 "$log" >&2
		exit 1
	fi
	local stats
	stats=$(grep -o 'emulator requests=.*' "$log" | tail -1)
	awk -v n="$n" -v name="$name" -v stats="$stats" '{
		split(stats, kv, " "); for (i in kv) { split(kv[i], p, "="); c[p[1]] = p[2] }
		printf "%s %s %.2f %.2f %.0f %d %d %d %d\n", n, name, $1, $2 + $3, $4 / 1024,
			c["requests"], c["put"] + c["patch"] + c["delete"] + c["post"], c["poll"], c["get"] + c["list"]
	}' <(tail -1 "$tf") >>"$dir/rows"
}

: >"$dir/rows"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)" | tee "$dir/load"
for n in "${ns[@]}"; do
	mkdir -p "$dir/$n"
	"$bin" bench-fixture -n "$n" --out "$dir/$n/in" 2>/dev/null
	"$bin" bench-fixture -n "$n" --changed-every 100 --out "$dir/$n/changed" 2>/dev/null
	common=(--config "$dir/$n/in/azure.json" --cluster-name aks-prod-weu)
	echo "N=$n: plan from empty" >&2
	run "$n" plan-empty 2 plan -f "$dir/$n/in/services.yaml" "${common[@]}" --state "$dir/$n/empty.json" --detailed-exitcode
	echo "N=$n: apply from empty" >&2
	run "$n" apply-empty 0 apply -f "$dir/$n/in/services.yaml" "${common[@]}" --state "$dir/$n/state.json" --auto-approve
	echo "N=$n: re-plan, no changes" >&2
	run "$n" replan 0 plan -f "$dir/$n/in/services.yaml" "${common[@]}" --state "$dir/$n/state.json" --detailed-exitcode
	echo "N=$n: plan after 1% changed" >&2
	run "$n" plan-1pct 2 plan -f "$dir/$n/changed/services.yaml" "${common[@]}" --state "$dir/$n/state.json" --detailed-exitcode
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$dir/load"

echo
echo "| N | command | wall s | CPU s | peak RSS MB | requests | writes | polls | reads |"
echo "|---|---|---|---|---|---|---|---|---|"
awk '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$dir/rows"

echo
echo "| N | apply from empty | re-plan (no changes) | plan after 1% changed | plan from empty |"
echo "|---|---|---|---|---|"
awk '{ w[$1" "$2] = $3; c[$1" "$2] = $4; r[$1" "$2] = $5; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
END {
	for (i = 1; i <= k; i++) {
		n = order[i]
		printf "| %s |", n
		split("apply-empty replan plan-1pct plan-empty", cmds, " ")
		for (j = 1; j <= 4; j++) printf " %s s (%s s CPU, %s MB) |", w[n" "cmds[j]], c[n" "cmds[j]], r[n" "cmds[j]]
		printf "\n"
	}
	first = order[1]
	print ""
	for (i = 2; i <= k; i++) {
		n = order[i]
		printf "apply t(%s)/t(%s) = %.2f (linear: %.2f)\n", n, first, w[n" apply-empty"] / w[first" apply-empty"], n / first
	}
	for (i = 1; i <= k; i++) {
		n = order[i]
		printf "N=%s: re-plan / plan from empty = %.2f\n", n, w[n" replan"] / w[n" plan-empty"]
	}
}' "$dir/rows"
awk '$2 == "apply-empty" && $7 > 0 { printf "N=%s: apply made %d writes in %d requests (%.2f per write)\n", $1, $7, $6, $6 / $7 }' "$dir/rows"
echo
cat "$dir/load"
[ -z "${BENCH_DIR:-}" ] || echo "fixtures, logs and state files kept in $dir"
