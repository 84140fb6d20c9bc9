#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench` guest side: first the records of the patch sites made at
# boot and the shadow stacks' memory (before any graph user has
# registered), then, twice over, samples/ftrace/ftrace-ops.ko for each
# row and its ns per call (= instructions per call under QEMU -icount
# shift=0), the code update of a tracer switch, per site, and the
# function graph's rows (fgraph_bench.ko): calls through the
# function_graph tracer and through one and two graph users; last the
# probes' rows (fprobe_bench.ko): fprobe, kprobe and kretprobe.
#
# A row's lines: "@@bench NAME NS CALLS" for each timed pass (NS is NA
# when the pass could not run) and "@@fail NAME WHY" for each check it
# failed; bench.sh fails a row that has either.  With
# series.rows=GLOB,... on the kernel command line only the rows that
# match run.
out=$1
exec >"$out" 2>&1
set -f
calls=100000
t=/sys/kernel/tracing
mods=/lib/modules/$(uname -r)
mod=$(find "$mods" -name ftrace-ops.ko)
fgbmod=$(find "$mods" -name fgraph_bench.ko)
fpbmod=$(find "$mods" -name fprobe_bench.ko)
rows=$(sed -n 's/.*series\.rows=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')

fail() {
	name=$1
	shift
	echo "@@fail $name $*"
}

# Is any of the rows named wanted?
want() {
	[ -z "$rows" ] && return 0
	for r in "$@"; do
		for g in $rows; do
			# shellcheck disable=SC2254 # $g is a glob
			case $r in $g) return 0 ;; esac
		done
	done
	return 1
}

# samples/ftrace/ftrace-ops.ko makes its calls in its init and then
# refuses to load, by design; its log says how long they took.  insmod,
# not modprobe: busybox modprobe tries a failing module a second time.
ops_load() {
	dmesg -c > /dev/null
	insmod "$mod" nr_function_calls=$calls "$@" 2>/dev/null
	dmesg > /tmp/ops.log
}
# First an untimed pass with check_count=1: every ops counts its calls,
# and the sample names each count that is not nr_function_calls (0 for
# the irrelevant ops); a registration that fails warns, and save_regs
# says when the kernel cannot have it.  Then the timed pass, whose
# callbacks do nothing.
ops_bad() {
	grep -m 1 -e 'Counter called' -e 'WARNING:' -e 'does not support' \
		/tmp/ops.log
}
row() {
	name=$1
	shift
	want "$name" || return
	ops_load "$@" check_count=1
	if ! grep -q "Attempted $calls calls" /tmp/ops.log; then
		fail "$name" "check_count pass: no calls made"
	elif ops_bad > /dev/null; then
		fail "$name" "check_count pass: $(ops_bad)"
	fi
	ops_load "$@"
	total=$(sed -n "s/.*Attempted $calls calls.* in \([0-9]*\)ns .*/\1/p" \
		/tmp/ops.log | head -n 1)
	echo "@@bench $name ${total:-NA} $calls"
}

# Turning the function tracer on over every site and off again, per
# site: the cost of a full code update.  tracing_on is 0 so that the
# callbacks running meanwhile write nothing to the buffer.  An untimed
# switch first proves the timed one's work: with the tracer on,
# enabled_functions lists every site as patched (none refused), and
# with it off, none.
# busybox date has no %N: the clock is the "now at" line of timer_list.
now_ns() {
	sed -n 's/^now at \([0-9]*\) nsecs$/\1/p; /^now at/q' /proc/timer_list
}
enabled_sites() {
	grep -v 'BAD:' $t/enabled_functions | grep -c '^[^[:space:]]'
}
toggle_check() {
	echo function > $t/current_tracer
	on=$(enabled_sites)
	echo nop > $t/current_tracer
	off=$(enabled_sites)
	[ "$on" = "$sites" ] && [ "$off" = 0 ] && return
	fail tracer_on_off_per_site "$on of $sites sites patched with the" \
		"function tracer on, $off left with it off"
}
toggle_row() {
	want tracer_on_off_per_site || return
	# The sites that have a name: those without are never patched.
	sites=$(grep -vc '^__ftrace_invalid_address__' \
		$t/available_filter_functions)
	echo 0 > $t/tracing_on
	toggle_check
	a=$(now_ns)
	echo function > $t/current_tracer
	echo nop > $t/current_tracer
	b=$(now_ns)
	echo 1 > $t/tracing_on
	if [ -n "$a" ] && [ -n "$b" ]; then
		echo "@@bench tracer_on_off_per_site $((b - a)) $sites"
	else
		echo "@@bench tracer_on_off_per_site NA $sites"
	fi
}

# The function graph on fgraph_bench.ko's tracee: nothing hooked, the
# function_graph tracer filtered to it (recording), one and two users
# with entry and return callbacks.  The module refuses a run unless each
# user saw every call enter and return.
fgb=/sys/module/fgraph_bench/parameters
fgb_run() {
	if echo $calls > $fgb/run; then
		echo "@@bench $1 $(cat $fgb/last_ns) $calls"
	else
		echo "@@bench $1 NA $calls"
		fail "$1" "run refused; each user's entries and returns:" \
			"$(cat $fgb/seen 2>&1)"
	fi
}
# The tracer writes an entry and a return event per call, and shows a
# call as one line naming the tracee: the buffer is made large enough to
# keep them all, and after the run must show every call.
graph_tracer_row() {
	want function_graph_tracer || return
	kb=$(sed 's/.*expanded: //; s/[^0-9].*//' $t/buffer_size_kb)
	echo 16384 > $t/buffer_size_kb
	echo fgb_tracee > $t/set_ftrace_filter
	echo function_graph > $t/current_tracer
	echo > $t/trace
	fgb_run function_graph_tracer
	n=$(grep -c fgb_tracee $t/trace)
	echo nop > $t/current_tracer
	echo > $t/set_ftrace_filter
	echo "$kb" > $t/buffer_size_kb
	[ "$n" = $calls ] ||
		fail function_graph_tracer "the buffer shows $n calls, not $calls"
}
fgraph_rows() {
	if want fgraph_tracee_unhooked function_graph_tracer; then
		insmod "$fgbmod" users=0
		want fgraph_tracee_unhooked && fgb_run fgraph_tracee_unhooked
		graph_tracer_row
		rmmod fgraph_bench
	fi
	for n in 1 2; do
		want fgraph_${n}_user_entry_return || continue
		insmod "$fgbmod" users=$n
		fgb_run fgraph_${n}_user_entry_return
		rmmod fgraph_bench
	done
}

# The memory the kernel holds for itself, in bytes, into $kmem: what
# the page allocator gave out (MemTotal less MemFree, less the free
# pages on the per-CPU lists, which MemFree does not count), less the
# page cache, user pages, kernel stacks and page tables.  The per-CPU
# counters are folded first.  Shell builtins only: a forked process
# would allocate and free memory of its own.
kmem() {
	echo 1 > /proc/sys/vm/stat_refresh
	kmem=0
	while read -r k v _; do
		case $k in
		MemTotal:) kmem=$((kmem + v * 1024)) ;;
		MemFree:|Buffers:|Cached:|AnonPages:|KernelStack:|PageTables:)
			kmem=$((kmem - v * 1024)) ;;
		esac
	done < /proc/meminfo
	while read -r k v _; do
		[ "$k" = count: ] && kmem=$((kmem - v * 4096))
	done < /proc/zoneinfo
}
# The shadow stacks' memory, measured, in three rounds with 1000 extra
# tasks each: how much the kernel's memory grows when one graph user
# registers, per task that got a stack then, and how much more than
# before it holds 20 s after the user left, per the same task.  Memory
# the allocator had free at the start (a part-filled slab) makes the
# growth smaller; noise in the kernel's own use moves it either way: so
# many tasks and the median of three keep either to about 1%.  The first
# round includes the idle tasks' stacks in the bytes, not in the tasks.
# A round fails unless all the extra tasks got stacks.
tasks=1000
stack_round() {
	pids=
	for _ in $(seq $tasks); do
		sleep 1000 &
		pids="$pids $!"
	done
	insmod "$fgbmod" users=0
	sleep 2
	kmem
	m0=$kmem
	read -r with0 _ < $fgb/stacks
	echo 1 > $fgb/users
	kmem
	m1=$kmem
	read -r with1 all < $fgb/stacks
	echo 0 > $fgb/users
	sleep 20
	kmem
	m2=$kmem
	read -r with2 _ < $fgb/stacks
	rmmod fgraph_bench
	# shellcheck disable=SC2086 # one word per pid
	kill $pids
	wait
	got=$((with1 - with0))
	echo "stacks: kernel memory $m0 $m1 $m2 bytes;" \
		"tasks with a stack $with0 $with1 $with2, of $all"
	stack_row on $((m1 - m0))
	stack_row after $((m2 - m0))
}
stack_row() {
	if [ "$got" -ge $tasks ]; then
		echo "@@bench fgraph_stack_bytes_per_task_$1 $2 $got"
	else
		echo "@@bench fgraph_stack_bytes_per_task_$1 NA 1"
		fail "fgraph_stack_bytes_per_task_$1" "only $got tasks got a stack"
	fi
}
stack_rows() {
	want fgraph_stack_bytes_per_task_on \
		fgraph_stack_bytes_per_task_after || return
	for _ in 1 2 3; do
		stack_round
	done
}

# fprobe_bench.ko's tracee under one probe per row: an fprobe on it alone
# (entry; entry and exit; the same with 16 bytes of entry data), a kprobe
# on its ftrace site, a kretprobe, and an fprobe on every traceable
# function (entry; entry and exit).  A run fails (NA) unless the
# handlers saw every call.  Each probe is registered once for both
# passes (one code update over all sites is seconds under TCG), and
# these rows come last, the all-functions ones at the very end: a probe
# that takes the guest down then costs only the rows after it.
fpb=/sys/module/fprobe_bench/parameters
fprobe_row() {
	want "$1" || return
	if ! insmod "$fpbmod" mode="$2"; then
		echo "@@bench $1 NA $calls"
		fail "$1" "the probe did not register"
		return
	fi
	for _ in 1 2; do
		if echo $calls > $fpb/run; then
			echo "@@bench $1 $(cat $fpb/last_ns) $calls"
		else
			echo "@@bench $1 NA $calls"
			fail "$1" "run refused: entries $(cat $fpb/entries)" \
				"exits $(cat $fpb/exits)"
		fi
	done
	rmmod fprobe_bench
}
fprobe_rows() {
	fprobe_row fprobe_entry entry
	fprobe_row fprobe_entry_exit entry_exit
	fprobe_row fprobe_entry_exit_data16 entry_exit_data16
	fprobe_row kprobe_on_ftrace kprobe
	fprobe_row kretprobe kretprobe
	fprobe_row fprobe_all_functions all_entry
	fprobe_row fprobe_all_functions_entry_exit all_entry_exit
}

# The records of the patch sites made at boot, from dyn_ftrace_total_info
# ("RECORDS pages:PAGES groups: GROUPS" in both kernels): how many, and
# the bytes their tables take per record.
record_rows() {
	want boot_records record_bytes_per_site || return
	# shellcheck disable=SC2046 # one word per field
	set -- $(tr ':' ' ' < $t/dyn_ftrace_total_info) NA NA NA
	if [ "$3" = NA ] || [ "$1" = 0 ]; then
		echo "@@bench boot_records NA 1"
		echo "@@bench record_bytes_per_site NA 1"
		fail boot_records "dyn_ftrace_total_info: $(cat $t/dyn_ftrace_total_info)"
		return
	fi
	echo "@@bench boot_records $1 1"
	echo "@@bench record_bytes_per_site $(($3 * 4096)) $1"
}

# The tracers over a whole workload, per round of
# harness/guest-src/syscall_loop.c (a one-byte read of /dev/zero, a
# one-byte write to /dev/null, a stat of /proc/self): nothing traced;
# the function and function_graph tracers on every function, tracing on
# and off; the function tracer on a glob; an fprobe, a %return fprobe,
# a kprobe and a kretprobe event on vfs_read.  Each pass proves what it
# traced: the buffer, made large enough to lose nothing, holds at least
# $2 events per round, lost none, and shows the line the row's hooks
# make for vfs_read; or it holds nothing where the row traces nothing or
# tracing is off.  (Formatting every line would take the guest minutes.)
# syscall_loop times its rounds itself: the program's start and exit and
# a clock read by another program would be in the pass, and they vary
# (by 1.0 to 1.4 million instructions, on either kernel, with what ran
# just before) by more than a probe event costs over the whole pass.
rounds=1000
wl_stats() {
	# No glob: the script runs with set -f.
	for c in $(ls $t/per_cpu); do
		cat "$t/per_cpu/$c/stats"
	done | awk '/^entries:/ { e += $2 } /^overrun:/ { o += $2 }
		    END { print e + 0, o + 0 }'
}
wl_check() {
	name=$1 per_round=$2 pattern=$3
	# shellcheck disable=SC2046 # two numbers
	set -- $(wl_stats)
	echo "$name: $1 events, $2 lost, for $rounds rounds"
	if [ "$per_round" = 0 ]; then
		[ "$1" = 0 ] || fail "$name" "$1 events traced, none expected"
		return
	fi
	[ "$1" -ge $((rounds * per_round)) ] && [ "$2" = 0 ] &&
		grep -q -m 1 -e "$pattern" $t/trace && return
	fail "$name" "$1 events ($2 lost) for $rounds rounds, at least" \
		"$per_round a round showing '$pattern'"
}
# Let the last row's teardown end before a row is timed: the series
# takes the shadow stacks back in the background once the last graph
# user or exit probe has gone (grace periods, a walk of every task),
# which is not the next row's cost.  Wait until tracefs' fgraph_stacks
# (the series') has held still for 3 s, at most a minute; and 3 s on
# either kernel, so that both are timed after the same pause.
wl_settle() {
	prev= i=0
	sleep 3
	[ -r $t/fgraph_stacks ] || return 0
	while [ $i -lt 20 ]; do
		cur=$(cat $t/fgraph_stacks)
		[ "$cur" = "$prev" ] && return 0
		prev=$cur
		sleep 3
		i=$((i + 1))
	done
	echo "fgraph_stacks still changing after a minute: $cur"
}
wl_row() {
	name=workload_$1 per_round=$2 pattern=$3
	want "$name" || return 0
	shift 3
	wl_settle
	"$@"
	for _ in 1 2 3; do
		echo > $t/trace
		res=$(syscall_loop $rounds) || fail "$name" "workload failed"
		case $res in
		"$rounds "[0-9]*) ns=${res#* } ;;
		*) ns=NA ;;
		esac
		echo "@@bench $name $ns $rounds"
		wl_check "$name" "$per_round" "$pattern"
	done
	wl_reset
}
wl_reset() {
	echo nop > $t/current_tracer
	echo 1 > $t/tracing_on
	echo > $t/set_ftrace_filter
	echo 0 > $t/events/enable
	echo > $t/dynamic_events
	echo > $t/kprobe_events
}
wl_tracer() { echo "$1" > $t/current_tracer; }
wl_tracer_off() {
	echo "$1" > $t/current_tracer
	echo 0 > $t/tracing_on
}
wl_glob() {
	echo 'vfs_*' > $t/set_ftrace_filter
	echo function > $t/current_tracer
}
wl_event() {
	echo "$1" >> "$t/$2"
	echo 1 > $t/events/wl/enable
}
workload_rows() {
	kb=$(sed 's/.*expanded: //; s/[^0-9].*//' $t/buffer_size_kb)
	echo 65536 > $t/buffer_size_kb
	# Each round calls vfs_read and vfs_write once, and both are in
	# the glob; a probe event on vfs_read has one event a round.
	wl_row none 0 '' true
	wl_row function 20 ' vfs_read <-' wl_tracer function
	wl_row function_off 0 '' wl_tracer_off function
	wl_row function_graph 40 'vfs_read() {' wl_tracer function_graph
	wl_row function_graph_off 0 '' wl_tracer_off function_graph
	wl_row function_glob 2 ' vfs_read <-' wl_glob
	wl_row fprobe 1 'read: (vfs_read' \
		wl_event 'f:wl/read vfs_read count=$arg3' dynamic_events
	wl_row fprobe_return 1 'read_ret: (.* <- vfs_read)' \
		wl_event 'f:wl/read_ret vfs_read%return ret=$retval' dynamic_events
	wl_row kprobe 1 'kread: (vfs_read' \
		wl_event 'p:wl/kread vfs_read' kprobe_events
	wl_row kretprobe 1 'kread_ret: (.* <- vfs_read)' \
		wl_event 'r:wl/kread_ret vfs_read ret=$retval' kprobe_events
	echo "$kb" > $t/buffer_size_kb
}

echo "@@guest $(uname -r)"
record_rows
stack_rows
for _ in 1 2; do
	row "nr_ops_relevant=0" nr_ops_relevant=0
	row "nr_ops_relevant=1" nr_ops_relevant=1
	row "nr_ops_relevant=2" nr_ops_relevant=2
	row "nr_ops_relevant=4" nr_ops_relevant=4
	row "1_relevant+5_irrelevant" nr_ops_relevant=1 nr_ops_irrelevant=5
	row "save_regs" nr_ops_relevant=1 save_regs=1
	row "assist_recursion" nr_ops_relevant=1 assist_recursion=1
	row "assist_rcu" nr_ops_relevant=1 assist_rcu=1
	toggle_row
	fgraph_rows
done
workload_rows
fprobe_rows
echo "@@done"
