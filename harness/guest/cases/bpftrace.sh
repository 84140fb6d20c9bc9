# bpftrace (Debian's 0.17, its own LLVM and libbpf) counts the calls of
# vfs_read() that nread (harness/guest-src/nread.c) makes: N reads of
# /proc/version, each exactly one vfs_read() returning the file's size
# and asked for 4096 bytes.  Every probe filters on comm == "nread", so
# each count must be exactly N:
#   kprobe:vfs_rea*   a wildcard, which bpftrace attaches as one BPF
#                     kprobe_multi link (fprobe; the kernel's own fdinfo
#                     of bpftrace's link must say so), keyed by func
#   kretprobe:vfs_read  a kretprobe (perf's kprobe PMU), keyed by retval
#   kfunc:vfs_read    fentry (a BPF trampoline on a direct call), keyed
#                     by args->count
#   kretfunc:vfs_read fexit, keyed by retval
# first each alone, then all four at once on the one function.  After
# each run no function may be left in enabled_functions.
. ./lib.sh
command -v bpftrace > /dev/null || unsupported "no bpftrace in the initramfs"
command -v nread > /dev/null || fail "no nread in the initramfs"
reset_tracing
cd /tmp || exit 1
N=200
size=$(wc -c < /proc/version)

# bt NAME PROGRAM WANT...: run PROGRAM over nread and want each WANT
# line in bpftrace's closing map dump; the links it holds while nread
# runs are in /tmp/bt-links.
bt() {
	name=$1 prog=$2
	shift 2
	# bpftrace starts -c's command once every probe is attached; its
	# parent is then bpftrace, whose links the kernel describes.
	cat > /tmp/bt-drive.sh <<-EOF
	cat /proc/\$PPID/fdinfo/* 2>/dev/null | grep '^link_type' > /tmp/bt-links
	exec nread /proc/version $N
	EOF
	start=$(date +%s)
	if ! bpftrace -e "$prog" -c '/bin/sh /tmp/bt-drive.sh' > /tmp/bt.out 2>&1; then
		cat /tmp/bt.out
		fail "$name: bpftrace failed"
	fi
	echo "$name: bpftrace ran for $(( $(date +%s) - start ))s; links: $(sort /tmp/bt-links | uniq -c | tr -s ' \n\t' ' ')"
	for want in "$@"; do
		grep -qxF "$want" /tmp/bt.out ||
			{ cat /tmp/bt.out; fail "$name: no line '$want'"; }
	done
	grep '^@' /tmp/bt.out
	i=0
	while grep -q '^vfs_read' $T/enabled_functions; do
		[ $i -lt 10 ] || { cat $T/enabled_functions; fail "$name: vfs_read still hooked"; }
		sleep 1; i=$((i + 1))
	done
}

F='/comm == "nread"/'
bt kprobe-wildcard "kprobe:vfs_rea* $F { @entry[func] = count(); }" \
	"@entry[vfs_read]: $N"
grep -qx 'link_type:	kprobe_multi' /tmp/bt-links ||
	fail "kprobe:vfs_rea* was not attached as a kprobe_multi link"
bt kretprobe "kretprobe:vfs_read $F { @ret[retval] = count(); }" \
	"@ret[$size]: $N"
bt kfunc "kfunc:vfs_read $F { @fentry[args->count] = count(); }" \
	"@fentry[4096]: $N"
grep -qx 'link_type:	tracing' /tmp/bt-links || fail "kfunc: no tracing link"
bt kretfunc "kretfunc:vfs_read $F { @fexit[retval] = count(); }" \
	"@fexit[$size]: $N"
bt all-four "kprobe:vfs_rea* $F { @entry[func] = count(); }
	kretprobe:vfs_read $F { @ret[retval] = count(); }
	kfunc:vfs_read $F { @fentry[args->count] = count(); }
	kretfunc:vfs_read $F { @fexit[retval] = count(); }" \
	"@entry[vfs_read]: $N" "@ret[$size]: $N" "@fentry[4096]: $N" \
	"@fexit[$size]: $N"
exit 0
