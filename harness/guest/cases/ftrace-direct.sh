# A samples/ftrace/ftrace-direct*.ko: load it, let it hook, see its
# trace_printk() output, unload.  $1 is the module.
. ./lib.sh
mod=$1
case "$mod" in
ftrace-direct) text="waking up" ;;
ftrace-direct-too) text="handle mm fault" ;;
ftrace-direct-modify) text="my direct func" ;;
ftrace-direct-multi) text=" ip " ;;
ftrace-direct-multi-modify) text="my direct func. ip" ;;
*) fail "unknown sample $mod" ;;
esac
reset_tracing
modprobe "$mod" || fail "modprobe $mod"
# Wake-ups, page faults and schedules happen on their own; help them.
for i in 1 2 3; do ls / > /dev/null; sleep 1; done
wait_trace 10 "$text" || { rmmod "$mod"; fail "no '$text' in the trace"; }
grep -m 3 "$text" $T/trace
rmmod "$mod" || fail "rmmod $mod"
echo > $T/trace
sleep 1
grep -q "$text" $T/trace && fail "still hooked after rmmod"
exit 0
