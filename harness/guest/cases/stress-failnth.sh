# Allocations failing on purpose (/proc/self/fail-nth, with failslab and
# fail_page_alloc armed for sleeping allocations): a write of several
# functions to set_ftrace_filter and to set_graph_function, loading
# ftrace_hits.ko (ftrace_set_filter() and register_ftrace_function() in
# its init), and adding an fprobe event and a %return one
# (register_fprobe(): an entry probe's own hook, an exit probe's table
# and graph user) are driven through every allocation the series' code
# makes.  Each attempt either succeeds whole or fails with nothing
# changed: the file reads as before, no module is left, no function is
# hooked.  kmemleak, at the end of the plan, sees the rest.
#
# Only allocations with the series' code on the stack count and fail
# (the stack filter of fault injection, between the bounds the
# initramfs names in /harness/ftrace-text): the rest of a module load,
# of a write or of a probe event is upstream's, and failing each of its
# allocations too made this case many times longer.
. ./lib.sh
D=/sys/kernel/debug
[ -e /proc/self/fail-nth ] && [ -d $D/failslab ] || unsupported "no fault injection"
[ -e $D/failslab/require-start ] || unsupported "no stack filter for fault injection"
read -r text_first text_after < /harness/ftrace-text || fail "no bounds of the series' code"
kaddr() { awk -v n="$1" '$3 == n && NF == 3 { print $1 }' /proc/kallsyms; }
lo=$(kaddr "$text_first") hi=$(kaddr "$text_after")
[ -n "$lo" ] && [ -n "$hi" ] || fail "$text_first or $text_after not in kallsyms"
stop_filter() {
	for f in failslab fail_page_alloc; do
		echo 1 > $D/$f/ignore-gfp-wait
		echo 0 > $D/$f/require-start
		echo 0xffffffffffffffff > $D/$f/require-end
	done
}
for f in failslab fail_page_alloc; do
	echo 0 > $D/$f/ignore-gfp-wait
	echo 0 > $D/$f/verbose
	echo 0x"$lo" > $D/$f/require-start || fail "require-start"
	echo 0x"$hi" > $D/$f/require-end || fail "require-end"
done
reset_tracing

# One write of "$2" to file $1 with its $3rd allocation failing.  Prints
# "done" if the allocations ran out before the $3rd.
write_nth() {
	(
		echo "$3" > /proc/self/fail-nth
		echo "$2" >> "$1"
		read -r left < /proc/self/fail-nth
		[ "$left" = 0 ] || echo done
	) 2>/dev/null
}

check_file() { # file word limit
	f=$1 word=$2
	echo vfs_read > $f
	echo "$word" >> $f
	want=$(cat $f)
	[ "$(echo "$want" | wc -l)" -gt 1 ] || fail "$f: '$word' adds nothing"
	n=1
	while [ $n -le "$3" ]; do
		echo vfs_read > $f
		before=$(cat $f)
		r=$(write_nth $f "$word" $n)
		after=$(cat $f)
		[ "$after" = "$before" ] || [ "$after" = "$want" ] ||
			fail "$f, allocation $n failing: half a change ($(echo "$after" | wc -l) lines)"
		[ "$r" = done ] && break
		n=$((n + 1))
	done
	echo > $f
	[ "$r" = done ] || fail "$f never got through its allocations ($n)"
	[ $n -gt 1 ] || fail "$f: the series made no allocation"
	echo "$f: $((n - 1)) allocations"
}

# Words by line of available_filter_functions: no walk of every record
# per attempt, which under KASAN would make the case minutes longer.
words=$(grep -n '^vfs_' $T/available_filter_functions | head -n 8 | cut -d: -f1 | tr '\n' ' ')
[ -n "$words" ] || fail "no vfs_ functions"
check_file $T/set_ftrace_filter "$words" 1000
# set_graph_function takes names only: one glob, one walk an attempt.
# A glob of a few functions, here and for the module below: each
# function it adds is an allocation, so each one an attempt more ('vfs_*'
# made three hundred, minutes under KASAN).
glob='vfs_read*'
check_file $T/set_graph_function "$glob" 1000

# Loading ftrace_hits with its nth allocation failing (failnth_insmod:
# only the kernel's work of the load counts, and of that only the
# series').
ko=$(find /lib/modules/"$(uname -r)" -name ftrace_hits.ko)
[ -n "$ko" ] || fail "no ftrace_hits.ko"
n=1
while [ $n -le 1000 ]; do
	r=$(failnth_insmod $n "$ko" "filter=$glob")
	if [ -d /sys/module/ftrace_hits ]; then
		grep -q '^vfs_read ' $T/enabled_functions || fail "loaded, vfs_read not hooked ($n)"
		rmmod ftrace_hits || fail "rmmod ($n)"
	fi
	grep -q '^vfs_' $T/enabled_functions && fail "failed load $n ($r) left functions hooked"
	case "$r" in
	*passed) break ;;
	loaded*|refused*) ;;
	*) fail "failnth_insmod $n: $r" ;;
	esac
	n=$((n + 1))
done
case "$r" in
loaded*passed) ;;
*) fail "module load never got through its allocations ($n: $r)" ;;
esac
[ $n -gt 1 ] || fail "module load: the series made no allocation"
echo "module load: $((n - 1)) allocations"

# Adding fprobe event $1 on "$2" (which registers its fprobe, disabled
# until the event is enabled) with the nth allocation failing: the event
# is listed with vfs_read hooked, or dynamic_events is as before with
# vfs_read hooked by nothing.  (The event's tracefs directory is not
# checked: the trace events core only warns when it cannot make one.)
check_fprobe() { # event probe
	before=$(cat $T/dynamic_events)
	n=1
	while [ $n -le 1000 ]; do
		r=$(write_nth $T/dynamic_events "f:failnth/$1 $2" $n)
		now=$(cat $T/dynamic_events)
		if [ "$now" = "$before" ]; then
			made=0
		elif echo "$now" | grep -q "^f:failnth/$1 "; then
			grep -q '^vfs_read ' $T/enabled_functions ||
				fail "$1 added, vfs_read not hooked ($n)"
			echo "-:failnth/$1" >> $T/dynamic_events ||
				fail "$1 not removed ($n)"
			made=1
		else
			fail "$1, allocation $n failing: dynamic_events reads '$now'"
		fi
		grep -q '^vfs_read ' $T/enabled_functions &&
			fail "$1, allocation $n failing: vfs_read left hooked"
		[ "$r" = done ] && break
		n=$((n + 1))
	done
	[ "$r" = done ] && [ "$made" = 1 ] ||
		fail "$1 never got through its allocations ($n)"
	[ $n -gt 1 ] || fail "$1: the series made no allocation"
	echo "$1: $((n - 1)) allocations"
}
check_fprobe fpentry vfs_read
check_fprobe fpexit vfs_read%return
stop_filter
reset_tracing
exit 0
