#!/usr/bin/env bash
# The suite's cost in CPU: runs `npm run test:run` (lint, types, UI build and every Vitest project) with everything it
# starts in a cgroup of its own, on a PostgreSQL cluster of its own inside that cgroup, and prints CPU seconds (user +
# system of every process of the run, PostgreSQL's included) beside the wall time and the machine's /proc/stat figure
# (which also counts anything else the machine was doing). Needs root (cgroup v1 cpuacct, as on these machines).
#   bash bench/suite-cpu.sh                 one run
#   bash bench/suite-cpu.sh --hog           while a busy loop holds one of the cores (outside the cgroup)
#   bash bench/suite-cpu.sh --by-kind       also prints the CPU of each kind of process (bench/cpu-by-kind.mjs)
#   bash bench/suite-cpu.sh -- --project e2e   arguments after -- go to the test runner
# Run `node ../shared/calibrate.mjs` before and report its figure beside these.
set -euo pipefail
cd "$(dirname "$0")/.."

hog=0
by_kind=0
while [ $# -gt 0 ]; do
  case "$1" in
    --hog) hog=1; shift ;;
    --by-kind) by_kind=1; shift ;;
    --) shift; break ;;
    *) echo "usage: bash bench/suite-cpu.sh [--hog] [-- test args]" >&2; exit 2 ;;
  esac
done

cpuacct=/sys/fs/cgroup/cpuacct
[ -d "$cpuacct" ] || { echo "no cgroup v1 cpuacct at $cpuacct" >&2; exit 1; }
group="$cpuacct/coi-suite-$$"
mkdir "$group"
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pgdir=$(mktemp -d /tmp/coi-suite-pg.XXXXXX)
port=$(( 56000 + $$ % 1000 ))
hog_pid=""
sampler_pid=""

machine_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat; } # user nice system irq softirq, in ticks
cleanup() {
  [ -n "$sampler_pid" ] && kill "$sampler_pid" 2>/dev/null || true
  [ -n "$hog_pid" ] && kill "$hog_pid" 2>/dev/null || true
  runuser -u postgres -- "$pgbin/pg_ctl" -D "$pgdir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$pgdir"
  echo $$ > "$cpuacct/cgroup.procs" 2>/dev/null || true
  rmdir "$group" 2>/dev/null || true
}
trap cleanup EXIT

if [ "$by_kind" = 1 ]; then # started outside the cgroup: its own CPU is not the run's
  node bench/cpu-by-kind.mjs "$group" > "$pgdir/by-kind.txt" &
  sampler_pid=$!
fi
echo $$ > "$group/cgroup.procs" # this shell and everything it starts from here on
chown postgres "$pgdir"
runuser -u postgres -- "$pgbin/initdb" -D "$pgdir/data" -U postgres --auth=trust >/dev/null
runuser -u postgres -- "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w \
  -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null

if [ "$hog" = 1 ]; then
  echo $$ > "$cpuacct/cgroup.procs"
  nice -n -5 node -e 'for(;;){}' &
  hog_pid=$!
  echo $$ > "$group/cgroup.procs"
  echo "[suite-cpu] a busy loop (pid $hog_pid, nice -5) holds one core"
fi

ticks=$(getconf CLK_TCK)
busy_before=$(machine_busy)
started=$(date +%s.%N)
set +e
DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" CI=true npm run --silent test:run -- "$@"
code=$?
set -e
wall=$(echo "$(date +%s.%N) - $started" | bc)
busy_after=$(machine_busy)
read -r user_ticks system_ticks < <(awk '{print $2}' "$group/cpuacct.stat" | paste -sd' ')
echo "[suite-cpu] exit $code; wall $(printf '%.0f' "$wall") s; CPU of the run $(( (user_ticks + system_ticks) / ticks )) s" \
  "(user $(( user_ticks / ticks )) s, system $(( system_ticks / ticks )) s); whole machine (/proc/stat, hog included)" \
  "$(( (busy_after - busy_before) / ticks )) s"
if [ -n "$sampler_pid" ]; then
  kill "$sampler_pid"; wait "$sampler_pid" 2>/dev/null || true; sampler_pid=""
  cat "$pgdir/by-kind.txt"
fi
exit "$code"
