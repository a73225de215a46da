# Sourced by tests/slurm/run.sh: a throw-away Slurm cluster on localhost
# (design README, "Integration facts"): one munged on its own socket and key,
# one slurmctld, one slurmd per node with its own name, port, spool, log and
# fake GPU device files. Everything lives under $W; cluster_stop kills only
# the daemons whose pids cluster_start recorded.
#
# Needs: W (work dir), PLACEMENT (the CLI), HOOK (job_submit.lua), LUA51_DIR
# (directory of the Lua 5.1 placement.so), NODES (number of nodes).

CTLD_PORT=${CTLD_PORT:-16817}
NODE_PORT0=${NODE_PORT0:-16900}
STARTED_PIDS=()

# Pid recorded in a pid file, once it appears (daemons write it after forking).
pid_of() {
  local f=$1 i
  for i in $(seq 1 100); do
    [ -s "$f" ] && { cat "$f"; return 0; }
    sleep 0.1
  done
  return 1
}

cluster_write_config() {
  mkdir -p "$W/etc" "$W/state" "$W/spool" "$W/dev"
  # The cluster the hook places on, described once: its Slurm view is
  # generated from it and the hook loads the same file.
  cat > "$W/etc/cluster.json" <<EOF
{"name": "cluster",
 "templates": {"minsky": {"builtin": "minsky"}},
 "racks": [{"machines": [{"template": "minsky", "count": $((NODES / 2))}]},
           {"machines": [{"template": "minsky", "count": $((NODES - NODES / 2))}]}]}
EOF
  "$PLACEMENT" slurm-conf --json "$W/etc/cluster.json" --out "$W/gen" --device-prefix "$W/dev/nvidia" >/dev/null || return 1
  # Fake GPU device files, shared by the slurmds (they only check that the
  # files exist; task/none sets up no device cgroup).
  local i
  for i in 0 1 2 3; do : > "$W/dev/nvidia$i"; done
  cp "$W/gen/gres.conf" "$W/gen/topology.conf" "$W/etc/"
  cp "$HOOK" "$W/etc/job_submit.lua"
  {
    cat <<EOF
ClusterName=pltest
SlurmctldHost=localhost
SlurmctldPort=$CTLD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$W/munge.sock
CredType=cred/munge
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool/%n
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd-%n.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
SlurmdParameters=config_overrides
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,sched_min_interval=100000,bf_continue
MinJobAge=600
TopologyPlugin=topology/tree
JobSubmitPlugins=lua
EOF
    grep -v '^#' "$W/gen/slurm.conf" | while read -r line; do
      case $line in
        NodeName=node*)
          n=${line#NodeName=node}; n=${n%% *}
          echo "$line NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((NODE_PORT0 + n))" ;;
        *) echo "$line" ;;
      esac
    done
    echo "PartitionName=gpu Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
  } > "$W/etc/slurm.conf"
}

cluster_start() {
  mungekey -c -k "$W/munge.key" -b 1024 >/dev/null 2>&1 || dd if=/dev/urandom of="$W/munge.key" bs=1 count=1024 2>/dev/null
  chmod 600 "$W/munge.key"
  /usr/sbin/munged --force --socket="$W/munge.sock" --key-file="$W/munge.key" \
    --pid-file="$W/munged.pid" --log-file="$W/munged.log" --seed-file="$W/munged.seed" || return 1
  STARTED_PIDS+=("$(pid_of "$W/munged.pid")") || return 1
  # The hook finds the module and the cluster through these (its config
  # reads them when set): slurmctld's embedded Lua inherits the environment.
  LUA_CPATH="$LUA51_DIR/?.so;;" PLACEMENT_CLUSTER="$W/etc/cluster.json" \
    PLACEMENT_HOOK_LOG="$W/hook.log" /usr/sbin/slurmctld -c -f "$W/etc/slurm.conf" || return 1
  STARTED_PIDS+=("$(pid_of "$W/slurmctld.pid")") || return 1
  local n
  for ((n = 0; n < NODES; n++)); do
    /usr/sbin/slurmd -f "$W/etc/slurm.conf" -N "node$n" || return 1
    STARTED_PIDS+=("$(pid_of "$W/slurmd-node$n.pid")") || return 1
  done
  # Up when every node is idle (a controller that died, e.g. in the hook's
  # module, fails at once instead of leaving sinfo to retry).
  local i ctld=${STARTED_PIDS[1]}
  for i in $(seq 1 60); do
    kill -0 "$ctld" 2>/dev/null || { echo "cluster: slurmctld died (see $W/slurmctld.log)"; return 1; }
    [ "$(timeout 5 sinfo -h -o '%T' -N 2>/dev/null | grep -c '^idle')" = "$NODES" ] && return 0
    sleep 1
  done
  echo "cluster: nodes not idle after 60 s:"; sinfo -N 2>&1 | head -20
  return 1
}

cluster_stop() {
  local p
  # Jobs first, through the controller of this cluster only (SLURM_CONF):
  # a slurmstepd outlives its slurmd and would wait for it forever.
  if [ ${#STARTED_PIDS[@]} -gt 1 ]; then
    scancel --quiet --full --user=root 2>/dev/null
    for _ in $(seq 1 50); do
      [ -z "$(squeue -h 2>/dev/null)" ] && ! pgrep -f "^slurmstepd: \[" >/dev/null && break
      sleep 0.1
    done
  fi
  for p in "${STARTED_PIDS[@]}"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null
  done
  for p in "${STARTED_PIDS[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  STARTED_PIDS=()
}
