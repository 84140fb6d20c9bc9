# A livepatch and a direct-call client on one function: the livepatch
# sample (samples/livepatch/livepatch-sample.ko) replaces
# cmdline_proc_show(), so /proc/cmdline reads "this has been live
# patched"; the client hooks the same function with a direct call:
#   bpf             an fexit BPF program (bpftrace's kretfunc:, a BPF
#                   trampoline, which agrees to share the function with
#                   the livepatch's IPMODIFY ops)
#   direct          direct_count.ko share=1 (harness/modules: the
#                   ftrace-direct sample's trampoline on any function,
#                   agreeing to share likewise)
#   direct-noshare  direct_count.ko share=0, which like the samples has
#                   no ops_func: whichever of it and the livepatch
#                   comes second must be refused (EBUSY), the first
#                   staying in force
# $2 is the order: patch-first (the client attached and detached while
# patched) or client-first (the livepatch enabled while the client is
# attached, which is then detached).  Throughout, two loops of reads
# run on CPU 0 and CPU 1 (bgread, a copy of nread) and check the text
# of every read once the patch is in force; the client is attached and
# detached under them.  The client counts, exactly, the reads nread
# makes (2 x M, pinned one batch to each CPU) while it is attached, and
# each of those reads shows the patch when it is in force.
. ./lib.sh
client=$1 order=$2
case "$client:$order" in
bpf:*-first) command -v bpftrace > /dev/null ||
	unsupported "no bpftrace in the initramfs" ;;
direct:*-first|direct-noshare:*-first) ;;
*) fail "usage: livepatch-client.sh bpf|direct|direct-noshare patch-first|client-first" ;;
esac
reset_tracing
cd /tmp || exit 1
M=100
LP=/sys/kernel/livepatch/livepatch_sample
PATCHED="this has been live patched"
ORIG=series.mode=
cp /usr/bin/nread /tmp/bgread || fail "no nread"
rm -f /tmp/lc-stop /tmp/lc-bad

# ---- the livepatch
# wait_lp WHAT: the patch's transition done within 60 s.
wait_lp() {
	i=0
	while [ "$(cat $LP/transition 2>/dev/null || echo 0)" != 0 ]; do
		[ $i -lt 60 ] || fail "the livepatch transition did not finish ($1)"
		sleep 1; i=$((i + 1))
	done
}
patch() {
	modprobe livepatch-sample || return 1
	wait_lp enable
	[ "$(cat $LP/enabled)" = 1 ] || fail "livepatch not enabled"
	grep -qxF "$PATCHED" /proc/cmdline || fail "/proc/cmdline not patched"
	echo "livepatch enabled"
}
unpatch() {
	[ "$(cat $LP/enabled)" = 1 ] || fail "the patch was no longer enabled"
	echo 0 > $LP/enabled
	wait_lp disable
	i=0
	while [ -e $LP ]; do
		[ $i -lt 30 ] || fail "the livepatch did not go"
		sleep 1; i=$((i + 1))
	done
	rmmod livepatch_sample || fail "rmmod livepatch_sample"
	grep -q "$ORIG" /proc/cmdline || fail "/proc/cmdline still patched"
	echo "livepatch disabled"
}

# ---- the calls: a background loop on each CPU, checking the text
# the file /tmp/lc-want names (empty: any), until /tmp/lc-stop.
churn_start() {
	: > /tmp/lc-want
	for cpu in 0 1; do
		(while [ ! -e /tmp/lc-stop ]; do
			w=$(cat /tmp/lc-want)
			/tmp/bgread -c $cpu /proc/cmdline 20 "$w" > /dev/null 2>> /tmp/lc-bad ||
				echo "bgread on CPU $cpu: want '$w'" >> /tmp/lc-bad
		done) &
	done
	sleep 1
}
churn_stop() {
	touch /tmp/lc-stop
	wait
	[ -s /tmp/lc-bad ] && { head -n 5 /tmp/lc-bad; fail "a background read did not show what it should"; }
	echo "background reads all showed what they should"
}
# stacks: where the case's tasks are, for a step that did not finish.
stacks() {
	for p in /proc/[0-9]*; do
		case "$(cat $p/comm 2>/dev/null)" in
		nread|bgread|bpftrace|modprobe|rmmod)
			echo "${p#/proc/} $(cat $p/comm) $(cat $p/wchan 2>/dev/null):"
			cat $p/stack 2>/dev/null ;;
		esac
	done
}
# reads TEXT: M reads by nread pinned to each CPU, each showing TEXT,
# within a minute (a few seconds are enough).
reads() {
	echo "reads: 2 x $M, want '$1'"
	timeout 60 nread -c 0 /proc/cmdline $M "$1" > /tmp/lc-r0 2>&1 &
	timeout 60 nread -c 1 /proc/cmdline $M "$1" > /tmp/lc-r1 2>&1 ||
		{ cat /tmp/lc-r1; stacks; fail "reads on CPU 1 ('$1')"; }
	wait $! || { cat /tmp/lc-r0; stacks; fail "reads on CPU 0 ('$1')"; }
	counted=$((counted + 2 * M))
}

# ---- the clients
attach() {
	case $client in
	bpf)
		bpftrace -e 'kretfunc:cmdline_proc_show { @all = count();
			if (comm == "nread") { @nread = count(); } }' > /tmp/lc-bt.out 2>&1 &
		bt=$!
		# Attached once the kernel shows bpftrace's tracing link.
		i=0
		until grep -qx 'link_type:	tracing' /proc/$bt/fdinfo/* 2>/dev/null; do
			kill -0 $bt 2>/dev/null || { cat /tmp/lc-bt.out; return 1; }
			[ $i -lt 120 ] || { cat /tmp/lc-bt.out; fail "bpftrace did not attach"; }
			sleep 1; i=$((i + 1))
		done ;;
	direct) modprobe direct_count share=1 || return 1 ;;
	direct-noshare) modprobe direct_count share=0 || return 1 ;;
	esac
	echo "$client attached"
}
# detach: the client's count of nread's calls must be $counted.
detach() {
	case $client in
	bpf)
		echo "detaching bpftrace"
		# bpftrace 0.17 leaves its poll loop only when a signal breaks
		# its epoll_wait(): a SIGINT that lands between two waits sets
		# its exit flag and is lost, and it polls on.  Say it again
		# every few seconds.
		kill -INT $bt
		i=0
		while kill -0 $bt 2>/dev/null; do
			[ $i -lt 60 ] || { stacks; fail "bpftrace did not exit"; }
			sleep 1; i=$((i + 1))
			[ $((i % 5)) -ne 0 ] || kill -INT $bt 2>/dev/null
		done
		wait $bt
		bt=
		grep '^@' /tmp/lc-bt.out
		got=$(sed -n 's/^@nread: //p' /tmp/lc-bt.out) ;;
	*)
		got=$(cat /sys/module/direct_count/parameters/hits)
		echo "direct_count: $(cat /sys/module/direct_count/parameters/calls) calls, $got from nread"
		rmmod direct_count || fail "rmmod direct_count" ;;
	esac
	echo "$client detached: counted ${got:-nothing} of nread's $counted calls"
	[ "${got:-0}" -eq $counted ] || fail "$client counted ${got:-nothing}, not $counted"
}
gone() {
	grep cmdline_proc_show $T/enabled_functions && fail "cmdline_proc_show still hooked"
	return 0
}

# Whatever failed, leave no client, loop or patch to the next case.
leave() {
	[ -n "${bt:-}" ] && kill -KILL $bt 2>/dev/null
	touch /tmp/lc-stop
	rmmod direct_count 2>/dev/null
	if [ -e $LP/enabled ]; then
		echo 0 > $LP/enabled
		i=0
		while [ -e $LP ] && [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done
		rmmod livepatch_sample 2>/dev/null
	fi
}
trap leave EXIT

counted=0
if [ $client = direct-noshare ]; then
	# A direct call that cannot share refuses the livepatch, or is
	# refused by it, and the first stays.
	if [ $order = patch-first ]; then
		patch || fail "livepatch-sample did not load"
		attach && fail "direct_count share=0 was let onto the patched function"
		echo "direct_count share=0 refused, as it should be"
		reads "$PATCHED"
		unpatch
	else
		attach || fail "direct_count did not load"
		reads "$ORIG"
		patch && fail "the livepatch was let onto a direct call that cannot share"
		echo "livepatch-sample refused, as it should be"
		[ -e $LP ] && fail "a refused livepatch left $LP"
		reads "$ORIG"
		detach
	fi
	gone
	exit 0
fi

churn_start
if [ $order = patch-first ]; then
	patch || fail "livepatch-sample did not load"
	echo "$PATCHED" > /tmp/lc-want
	reads "$PATCHED"
	counted=0
	attach || fail "$client did not attach to the patched function"
	reads "$PATCHED"
	detach
	reads "$PATCHED"
else
	attach || fail "$client did not attach"
	reads "$ORIG"
	patch || fail "livepatch-sample did not load under $client"
	echo "$PATCHED" > /tmp/lc-want
	reads "$PATCHED"
	detach
	reads "$PATCHED"
fi
churn_stop
unpatch
gone
exit 0
