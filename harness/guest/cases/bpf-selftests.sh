# One test of the kernel's BPF selftests (tools/testing/selftests/bpf's
# test_progs, built by harness/bpf-selftests.sh for make bpf), judged by
# test_progs itself: its exit status and its closing Summary line.
# Arguments: test_progs selectors (TEST or TEST/SUBTEST, globs allowed),
# those with a leading '-' left out (-d).
. ./lib.sh
d=/selftests/bpf
[ -x $d/test_progs ] || unsupported "no test_progs in the initramfs (make bpf builds one)"
allow= deny=
for s in "$@"; do
	case "$s" in
	-*) deny=${deny:+$deny,}${s#-} ;;
	*) allow=${allow:+$allow,}$s ;;
	esac
done
mkdir -p /sys/fs/bpf
grep -q ' /sys/fs/bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf
cd $d || exit 1
reset_tracing
./test_progs -a "$allow" ${deny:+-d "$deny"} > /tmp/tp.out 2>&1
rc=$?
# The verdict lines of each test and subtest, and the failures' logs.
grep -v '^#[0-9/]* .*:OK$' /tmp/tp.out | tail -n 80
grep -c ':OK$' /tmp/tp.out | sed 's/^/test_progs: tests and subtests OK: /'
summary=$(grep '^Summary: ' /tmp/tp.out | tail -n 1)
[ -n "$summary" ] || fail "test_progs printed no Summary (exit $rc)"
case "$summary" in
*" 0 FAILED") ;;
*) fail "$summary" ;;
esac
[ $rc -eq 0 ] || fail "test_progs exited $rc"
case "$summary" in
"Summary: 0/0 PASSED"*) fail "no test matched $allow" ;;
"Summary: 0/"*) unsupported "$summary" ;;
esac
exit 0
