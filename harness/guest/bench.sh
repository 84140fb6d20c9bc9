#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench` guest side: samples/ftrace/ftrace-ops.ko for each row and
# its ns per call (= instructions per call under QEMU -icount shift=0),
# then the code update of a tracer switch, per site.
out=$1
exec >"$out" 2>&1
calls=100000
mod=$(find /lib/modules/"$(uname -r)" -name ftrace-ops.ko)
row() {
	name=$1; shift
	dmesg -c > /dev/null
	# insmod, not modprobe: busybox modprobe tries a failing module
	# (this one always refuses to load) a second time.
	insmod "$mod" nr_function_calls=$calls "$@" 2>/dev/null
	line=$(dmesg | grep "Attempted $calls calls" | head -n 1)
	total=$(echo "$line" | sed -n 's/.* in \([0-9]*\)ns .*/\1/p')
	echo "@@bench $name ${total:-NA} $calls"
}
# Turning the function tracer on over every site and off again, per
# site: the cost of a full code update.  tracing_on is 0 so that the
# callbacks running meanwhile write nothing to the buffer.
# busybox date has no %N: the clock is the "now at" line of timer_list.
now_ns() {
	sed -n 's/^now at \([0-9]*\) nsecs$/\1/p; /^now at/q' /proc/timer_list
}
toggle_row() {
	t=/sys/kernel/tracing
	sites=$(wc -l < $t/available_filter_functions)
	echo 0 > $t/tracing_on
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
echo "@@guest $(uname -r)"
for pass in 1 2; do
	row "nr_ops_relevant=0" nr_ops_relevant=0
	row "nr_ops_relevant=1" nr_ops_relevant=1
	row "nr_ops_relevant=2" nr_ops_relevant=2
	row "nr_ops_relevant=4" nr_ops_relevant=4
	row "1_relevant+5_irrelevant" nr_ops_relevant=1 nr_ops_irrelevant=5
	row "save_regs" nr_ops_relevant=1 save_regs=1
	row "assist_recursion" nr_ops_relevant=1 assist_recursion=1
	row "assist_rcu" nr_ops_relevant=1 assist_rcu=1
	toggle_row
done
echo "@@done"
