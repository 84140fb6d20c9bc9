# A traced module loaded and unloaded in a loop: each time a ":mod:"
# filter of set_ftrace_filter waits for it (cached while it is away),
# the function tracer runs, and a kprobe event (on ftrace) hooks one of
# its functions.  After each load its functions are in the filter and
# hooked, and the kprobe fires exactly once for the call the case makes;
# after each unload none of its sites is left anywhere.
. ./lib.sh
MOD=trace-events-sample
M=trace_events_sample
N=${1:-15}
reset_tracing
rmmod $MOD 2>/dev/null
echo > $T/kprobe_events
# A function of the kernel's own keeps the filter from ever being empty
# (an empty filter would trace every function).
echo vfs_read > $T/set_ftrace_filter
echo "p:kpmod $M:foo_bar_reg" > $T/kprobe_events || fail "kprobe event on $M"
echo function > $T/current_tracer
# The kprobe's hits go to a buffer of their own, which the function
# tracer cannot overwrite.
I=$T/instances/stress_module
rmdir $I 2>/dev/null
mkdir $I || fail "instance"
echo 1 > $I/events/kprobes/kpmod/enable
i=0
while [ $i -lt "$N" ]; do
	echo ":mod:$M" >> $T/set_ftrace_filter || fail "round $i: mod filter"
	grep -q "^:mod:$M" $T/set_ftrace_filter || fail "round $i: not cached"
	modprobe $MOD || fail "round $i: modprobe"
	grep -q "^foo_bar_reg \[$M\]" $T/set_ftrace_filter ||
		fail "round $i: cached filter not applied"
	grep -q "^foo_bar_reg \[$M\]" $T/enabled_functions ||
		fail "round $i: module function not hooked"
	echo 1 > $T/events/sample-trace/foo_bar_with_fn/enable
	echo 0 > $T/events/sample-trace/foo_bar_with_fn/enable
	rmmod $MOD || fail "round $i: rmmod"
	grep -q "\[$M\]" $T/enabled_functions && fail "round $i: sites left hooked"
	grep -q "\[$M\]" $T/set_ftrace_filter && fail "round $i: functions left in the filter"
	i=$((i + 1))
done
echo 0 > $I/events/kprobes/kpmod/enable
hits=$(grep -c "kpmod:" $I/trace)
rmdir $I
echo nop > $T/current_tracer
echo > $T/kprobe_events
reset_tracing
[ "$hits" -eq "$N" ] || fail "kprobe hits $hits, want $N"
echo "$N rounds, $hits kprobe hits"
exit 0
