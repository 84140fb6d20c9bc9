# CPU hotplug under hooks: the second CPU goes offline and online in a
# loop while an ftrace_ops (ftrace_hits.ko on vfs_read) and the
# function tracer run, then again under the function graph (whose idle
# tasks get stacks as their CPUs come online).  A reader keeps calling
# vfs_read on whatever CPU it lands on.  The ops' count and the trace
# must keep growing through every round.
. ./lib.sh
N=${1:-12}
C=/sys/devices/system/cpu/cpu1/online
[ -w $C ] || unsupported "cpu1 cannot go offline"
reset_tracing
modprobe ftrace_hits filter=vfs_read || fail "modprobe ftrace_hits"
H=/sys/module/ftrace_hits/parameters/hits
(while :; do cat /proc/version > /dev/null; done) &
reader=$!
cleanup() {
	kill $reader 2>/dev/null
	echo 1 > $C
	echo nop > $T/current_tracer
	rmmod ftrace_hits
	reset_tracing
}
for tracer in function function_graph; do
	echo vfs_read > $T/set_ftrace_filter
	echo $tracer > $T/current_tracer || { cleanup; fail "$tracer"; }
	i=0
	while [ $i -lt "$N" ]; do
		before=$(cat $H)
		echo 0 > $C || { cleanup; fail "$tracer round $i: offline"; }
		sleep 0.2
		echo 1 > $C || { cleanup; fail "$tracer round $i: online"; }
		sleep 0.2
		after=$(cat $H)
		[ "$after" -gt "$before" ] ||
			{ cleanup; fail "$tracer round $i: hits stuck at $after"; }
		i=$((i + 1))
	done
	grep -q "vfs_read" $T/trace || { cleanup; fail "$tracer: nothing traced"; }
	echo nop > $T/current_tracer
	echo > $T/trace
done
strays=$(cat /sys/module/ftrace_hits/parameters/strays)
cleanup
[ "$strays" -eq 0 ] || fail "$strays calls reached ftrace_hits with another op"
exit 0
