#!/bin/bash
# Runs one vzero command inside a Slurm batch job so that the job survives its time limit and
# `scancel`. The batch scripts beside it end with
#
#     exec "$VZERO_SLURM_DIR/run-requeueable.sh" VZERO ARGUMENTS...
#
# so that this shell is the job's batch shell, and then:
# - The time-limit warning (`#SBATCH --signal=B:USR1@SECONDS`, sent to the batch shell only) is
#   passed on to vzero as SIGTERM: vzero finishes its step, saves and exits with status 3
#   ("stopped early, saved"); the job is then requeued (`scontrol requeue`), and the same command
#   line, run again, resumes the run. USR1 rather than TERM, so that this shell can tell the
#   time limit from `scancel`.
# - `scancel` and preemption send SIGTERM to every process of the job, vzero included, which
#   stops vzero the same way. This shell only waits for vzero to save (the cluster's KillWait,
#   30 s by default, bounds that wait) and does not requeue: a cancelled job stays cancelled,
#   and a preempted one is requeued by Slurm itself when the cluster is set up to.
# The job's exit status is vzero's: 0 finished, 3 stopped early after saving, others failed.
set -u

readonly EXIT_STOPPED=3 # vzero's status for "a stop signal ended it after it saved its work"
me=$(basename "$0")
command_name="$(basename "$1") ${2:-}" # e.g. "vzero train", for the log
child=
time_up=0

stop_for_time_limit() {
    time_up=1
    if [ -n "$child" ]; then kill -TERM "$child" 2>/dev/null; fi
}
trap stop_for_time_limit USR1
# scancel's SIGTERM also reaches vzero directly; forwarding it would be a second stop signal,
# which makes vzero abort without saving once it comes a second or more after the first. The shell must outlive vzero so that the save finishes.
trap ':' TERM INT HUP

"$@" &
child=$!
if [ "$time_up" -eq 1 ]; then kill -TERM "$child" 2>/dev/null; fi
echo "$me: job ${SLURM_JOB_ID:-none} (restart ${SLURM_RESTART_COUNT:-0}) on $(hostname):" \
    "$command_name running as process $child"
# `wait` returns early whenever a trapped signal arrives; the final one gives vzero's status.
while kill -0 "$child" 2>/dev/null; do wait "$child"; done
wait "$child"
status=$?
echo "$me: $command_name exited with status $status"
if [ "$status" -eq "$EXIT_STOPPED" ] && [ "$time_up" -eq 1 ]; then
    echo "$me: stopped for the time limit; requeueing job $SLURM_JOB_ID"
    scontrol requeue "$SLURM_JOB_ID"
fi
exit "$status"
