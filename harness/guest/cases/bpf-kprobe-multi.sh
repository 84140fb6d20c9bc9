# BPF kprobe_multi and kretprobe_multi links, which sit on fprobe:
# bpf_kmulti (harness/guest-src/bpf_kmulti.c) loads a counting program
# with bpf(2) alone, attaches it both ways to every __do_sys_get*id (the
# bodies of getpid(2), getuid(2) and the other SYSCALL_DEFINE0 getters),
# calls getpid(2) 1000 times and wants each count at 1000 or more; the
# functions must leave enabled_functions when the links close, and a
# link to a missing function must be refused without hooking anything.
# Then error injection: a program calling bpf_override_return(), linked
# as kprobe_multi to __do_sys_getpid alone, must make getpid(2) return
# its value (the fprobe's trampoline writes back the instruction pointer
# the program changed) and the real pid once the link is closed; linked
# to vfs_read, which is not on the error-injection list, alone or with
# __do_sys_getpid, it must be refused with EINVAL, hooking nothing.
. ./lib.sh
command -v bpf_kmulti > /dev/null || unsupported "no bpf_kmulti in the initramfs"
reset_tracing
bpf_kmulti '__do_sys_get*id' 1000
rc=$?
[ $rc -eq 0 ] || exit $rc
grep '^__do_sys_get[a-z]*id ' $T/enabled_functions && fail "functions left hooked"
exit 0
