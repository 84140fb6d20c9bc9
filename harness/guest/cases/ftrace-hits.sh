# The harness's ftrace_hits.ko: an ftrace_ops filtered by glob counts
# calls while loaded and its site is released at unload.
. ./lib.sh
reset_tracing
modprobe ftrace_hits filter='vfs_rea*' || fail "modprobe"
grep -q '^vfs_read ' $T/enabled_functions || fail "vfs_read not enabled"
before=$(cat /sys/module/ftrace_hits/parameters/hits)
for i in 1 2 3 4 5; do cat /proc/version > /dev/null; done
after=$(cat /sys/module/ftrace_hits/parameters/hits)
[ "$after" -ge $((before + 5)) ] || fail "hits went $before -> $after"
strays=$(cat /sys/module/ftrace_hits/parameters/strays)
[ "$strays" -eq 0 ] || fail "$strays calls came with another op"
rmmod ftrace_hits || fail "rmmod"
grep -q '^vfs_read ' $T/enabled_functions && fail "vfs_read still enabled"
modprobe ftrace_hits filter='no_such_function_xyz' && fail "bad filter accepted"
exit 0
