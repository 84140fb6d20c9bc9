# Function tracing without dynamic ftrace (`make nodyn`): every
# __fentry__ call stays and reaches ftrace_trace_function.  There are
# no filter files; the function tracer records calls with their
# parents; a module's ftrace_ops with no filter is called, with its
# own op, for every function, and not once it is unregistered.
. ./lib.sh
hits=/sys/module/ftrace_hits/parameters
for f in set_ftrace_filter set_ftrace_notrace available_filter_functions \
	enabled_functions; do
	[ -e $T/$f ] && fail "$f exists without dynamic ftrace"
done

echo 0 > $T/tracing_on
echo > $T/trace
echo function > $T/current_tracer || fail "no function tracer"
echo 1 > $T/tracing_on
cat /proc/version > /dev/null
# This write goes through vfs_write() before tracing stops.
echo 0 > $T/tracing_on
grep -q ' vfs_write <-ksys_write' $T/trace ||
	fail "the function tracer did not record vfs_write <-ksys_write"
echo nop > $T/current_tracer
echo 1 > $T/tracing_on

modprobe ftrace_hits filter= || fail "modprobe ftrace_hits filter="
before=$(cat $hits/hits)
cat /proc/version > /dev/null
after=$(cat $hits/hits)
[ "$after" -gt "$before" ] || fail "hits went $before -> $after"
strays=$(cat $hits/strays)
[ "$strays" -eq 0 ] || fail "$strays calls came with another op"
rmmod ftrace_hits || fail "rmmod"
grep -q ftrace_hits /proc/modules && fail "ftrace_hits still loaded"
exit 0
