#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the guest's share of the test plan.
#
# usage: run-cases.sh SELECTED OUT
# SELECTED has one case a line: "KIND NAME TIMEOUT CPUS". Everything goes to
# OUT (the second serial port); each case is framed by "@@begin" and
# "@@result" lines that the host parses, and its start is also written
# to /dev/kmsg so a splat in the kernel log can be pinned on it.
sel=$1 out=$2
exec >"$out" 2>&1

# Run "$@" in a session of its own and kill that whole session after $1
# seconds.  Returns the command's status, 124 on a timeout.
run_limited() {
	limit=$1; shift
	rm -f /tmp/timed-out
	setsid "$@" </dev/null &
	pid=$!
	# The watcher must not hold the case's output open, and takes its
	# sleep with it when the case ends first.
	(trap 'kill $nap 2>/dev/null; exit 0' TERM
	 sleep "$limit" & nap=$!
	 wait $nap || exit 0
	 touch /tmp/timed-out
	 kill -KILL -"$pid" 2>/dev/null
	 kill -KILL "$pid" 2>/dev/null) </dev/null >/dev/null 2>&1 &
	watcher=$!
	wait "$pid"
	rc=$?
	kill "$watcher" 2>/dev/null
	wait "$watcher" 2>/dev/null
	[ -e /tmp/timed-out ] && rc=124
	return $rc
}

# One ftracetest case.  The "# of <result>:" counts say what happened
# (an instance case runs twice); FAIL beats UNRESOLVED beats UNSUPPORTED.
ftracetest_case() {
	rm -rf /tmp/ftracetest-logs
	run_limited "$2" /selftests/ftrace/ftracetest -v -k --fail-unresolved \
		--fail-unsupported -l /tmp/ftracetest-logs \
		"/selftests/ftrace/test.d/$1" >/tmp/case.out 2>&1
	rc=$?
	cat /tmp/case.out
	if [ $rc -eq 124 ]; then
		tail -n 30 /tmp/ftracetest-logs/*-log.* 2>/dev/null
		echo TIMEOUT
		return
	fi
	count() { sed -n "s/^# of $1: *\([0-9]*\).*/\1/p" /tmp/case.out; }
	for res in failed:FAIL undefined.test.bug.:FAIL unresolved:UNRESOLVED \
		   unsupported:UNSUPPORTED untested:UNTESTED xfailed:XFAIL; do
		n=$(count "${res%%:*}")
		[ "${n:-0}" -gt 0 ] && { echo "${res#*:}"; return; }
	done
	n=$(count passed)
	[ "${n:-0}" -gt 0 ] && [ $rc -eq 0 ] && { echo PASS; return; }
	echo FAIL
}

# A shell test: 0 passes, 4 (kselftest's skip) is unsupported.
status_of() {
	case "$1" in
	0) echo PASS ;;
	4) echo UNSUPPORTED ;;
	124) echo TIMEOUT ;;
	*) echo FAIL ;;
	esac
}

# NAME or NAME:ARG,ARG...: cases/NAME.sh run with those arguments.
script_case() {
	script=${1%%:*}
	args=
	[ "$script" = "$1" ] || args=$(echo "${1#*:}" | tr , ' ')
	run_limited "$2" sh -c "cd /harness/cases && exec sh ./$script.sh $args"
	status_of $?
}

livepatch_case() {
	run_limited "$2" sh -c "cd /selftests/livepatch && PATH=/usr/sbin:/usr/bin:/sbin:/bin KDIR=/selftests/livepatch/test_modules exec bash ./$1"
	status_of $?
}

# A KUnit suite run after boot through debugfs (CONFIG_KUNIT_DEBUGFS).
kunit_case() {
	d=/sys/kernel/debug/kunit/$1
	[ -e "$d/run" ] || { echo "no $d/run"; echo FAIL; return; }
	run_limited "$2" sh -c "echo 1 > $d/run"
	rc=$?
	cat "$d/results"
	[ $rc -eq 124 ] && { echo TIMEOUT; return; }
	if grep -q "^not ok" "$d/results"; then echo FAIL
	elif grep -q "^ok .*# SKIP" "$d/results"; then echo UNSUPPORTED
	elif grep -q "^ok" "$d/results"; then echo PASS
	else echo FAIL
	fi
}

# Some cases leave hooks behind: fgraph-profiler.tc leaves the function
# profiler on, which sends every call through fgraph and makes each later
# case several times slower. Start every case with no hooks attached, so
# that a case's time does not depend on the case before it.
reset_hooks() {
	t=/sys/kernel/tracing
	echo 0 >$t/function_profile_enabled 2>/dev/null
	echo nop >$t/current_tracer 2>/dev/null
	echo 0 >/proc/sys/kernel/stack_tracer_enabled 2>/dev/null
}

# Only CPUs below $1 stay online (0: all are online).
set_cpus() {
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		n=${c##*cpu}
		[ -w "$c/online" ] || continue
		if [ "$1" -eq 0 ] || [ "$n" -lt "$1" ]; then on=1; else on=0; fi
		[ "$(cat "$c/online")" = $on ] || echo $on >"$c/online"
	done
}

echo "@@guest $(uname -r) $(nproc) cpus"
while read -r kind name limit cpus; do
	case "$kind" in ''|'#'*) continue ;; esac
	reset_hooks
	set_cpus "${cpus:-0}"
	echo "@@begin $kind:$name"
	echo "@@begin $kind:$name" >/dev/kmsg
	case "$kind" in
	ftracetest) st=$(ftracetest_case "$name" "$limit" | tee /dev/stderr | tail -n 1) ;;
	script) st=$(script_case "$name" "$limit" 2>&1 | tee /dev/stderr | tail -n 1) ;;
	livepatch) st=$(livepatch_case "$name" "$limit" 2>&1 | tee /dev/stderr | tail -n 1) ;;
	kunit-run) st=$(kunit_case "$name" "$limit" | tee /dev/stderr | tail -n 1) ;;
	*) st=FAIL; echo "unknown kind $kind" ;;
	esac
	echo "@@end $kind:$name" >/dev/kmsg
	echo "@@result $kind:$name $st"
	# After an oops (TAINT_DIE) the kernel may hold locks forever: give
	# the remaining cases a fresh boot (the host resumes after this one).
	if [ $(( $(cat /proc/sys/kernel/tainted) & 128 )) -ne 0 ]; then
		echo "@@reboot: the kernel oopsed during $kind:$name"
		sync
		reboot -f
	fi
done <"$sel"
echo "@@done"
