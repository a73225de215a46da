#!/usr/bin/env bash
# The Slurm hook against a real Slurm 22.05 (issue 20, doc/slurm.md): a
# 4-node cluster of Minsky machines (4 GPUs each, NVLink pairs 0-1 and 2-3)
# on localhost, its configuration written by `placement slurm-conf`, jobs
# placed by examples/slurm/job_submit.lua inside slurmctld. Checks, from
# `scontrol show job -d` taken every half second while the jobs run, that
# every GPU job ran on the node and the GPU indices the library chose, that
# no GPU was held by two running jobs, and that the jobs that communicate got
# NVLink-connected pairs. One line per check; the last is "N passed, M failed".
#
#   tests/slurm/run.sh [BUILD_DIR]     (default: build; needs its CLI and Lua 5.1 module)
#
# Runs as root. Skipped (with the reason) only when the Slurm packages cannot
# be installed. Every daemon it starts is stopped on exit, also on failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BUILD=$(cd "${1:-build}" && pwd) || { echo "slurm: no build directory"; echo "0 passed, 1 failed"; exit 1; }

if ! bash tools/setup.sh --slurm > /tmp/pl-slurm-setup.log 2>&1; then
  echo "slurm: skipped: the Slurm packages cannot be installed ($(tail -1 /tmp/pl-slurm-setup.log))"
  echo "0 passed, 0 failed"
  exit 0
fi

export PLACEMENT=$BUILD/tools/placement LUA51_DIR=$BUILD/bindings/lua/lua51
export HOOK=$ROOT/examples/slurm/job_submit.lua NODES=4
W=$(mktemp -d /tmp/pl-slurm.XXXXXX)
export W SLURM_CONF=$W/etc/slurm.conf
source tests/slurm/cluster.sh

POLLER=
finish() {
  [ -n "$POLLER" ] && kill "$POLLER" 2>/dev/null
  POLLER=
  cluster_stop
}
trap finish EXIT
trap 'exit 1' INT TERM

passed=0 failed=0
check() {  # check NAME COMMAND...: one test
  local name=$1; shift
  if "$@" >/dev/null 2>&1; then passed=$((passed + 1)); echo "ok   $name"
  else failed=$((failed + 1)); echo "FAIL $name"; fi
}
end() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
  exit
}

check "the Lua 5.1 module loads (the Lua of slurmctld's job_submit/lua)" \
  env LUA_CPATH="$LUA51_DIR/?.so" lua5.1 -e 'require "placement"'
if ! cluster_write_config || ! cluster_start; then
  failed=$((failed + 1)); echo "FAIL the cluster starts (logs in $W)"
  tail -20 "$W"/slurmctld.log "$W"/slurmd-node0.log 2>/dev/null
  end
fi
check "slurmctld runs the hook with the placement module loaded" \
  bash -c "! grep -q 'cannot load' '$W/slurmctld.log'"

# Slurm's own records, twice a second, while jobs run.
( while [ ! -e "$W/stop-poll" ]; do
    { echo "=== $(date +%s.%N)"; scontrol show job -d -o 2>/dev/null; } >> "$W/snapshots"
    sleep 0.5
  done ) &
POLLER=$!

: > "$W/jobs.tsv"
# submit KIND SBATCH-ARGS...: the job id, recorded with its kind.
submit() {
  local kind=$1; shift
  local id
  id=$(sbatch --parsable -o /dev/null -t 1 "$@") || return 1
  printf '%s\t%s\n' "$id" "$kind" >> "$W/jobs.tsv"
  echo "$id"
}
refused() { [[ $1 == *"$2"* && $1 != *Submitted* ]]; }  # refused OUTPUT MESSAGE

# 1. Blockers that name their GPUs (they pass through the hook untouched):
# GPUs 0 and 2 of every node, so only cross-socket pairs are free for a while.
for ((n = 0; n < NODES; n++)); do
  submit typed -w "node$n" --gres=gpu:idx0:1,gpu:idx2:1 --wrap "sleep 12" >/dev/null
done
for _ in $(seq 1 30); do
  [ "$(squeue -h -t R | wc -l)" -ge "$NODES" ] && break
  sleep 0.5
done
sleep 1  # slurm.jobs, the hook's view, is refreshed once a second

# 2. A communicating pair that asks to be held rather than placed below its
# minimal utility, and one that waits for a good pair instead. A crossing
# pair with no interfering neighbour has utility 2/3 in the default (paper)
# form (doc/interference.md sec. 7), so they ask for 0.7.
held=$(submit held --gpus=2 --comment="min_utility=0.7 postponed=hold" --wrap "sleep 3")
waiter=$(submit comm --gres=gpu:2 --comment="min_utility=0.7" --wrap "sleep 3")
check "a pair below its minimal utility is held with the reason, on an NVLink pair" \
  bash -c "scontrol show job -o $held | grep -Eq 'Priority=0 .*AdminComment=placement: node=node[0-3] gpus=(0,1|2,3) .* held: best utility 0.6667 is below'"
check "a pair that waits is pinned to an NVLink pair for later" \
  bash -c "scontrol show job -o $waiter | grep -Eq 'JobState=PENDING.*AdminComment=placement: node=node[0-3] gpus=(0,1|2,3) .*start=\+'"
out=$(sbatch -o /dev/null -t 1 --gres=gpu:8 --wrap true 2>&1)
check "a request no node can ever hold is refused with a message" refused "$out" "8 GPUs on one node cannot be given"
out=$(sbatch -o /dev/null -t 1 -N 2 --gpus-per-node=1 --wrap true 2>&1)
check "a GPU job over several nodes is refused with a message" refused "$out" "ask for one node"

# 3. The mix: single GPUs (--gres, --gpus, --gpus-per-node), communicating
# pairs, pairs that do not communicate, 3 and 4 GPUs, CPU-only jobs.
mix=(
  "gpu --gres=gpu:1" "comm --gpus=2 --comment=min_utility=0.7" "gpu --gpus=1" "cpu -n 1"
  "gpu --gres=gpu:4" "comm --gres=gpu:2 --comment=min_utility=0.7" "gpu --gpus-per-node=1"
  "gpu --gpus=3" "gpu --gres=gpu:2 --comment=comm=no" "comm --gpus-per-node=2 --comment=min_utility=0.7"
  "gpu --gres=gpu:1" "cpu -n 2" "gpu --gpus=2 --comment=comm=no" "comm --gres=gpu:2 --comment=min_utility=0.7"
  "gpu --gres=gpu:1" "gpu --gpus=4" "gpu --gpus=1" "comm --gpus=2 --comment=min_utility=0.7"
  "gpu --gres=gpu:3" "cpu -n 1" "gpu --gpus-per-node=1" "comm --gres=gpu:2 --comment=min_utility=0.7"
  "gpu --gres=gpu:1" "gpu --gpus-per-node=4" "comm --gpus=2 --comment=min_utility=0.7" "gpu --gres=gpu:1"
  "gpu --gpus=2 --comment=comm=no" "cpu -n 1" "comm --gres=gpu:2 --comment=min_utility=0.7" "gpu --gpus=1"
)
i=0
for spec in "${mix[@]}"; do
  read -r kind args <<< "$spec"
  # shellcheck disable=SC2086
  submit "$kind" $args --wrap "sleep $((3 + (i * 7) % 8))" >/dev/null \
    || { failed=$((failed + 1)); echo "FAIL submitting '$spec'"; }
  i=$((i + 1))
  sleep 0.3
done

# 4. Once the blockers are gone, the held pair is released.
for _ in $(seq 1 40); do
  [ "$(squeue -h -t R -o '%i %b' | grep -c 'idx0:1,gpu:idx2')" = 0 ] && break
  sleep 0.5
done
sleep 1
scontrol release "$held"
sleep 0.5
check "the held pair, released, is no longer held" \
  bash -c "! scontrol show job -o $held | grep -q 'Priority=0 '"

# 5. Wait for every job, then check from Slurm's records.
total=$(wc -l < "$W/jobs.tsv")
for _ in $(seq 1 300); do
  [ "$(squeue -h | wc -l)" = 0 ] && break
  sleep 1
done
touch "$W/stop-poll"
wait "$POLLER" 2>/dev/null
POLLER=
scontrol show job -d -o > "$W/final"
check "all $total jobs ended" bash -c "[ \$(grep -c 'JobState=COMPLETED' '$W/final') -ge $total ]"
python3 tests/slurm/check.py "$W" > "$W/checks" 2>&1
cat "$W/checks"
passed=$((passed + $(grep -c '^ok ' "$W/checks")))
failed=$((failed + $(grep -c '^FAIL' "$W/checks")))
grep -q '^check.py: ' "$W/checks" || { failed=$((failed + 1)); echo "FAIL check.py did not finish"; }
finish
[ "$failed" = 0 ] && rm -rf "$W" || echo "slurm: logs and records kept in $W"
end
