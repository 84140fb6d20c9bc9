#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make run`: show the function hooks at work on a booted guest.
cd /sys/kernel/tracing || exit 1
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "kernel $(uname -r), $(nproc) CPUs; $(wc -l < available_filter_functions) functions can be hooked"

say "set a filter by glob: echo 'vfs_*' > set_ftrace_filter"
echo 'vfs_*' > set_ftrace_filter
echo "$(wc -l < set_ftrace_filter) functions match; the first few:"
head -n 5 set_ftrace_filter

say "function tracer over a small workload (ls, cat)"
echo function > current_tracer
echo > trace
ls / > /dev/null
cat /proc/version > /dev/null
echo 0 > tracing_on
grep -v '^#' trace | head -n 8
echo "... $(grep -vc '^#' trace) lines in the trace"

say "enabled_functions: the patched sites and who owns them"
head -n 5 enabled_functions
echo "... $(wc -l < enabled_functions) sites enabled"
echo nop > current_tracer
echo > set_ftrace_filter
echo 1 > tracing_on

say "a module registering its own ftrace_ops: modprobe ftrace_hits filter='vfs_read'"
modprobe ftrace_hits filter=vfs_read
# busybox cat uses sendfile(); dd really read()s.
for i in 1 2 3 4 5 6 7 8 9 10; do dd if=/proc/version of=/dev/null 2>/dev/null; done
echo "hits after ten dd runs: $(cat /sys/module/ftrace_hits/parameters/hits)"
grep vfs_read enabled_functions
rmmod ftrace_hits
dmesg | grep ftrace_hits | tail -n 2

say "samples/ftrace/ftrace-ops.ko: 1000 calls, 1 relevant + 1 irrelevant ops, counts checked"
modprobe ftrace-ops nr_function_calls=1000 nr_ops_relevant=1 nr_ops_irrelevant=1 check_count=1 2>/dev/null
dmesg | grep 'ftrace_ops: \(Attempted\|Counter\)' | sed 's/^\[[ 0-9.]*\] //' | tail -n 1

say "the function graph over a small call tree: ksys_read, three levels deep"
echo ksys_read > set_graph_function
echo 3 > max_graph_depth
echo function_graph > current_tracer
echo > trace
dd if=/proc/version of=/dev/null bs=64 count=1 2>/dev/null
echo 0 > tracing_on
grep -v '^#' trace | grep -m 1 -A 14 'ksys_read() {'
echo nop > current_tracer
echo 0 > max_graph_depth
echo > set_graph_function
echo 1 > tracing_on

say "fprobe events: vfs_read's size on entry, its return value on return"
echo 'f:demo/read vfs_read count=$arg3' >> dynamic_events
echo 'f:demo/read_ret vfs_read%return ret=$retval' >> dynamic_events
echo > trace
echo 1 > events/demo/enable
dd if=/proc/version of=/dev/null bs=64 count=1 2>/dev/null
echo 0 > events/demo/enable
grep -v '^#' trace | grep -m 4 'dd-'
echo '-:demo/read' >> dynamic_events
echo '-:demo/read_ret' >> dynamic_events

say "a module's fprobe with entry data: modprobe fprobe_demo func=vfs_read"
modprobe fprobe_demo func=vfs_read
for i in 1 2 3 4 5 6 7 8 9 10; do dd if=/proc/version of=/dev/null 2>/dev/null; done
p=/sys/module/fprobe_demo/parameters
echo "vfs_read returned $(cat $p/calls) times, the longest call took $(cat $p/max_ns) ns"
rmmod fprobe_demo
dmesg | grep 'fprobe_demo\|vfs_read: ' | tail -n 1
