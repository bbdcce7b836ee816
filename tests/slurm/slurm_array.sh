#!/usr/bin/env bash
# slurm_array.sh: contrib/slurm/grade-array.sbatch on a real single-node Slurm cluster. Starts
# munged, slurmctld and slurmd as root on a configuration, key, state, logs and ports of their
# own in a temp folder (no systemd, nothing of the system's Slurm or munge), grades a class once
# unsharded and once as a 4-task job array plus its dependent merge job, compares every report
# byte for byte, and stops everything it started, on failure too. Skips (exit 77) where not
# root or where Slurm or munge is missing.
#
# usage: slurm_array.sh AWB COURSE_DIR MUTANT_DIR PLUGIN_DIR SBATCH_SCRIPT WORK_DIR
#
# On demand, a class of your own (tests/batch/synthetic_class.py makes one of any size):
#   AWB_SLURM_CLASS=DIR                the submissions (instead of the generated course class)
#   AWB_SLURM_OPTIONS="..."            the report options (default: --assignment qkv --view instructor)
#   AWB_SLURM_GRADE_OPTIONS="..."      options of the grading steps alone (limits, build cache)
#   AWB_SLURM_SECONDS=N                how long the two runs may take together (default 780)
set -euo pipefail
if [[ $# -ne 6 ]]; then
  echo "usage: $0 AWB COURSE_DIR MUTANT_DIR PLUGIN_DIR SBATCH_SCRIPT WORK_DIR" >&2
  exit 2
fi
awb=$1 course=$2 mutants=$3 plugins=$4 script=$5 work=$6
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../batch/report_set_check.sh"
read -r -a options <<<"${AWB_SLURM_OPTIONS:---assignment qkv --view instructor}"
read -r -a grade_only <<<"${AWB_SLURM_GRADE_OPTIONS:-}"
deadline=$((SECONDS + ${AWB_SLURM_SECONDS:-780}))  # below ctest's timeout: a hang still cleans up

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
ms() { echo $((($(date +%s%N) - $1) / 1000000)); }

[[ $(id -u) -eq 0 ]] || skip "the test starts slurmctld, slurmd and munged as root"
PATH=$PATH:/usr/sbin:/sbin
for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
  command -v "$tool" >/dev/null ||
    skip "$tool is missing (cmake/install-deps.sh installs slurm-wlm and munge)"
done

# The daemons' folder: short (a socket path has at most 107 bytes), every parent searchable.
tmp=$(mktemp -d /tmp/awb-slurm.XXXXXX)
chmod 755 "$tmp"
export SLURM_CONF=$tmp/slurm.conf
# Every process the test starts carries this in its environment (slurmstepd and the jobs inherit
# it from slurmd and sbatch), so cleanup finds each one, and nothing else.
mark=AWB_SLURM_TEST=$tmp
pids=()

cleanup() {
  local rc=$? p
  set +e
  trap - EXIT
  if [[ -S $tmp/munge/munge.socket && ${#pids[@]} -gt 1 ]]; then
    scancel --quiet --user=root 2>/dev/null
    for _ in $(seq 50); do [[ -z $(squeue -h 2>/dev/null) ]] && break; sleep 0.2; done
  fi
  [[ ${#pids[@]} -gt 0 ]] && kill -TERM "${pids[@]}" 2>/dev/null
  for _ in $(seq 50); do
    kill -0 "${pids[@]}" 2>/dev/null || break
    sleep 0.2
  done
  # Whatever is left, a slurmstepd that outlived its slurmd included.
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [[ $p == "$$" ]] && continue
    { tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null | grep -qxF "$mark" && kill -KILL "$p" 2>/dev/null
  done
  wait 2>/dev/null
  if [[ $rc -ne 0 && $rc -ne 77 ]]; then
    for f in "$tmp"/log/*.log; do echo "== $f"; tail -n 20 "$f"; done
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# ---- munge ------------------------------------------------------------------------------
mkdir -p "$tmp/munge" "$tmp/log" "$tmp/state" "$tmp/spool"
chmod 755 "$tmp/munge"
mungekey --create --keyfile="$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
env "$mark" munged --foreground --key-file="$tmp/munge/munge.key" \
  --socket="$tmp/munge/munge.socket" --pid-file="$tmp/munge/munged.pid" \
  --seed-file="$tmp/munge/munged.seed" >"$tmp/log/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [[ -S $tmp/munge/munge.socket ]] && break; sleep 0.1; done
[[ -S $tmp/munge/munge.socket ]] || fail "munged did not start"

# ---- slurmctld and slurmd ---------------------------------------------------------------
host=$(hostname -s)
cpus=$(nproc)
cat >"$SLURM_CONF" <<CONF
ClusterName=awbtest
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SlurmdParameters=config_overrides
NodeName=awbnode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$((cpus > 2 ? cpus : 2)) State=UNKNOWN
PartitionName=awb Nodes=awbnode Default=YES MaxTime=INFINITE State=UP
CONF
env "$mark" slurmctld -D -i >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
env "$mark" slurmd -D -N awbnode >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 300); do
  [[ $(sinfo -h -o %T 2>/dev/null) == idle ]] && break
  sleep 0.2
done
[[ $(sinfo -h -o %T 2>/dev/null) == idle ]] || fail "the node did not come up: $(sinfo 2>&1)"
echo "slurm: $(sinfo -h -o '%P %D node(s) %T %c CPUs') (slurmctld, slurmd, munged: pids ${pids[*]})"

# ---- the class, unsharded ---------------------------------------------------------------
rm -rf "$work"
mkdir -p "$work/logs"
if [[ -n ${AWB_SLURM_CLASS:-} ]]; then
  ln -s "$(cd "$AWB_SLURM_CLASS" && pwd)" "$work/subs"
  n=$(find "$work/subs/" -mindepth 1 -maxdepth 1 -type d | wc -l)
else
  n=$(python3 "$here/../batch/make_class.py" "$course" "$mutants" "$plugins" "$work/subs" --mutants 5)
fi
echo "class: $n submissions"
start=$(date +%s%N)
timeout $((deadline - SECONDS)) "$awb" grade --batch "$work/subs" --out "$work/whole" -j 2 \
  "${grade_only[@]}" "${options[@]}" 2>"$work/logs/whole.log" ||
  fail "the unsharded run exited $? ($(tail -3 "$work/logs/whole.log"))"
echo "unsharded: $(tail -1 "$work/logs/whole.log") [$(ms "$start") ms]"

# ---- the class as a job array and its merge ---------------------------------------------
start=$(date +%s%N)
export AWB=$awb AWB_GRADE_OPTIONS="${AWB_SLURM_GRADE_OPTIONS:-}"
array=$(env "$mark" sbatch --parsable --array=0-3 --cpus-per-task=1 \
  --output="$work/logs/grade-%A_%a.log" "$script" "$work/subs" "$work/sharded" "${options[@]}")
merge=$(env "$mark" sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$work/logs/merge-%j.log" "$script" "$work/subs" "$work/sharded" "${options[@]}")
echo "sbatch: array job $array (4 tasks), merge job $merge after it"
while [[ -n $(squeue -h -j "$array,$merge" -o %i 2>/dev/null) ]]; do
  [[ $SECONDS -lt $deadline ]] || fail "the jobs did not finish in time: $(squeue)"
  sleep 0.2
done
echo "jobs done [$(ms "$start") ms]"
for job in "${array}_0" "${array}_1" "${array}_2" "${array}_3" "$merge"; do
  state=$(scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]*' | head -1)
  echo "  $job: $state"
  [[ $state == JobState=COMPLETED ]] || { tail -n 20 "$work"/logs/*.log; fail "job $job: $state"; }
done
for f in "$work"/logs/grade-*.log "$work"/logs/merge-*.log; do tail -n 1 "$f"; done

# ---- the reports ------------------------------------------------------------------------
whole_set "$work/sharded" || fail "the merged reports are not one whole set"
same_reports "$work/whole" "$work/sharded" || fail "the merged reports differ from the unsharded run's"
if [[ -z ${AWB_SLURM_CLASS:-} ]]; then
  grep -q '^01-correct,.*identical to the file graded for 07-two-files' "$work/sharded/roster.csv" ||
    fail "the roster does not flag 01-correct and 07-two-files (shards 0 and 3) as identical"
fi
echo "PASS"
