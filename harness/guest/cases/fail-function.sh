# Error injection through a function's ftrace site: fail_function puts
# a kprobe on the entry of a syscall (on ftrace: KPROBES_ON_FTRACE), and
# for a task that asked for failures its handler moves the ip to the
# caller and the sp past the return address, with an error in the
# return value.  The hooks must go where the handler says: the syscall
# fails with that error, and runs as before for every other task and
# once the injection is gone.
. ./lib.sh
D=/sys/kernel/debug/fail_function
[ -d $D ] || unsupported "no fail_function (CONFIG_FAIL_FUNCTION)"
fn=$(grep -o '^__[a-z0-9]*_sys_newuname\b' /sys/kernel/debug/error_injection/list |
	head -n 1)
[ -n "$fn" ] || fail "no sys_newuname on the error-injection list"
name=$(uname -s) || fail "uname fails before any injection"

echo "$fn" > $D/inject || fail "inject $fn"
grep -q "^$fn " $T/enabled_functions ||
	fail "the kprobe on $fn is not on its ftrace site"
printf %#x -12 > $D/$fn/retval || fail "retval"
echo 100 > $D/probability
echo -1 > $D/times
echo 0 > $D/interval
echo Y > $D/task-filter

# GNU uname reports the error; busybox's ignores it and prints the name
# from a buffer the syscall never filled.  Either way not $name.
out=$(sh -c 'echo 1 > /proc/self/make-it-fail && exec uname -s' 2>&1)
case "$out" in
"$name") fail "uname answered $name with the injection" ;;
*[Ee]rror*|*"cannot"*)
	case "$out" in
	*"Cannot allocate memory"*) ;;
	*) fail "uname failed otherwise than with ENOMEM: $out" ;;
	esac ;;
esac
# A task that did not ask for failures goes through the same probe.
[ "$(uname -s)" = "$name" ] || fail "uname failed without make-it-fail"

echo "!$fn" > $D/inject || fail "remove $fn"
[ "$(sh -c 'echo 1 > /proc/self/make-it-fail && exec uname -s')" = "$name" ] ||
	fail "uname fails after the injection is gone"
exit 0
