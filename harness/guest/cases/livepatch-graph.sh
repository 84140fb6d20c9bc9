# SPDX-License-Identifier: GPL-2.0
# A livepatch selftest ($1) while a function_graph tracer, in an
# instance, hooks functions that tasks sleep in.  Livepatch switches a
# task only when its stack unwinds reliably, so the unwinder must see
# through the return hook (return_to_handler) to the real callers: a
# task it cannot read blocks the transition and the selftest fails.
# Before that, a task put to sleep under the graph must show its real
# callers in /proc/PID/stack, never return_to_handler.
. ./lib.sh
[ -n "$1" ] || fail "usage: livepatch-graph.sh TEST"
reset_tracing
inst=$T/instances/lpgraph
mkdir $inst || fail "mkdir $inst"
cleanup() {
	echo nop > $inst/current_tracer
	rmdir $inst
}
# One word per write: a word that matches nothing would refuse them all.
n=0
for f in schedule schedule_timeout do_nanosleep hrtimer_nanosleep \
	 do_select do_sys_poll pipe_read wait_woken n_tty_read do_wait \
	 worker_thread smpboot_thread_fn rcu_gp_kthread; do
	if grep -qx $f $T/available_filter_functions; then
		echo $f >> $inst/set_ftrace_filter
		n=$((n + 1))
	fi
done
[ $n -ge 3 ] || { cleanup; unsupported "only $n sleeping functions to hook"; }
echo function_graph > $inst/current_tracer

sleep 30 &
sleeper=$!
sleep 2
cat /proc/$sleeper/stack
grep -q 'return_to_handler' /proc/$sleeper/stack &&
	{ kill $sleeper; cleanup; fail "return_to_handler in a sleeping task's stack"; }
grep -q 'nanosleep' /proc/$sleeper/stack ||
	{ kill $sleeper; cleanup; fail "the sleeper's stack does not show its real callers"; }
grep -q 'nanosleep' $inst/trace ||
	{ kill $sleeper; cleanup; fail "the graph did not hook the sleeper"; }
kill $sleeper

(cd /selftests/livepatch &&
 PATH=/usr/sbin:/usr/bin:/sbin:/bin KDIR=/selftests/livepatch/test_modules \
	bash ./"$1")
rc=$?
entries=$(grep -vc '^#' $inst/trace)
cleanup
echo "graph lines recorded meanwhile: $entries"
[ $rc -eq 0 ] || fail "$1 failed with the graph on ($rc)"
[ "$entries" -gt 0 ] || fail "the graph recorded nothing"
exit 0
