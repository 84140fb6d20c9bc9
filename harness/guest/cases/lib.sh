# SPDX-License-Identifier: GPL-2.0
# Helpers for the harness's own guest cases: exit 0 passes, 4 is
# unsupported, anything else fails.
T=/sys/kernel/tracing
fail() { echo "FAIL: $*"; exit 1; }
unsupported() { echo "UNSUPPORTED: $*"; exit 4; }
reset_tracing() {
	echo 0 > $T/tracing_on
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	echo > $T/set_ftrace_notrace
	echo > $T/trace
	echo 1 > $T/tracing_on
}
# Wait up to $1 seconds for the trace buffer to show a line matching $2.
wait_trace() {
	i=0
	while [ $i -lt "$1" ]; do
		grep -q "$2" $T/trace && return 0
		sleep 1; i=$((i + 1))
	done
	return 1
}
