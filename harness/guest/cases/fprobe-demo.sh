# The harness's fprobe_demo.ko (make run's module fprobe): an exit probe
# with entry data times every call of vfs_read while loaded, and its
# function is released at unload.
. ./lib.sh
reset_tracing
p=/sys/module/fprobe_demo/parameters
modprobe fprobe_demo func=vfs_read || fail "modprobe"
grep -q '^vfs_read ' $T/enabled_functions || fail "vfs_read not enabled"
before=$(cat $p/calls)
for i in 1 2 3 4 5; do dd if=/proc/version of=/dev/null 2>/dev/null; done
after=$(cat $p/calls)
[ "$after" -ge $((before + 5)) ] || fail "calls went $before -> $after"
[ "$(cat $p/max_ns)" -gt 0 ] || fail "no call took any time"
rmmod fprobe_demo || fail "rmmod"
grep -q '^vfs_read ' $T/enabled_functions && fail "vfs_read still enabled"
dmesg | grep -q 'vfs_read: [0-9]* calls, .* 0 missed' || fail "no summary"
modprobe fprobe_demo func=no_such_function_xyz && fail "bad function accepted"
exit 0
