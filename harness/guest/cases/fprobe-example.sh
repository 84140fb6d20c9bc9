# samples/fprobe/fprobe_example.ko on kernel_clone: entry and exit
# handlers run for a fork, the hit count is reported at unload.
. ./lib.sh
dmesg -c > /dev/null
modprobe fprobe_example symbol=kernel_clone || fail "modprobe"
sh -c 'true'
sh -c 'true'
rmmod fprobe_example || fail "rmmod"
dmesg > /tmp/fprobe.log
cat /tmp/fprobe.log | head -n 20
grep -q "Planted fprobe at kernel_clone" /tmp/fprobe.log || fail "not planted"
grep -q "Enter <kernel_clone" /tmp/fprobe.log || fail "no entry handler"
grep -q "Return from <kernel_clone" /tmp/fprobe.log || fail "no exit handler"
hits=$(sed -n 's/.*unregistered. \([0-9]*\) times hit.*/\1/p' /tmp/fprobe.log)
[ -n "$hits" ] && [ "$hits" -ge 2 ] || fail "hit count '$hits'"
exit 0
