# trace-cmd (Debian's) records the function and the function_graph
# tracers with a filter, and fprobe events, and reports them: a real
# tracefs client must not notice anything unusual.  The workload is dd, which reads with read(2):
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

# An fprobe event on vfs_read and one on its return, made through
# dynamic_events (trace-cmd 3.1 makes no fprobe), recorded by trace-cmd
# for nread alone (-F: its pid) and reported: each of nread's N reads
# of /proc/version (harness/guest-src/nread.c) is one vfs_read() asked
# for 4096 bytes and returning the file's size, so exactly N of each.
N=50
size=$(wc -c < /proc/version)
echo 'f:fprobes/tc_read vfs_read count=$arg3' >> $T/dynamic_events &&
echo 'f:fprobes/tc_read_ret vfs_read%return ret=$retval' >> $T/dynamic_events ||
	fail "fprobe events"
trace-cmd record -q -e fprobes:tc_read -e fprobes:tc_read_ret -F -o /tmp/tc.dat \
	nread /proc/version $N > /tmp/tc.rec 2>&1 || { cat /tmp/tc.rec; fail "record fprobe events"; }
trace-cmd report -i /tmp/tc.dat > /tmp/tc.txt 2>&1 || { cat /tmp/tc.txt; fail "report of fprobe events"; }
trace-cmd reset > /dev/null 2>&1
echo '-:fprobes/tc_read' >> $T/dynamic_events
echo '-:fprobes/tc_read_ret' >> $T/dynamic_events
grep -m 2 'tc_read' /tmp/tc.txt
entry=$(grep -c "nread-[0-9].* tc_read: .*count=0x1000\$" /tmp/tc.txt)
ret=$(grep -c "nread-[0-9].* tc_read_ret: .*ret=$size\$" /tmp/tc.txt)
echo "fprobe: $entry entry events, $ret return events from nread (want $N)"
[ "$entry" -eq $N ] && [ "$ret" -eq $N ] ||
	{ tail -n 20 /tmp/tc.txt; fail "fprobe events: $entry and $ret, not $N"; }
grep -q tc_read $T/dynamic_events && fail "fprobe events not removed"
grep '^vfs_read' $T/enabled_functions && fail "vfs_read still hooked"
exit 0
