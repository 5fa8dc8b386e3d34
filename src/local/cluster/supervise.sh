#!/usr/bin/env bash
# Runs a command and ends it when the Node process that started it goes away, even if that process was killed with
# SIGKILL or crashed, so no etcd or kube-apiserver outlives a test run.
#   supervise.sh PARENT_PID LOG_FILE COMMAND [ARGS...]
parent=$1 log=$2
shift 2
"$@" >>"$log" 2>&1 &
child=$!
stop() {
  kill -TERM "$child" 2>/dev/null
  for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$child" 2>/dev/null || break; sleep 0.3; done
  kill -KILL "$child" 2>/dev/null
  wait "$child" 2>/dev/null
}
trap 'stop; exit 143' TERM INT HUP
while kill -0 "$parent" 2>/dev/null && kill -0 "$child" 2>/dev/null; do
  sleep 0.5 &
  wait $!
done
if kill -0 "$child" 2>/dev/null; then
  echo "supervise: parent $parent is gone, stopping $*" >>"$log"
  stop
  exit 143
fi
wait "$child"
