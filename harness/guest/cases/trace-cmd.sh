# trace-cmd (Debian's) records the function and the function_graph
# tracers with a filter and reports them: a real tracefs client must not
# notice anything unusual.  The workload is dd, which reads with read(2):
# busybox cat copies with sendfile(2) and never reaches vfs_read.
. ./lib.sh
reset_tracing
cd /tmp || exit 1

# record TRACER EVENTS LEAKS: record TRACER filtered to vfs_read over the
# workload; each dd reads /proc/version (~150 bytes) 16 bytes at a time,
# so at least 25 lines from dd must match EVENTS, and none may match
# LEAKS (lines of the tracer's events that name another function).
record() {
	trace-cmd record -q -p "$1" -l 'vfs_read' -o /tmp/tc.dat \
		sh -c 'for i in 1 2 3 4 5; do dd if=/proc/version of=/dev/null bs=16; done 2>/dev/null' \
		> /tmp/tc.rec 2>&1 || { cat /tmp/tc.rec; fail "record -p $1"; }
	trace-cmd report -i /tmp/tc.dat > /tmp/tc.txt 2>&1 ||
		{ cat /tmp/tc.txt; fail "report of $1"; }
	head -n 5 /tmp/tc.txt
	n=$(grep -c "dd-.*$2" /tmp/tc.txt)
	echo "$1: vfs_read events from dd: $n"
	if [ "$n" -lt 25 ]; then
		tail -n 20 /tmp/tc.txt
		cat /tmp/tc.rec
		fail "$1: expected at least 25 vfs_read events from dd, got $n"
	fi
	if grep "$3" /tmp/tc.txt | grep -v 'vfs_read\|funcgraph_exit'; then
		fail "$1: filter leaked"
	fi
	trace-cmd reset > /dev/null 2>&1
}

record function 'function: *vfs_read' 'function:'
# trace-cmd folds a graph entry and its exit into a leaf with its duration.
record function_graph 'funcgraph_entry:.*us .*vfs_read();' 'funcgraph_'
exit 0
