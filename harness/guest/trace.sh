#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make trace-call` guest side: hook one bench row's tracee, report
# where the code of the call lives that kallsyms knows and the host's
# System.map does not (the module's functions, run-time trampolines),
# then call the tracee in the background until the host is done.
out=$1 row=$2
exec >"$out" 2>&1
mods=/lib/modules/$(uname -r)
many=1000000000
fgb=/sys/module/fgraph_bench/parameters
fpb=/sys/module/fprobe_bench/parameters
ops() {
	tracee=tracee_relevant
	insmod "$(find $mods -name ftrace-ops.ko)" nr_function_calls=$many "$@" &
}
case "$row" in
nr_ops_relevant=*)	ops "$row" ;;
1_relevant+5_irrelevant)	ops nr_ops_relevant=1 nr_ops_irrelevant=5 ;;
save_regs|assist_recursion|assist_rcu)	ops nr_ops_relevant=1 "$row=1" ;;
fgraph_1_user|fgraph_2_user)
	tracee=fgb_tracee
	users=${row#fgraph_}
	insmod "$(find $mods -name fgraph_bench.ko)" users=${users%_user}
	echo $many > $fgb/run & ;;
function_tracer*|function_graph_tracer*)
	# The tracer over fgraph_bench.ko's tracee alone, recording (or,
	# for the _off rows, with tracing_on 0).
	tracee=fgb_tracee
	insmod "$(find $mods -name fgraph_bench.ko)" users=0
	echo fgb_tracee > /sys/kernel/tracing/set_ftrace_filter
	tracer=${row%_off}
	echo "${tracer%_tracer}" > /sys/kernel/tracing/current_tracer
	[ "$tracer" = "$row" ] || echo 0 > /sys/kernel/tracing/tracing_on
	echo $many > $fgb/run & ;;
event_*)
	# A probe event over fgraph_bench.ko's tracee alone, recording.
	tracee=fgb_tracee
	insmod "$(find $mods -name fgraph_bench.ko)" users=0
	case "$row" in
	event_fprobe)	ev='f:tc/ev fgb_tracee x=$arg1' ;;
	event_fprobe_return)	ev='f:tc/ev fgb_tracee%return ret=$retval' ;;
	event_kprobe)	ev='p:tc/ev fgb_tracee x=%di' ;;
	event_kretprobe)	ev='r:tc/ev fgb_tracee ret=$retval' ;;
	*)	echo "@@error unknown row $row"
		exit 1 ;;
	esac
	echo "$ev" >> /sys/kernel/tracing/dynamic_events
	echo 1 > /sys/kernel/tracing/events/tc/enable
	echo $many > $fgb/run & ;;
wl_*)
	# One round of make bench's workload (its three system calls, from
	# the syscall entry) under a workload row's hooks, looping.
	tracee=do_syscall_64
	echo "@@calls 3"
	t=/sys/kernel/tracing
	echo 65536 > $t/buffer_size_kb
	case "${row#wl_}" in
	none)	;;
	function|function_graph)	echo "${row#wl_}" > $t/current_tracer ;;
	function_off|function_graph_off)
		echo "${row#wl_}" | sed 's/_off$//' > $t/current_tracer
		echo 0 > $t/tracing_on ;;
	function_glob)	echo 'vfs_*' > $t/set_ftrace_filter
		echo function > $t/current_tracer ;;
	fprobe)	echo 'f:wl/ev vfs_read count=$arg3' >> $t/dynamic_events ;;
	fprobe_return)	echo 'f:wl/ev vfs_read%return ret=$retval' >> $t/dynamic_events ;;
	kprobe)	echo 'p:wl/ev vfs_read' >> $t/kprobe_events ;;
	kretprobe)	echo 'r:wl/ev vfs_read ret=$retval' >> $t/kprobe_events ;;
	*)	echo "@@error unknown row $row"
		exit 1 ;;
	esac
	[ -d $t/events/wl ] && echo 1 > $t/events/wl/enable
	syscall_loop $many > /dev/null & ;;
fprobe_*)
	mode=${row#fprobe_}
	# The all_* modes spread their calls: step the first of their tracees.
	case "$mode" in
	all_*)	tracee=fpb_spread0 ;;
	*)	tracee=fpb_tracee ;;
	esac
	insmod "$(find $mods -name fprobe_bench.ko)" mode="$mode"
	echo $many > $fpb/run & ;;
*)	echo "@@error unknown row $row"
	exit 1 ;;
esac
sleep 1
grep -e '\[' /proc/kallsyms | grep -e ' [tT] ' | sed 's/^/@@sym /'
echo "@@tracee $(awk -v n="$tracee" '$3 == n { print $1; exit }' /proc/kallsyms)"
echo "@@ready"
wait
