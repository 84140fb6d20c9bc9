# perf (Debian's linux-perf, 6.1) as a client of the function hooks,
# over nread (harness/guest-src/nread.c): N reads of /proc/version,
# each exactly one vfs_read().  perf starts its workload once tracing
# is set up, so every count below is exact:
#   perf ftrace -t function -T vfs_read: N calls of vfs_read and
#     nothing else (the filter, and perf's pid filter on nread)
#   perf ftrace -t function_graph -G vfs_read: N "vfs_read() {" blocks,
#     with seq_read_iter() in each (the graph of its callees)
#   perf probe vfs_read and vfs_read%return (kprobe events, which sit
#     on the function's ftrace site), counted by perf stat: N each;
#     removed, they must leave kprobe_events and enabled_functions
#   perf record -e ftrace:function --filter 'ip == vfs_read' (the
#     function tracer's event, which perf may use with a filter of
#     function names): N samples from nread, each at vfs_read
. ./lib.sh
command -v perf > /dev/null || unsupported "no perf in the initramfs"
command -v nread > /dev/null || fail "no nread in the initramfs"
reset_tracing
cd /tmp || exit 1
N=50

# exactly WHAT COUNT FILE: say how many, fail unless COUNT is N.
exactly() {
	echo "$1: $2 (want $N)"
	[ "$2" -eq $N ] || { tail -n 30 "$3"; fail "$1: $2, not $N"; }
}

perf ftrace -t function -T vfs_read -- nread /proc/version $N \
	> /tmp/pf.txt 2>&1 || { cat /tmp/pf.txt; fail "perf ftrace -t function"; }
head -n 3 /tmp/pf.txt
# trace_pipe names the task "<...>": the tracer saved no comm for it.
exactly "function: calls of vfs_read" "$(grep -c ' vfs_read <-' /tmp/pf.txt)" /tmp/pf.txt
grep ' <-' /tmp/pf.txt | grep -v 'vfs_read <-' && fail "function: the filter leaked"

perf ftrace -t function_graph -G vfs_read -- nread /proc/version $N \
	> /tmp/pg.txt 2>&1 || { cat /tmp/pg.txt; fail "perf ftrace -t function_graph"; }
grep -m 8 -A 6 'vfs_read() {' /tmp/pg.txt | head -n 8
exactly "function_graph: vfs_read() blocks" \
	"$(grep -c '| *vfs_read() {' /tmp/pg.txt)" /tmp/pg.txt
exactly "function_graph: seq_read_iter() under them" \
	"$(grep -c '| *seq_read_iter() {' /tmp/pg.txt)" /tmp/pg.txt

perf probe -q -a vfs_read || fail "perf probe -a vfs_read"
perf probe -q -a 'vfs_read%return' || fail "perf probe -a vfs_read%return"
perf probe -l 2>&1
grep -q '^p:probe/vfs_read ' $T/kprobe_events || fail "no probe:vfs_read in kprobe_events"
grep -q '^r[0-9]*:probe/vfs_read__return ' $T/kprobe_events ||
	fail "no probe:vfs_read__return in kprobe_events"
perf stat -x, -e probe:vfs_read -e probe:vfs_read__return -o /tmp/ps.txt \
	-- nread /proc/version $N > /dev/null 2>&1 ||
	{ cat /tmp/ps.txt; fail "perf stat"; }
exactly "perf stat probe:vfs_read" \
	"$(awk -F, '$3 == "probe:vfs_read" { print $1 }' /tmp/ps.txt)" /tmp/ps.txt
exactly "perf stat probe:vfs_read__return" \
	"$(awk -F, '$3 == "probe:vfs_read__return" { print $1 }' /tmp/ps.txt)" /tmp/ps.txt
perf probe -q -d 'probe:vfs_read*' || fail "perf probe -d"
grep vfs_read $T/kprobe_events && fail "perf probe -d left a probe"
grep '^vfs_read' $T/enabled_functions && fail "vfs_read still hooked after perf probe -d"

perf record -q -e ftrace:function --filter 'ip == vfs_read' -o /tmp/perf.data \
	-- nread /proc/version $N > /tmp/pr.txt 2>&1 ||
	{ cat /tmp/pr.txt; fail "perf record -e ftrace:function"; }
perf script -i /tmp/perf.data > /tmp/pr.txt 2>&1 ||
	{ cat /tmp/pr.txt; fail "perf script"; }
head -n 3 /tmp/pr.txt
exactly "ftrace:function samples" "$(grep -c 'ftrace:function:' /tmp/pr.txt)" /tmp/pr.txt
exactly "ftrace:function samples of nread at vfs_read" \
	"$(grep -c '^ *nread .*ftrace:function: *[0-9a-f]* *vfs_read\|^ *nread .*ftrace:function: *vfs_read' /tmp/pr.txt)" \
	/tmp/pr.txt
grep '^vfs_read' $T/enabled_functions && fail "vfs_read still hooked after perf record"
exit 0
