#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench` guest side: samples/ftrace/ftrace-ops.ko for each row and
# its ns per call (= instructions per call under QEMU -icount shift=0).
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
done
echo "@@done"
