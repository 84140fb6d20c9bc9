# samples/ftrace/ftrace-ops.ko with its counts checked.  The module runs
# its benchmark in init and then refuses to load (-EINVAL) by design.
. ./lib.sh
dmesg -c > /dev/null
modprobe ftrace-ops nr_function_calls=10000 check_count=1 "$@" && fail "module stayed loaded"
dmesg > /tmp/ftrace-ops.log
cat /tmp/ftrace-ops.log
grep -q "Attempted 10000 calls to tracee_relevant" /tmp/ftrace-ops.log || fail "no benchmark line"
grep -q "Counter called" /tmp/ftrace-ops.log && fail "a callback count is wrong"
grep -q "does not support saving registers" /tmp/ftrace-ops.log && fail "save_regs unsupported"
lsmod | grep -q '^ftrace_ops' && fail "module left loaded"
exit 0
