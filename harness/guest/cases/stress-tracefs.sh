# The filter files under concurrent writers and readers, and a fuzzer.
# Writers: set_ftrace_filter, set_ftrace_notrace, an instance's filter
# (whose function tracer runs meanwhile), set_graph_function and
# set_graph_notrace, set_ftrace_pid; readers read them all; the fuzzer
# writes random bytes and hostile words (overlong, NUL bytes, '!',
# ':mod:', unknown commands, 1 MiB) to all but the instance's filter.
# Errors are expected; a splat in the kernel log fails the case.  At
# the end every file must reset cleanly, read back empty, and nothing
# stay hooked.
. ./lib.sh
N=${1:-6}
I=$T/instances/stress_tracefs
reset_tracing
rmdir $I 2>/dev/null
mkdir $I || fail "instance"
echo vfs_read > $I/set_ftrace_filter
echo function > $I/current_tracer
FILES="$T/set_ftrace_filter $T/set_ftrace_notrace $I/set_ftrace_filter
$T/set_graph_function $T/set_graph_notrace $T/set_ftrace_pid"

# Each round appends the words, then truncates the file to $2.
writer() { # file reset-word good-words...
	f=$1 reset=$2
	shift 2
	i=0
	while [ $i -lt "$N" ]; do
		for w in "$@"; do
			echo "$w" >> $f 2>/dev/null
		done
		echo "$reset" > $f 2>/dev/null
		i=$((i + 1))
	done
}

reader() {
	i=0
	while [ $i -lt "$N" ]; do
		for f in $FILES $T/enabled_functions; do
			cat $f > /dev/null 2>&1
		done
		i=$((i + 1))
	done
}

# One hostile write a turn, to a file picked by the turn: every kind
# twice, whatever N is, each time to another file.  Not to the
# instance's filter: a truncating write with nothing valid in it leaves
# the filter empty, and the instance's tracer then hooks and records
# every function, which under KASAN takes minutes a write.  For the
# same reason its writer truncates it to one function, never to none.
fuzzer() {
	i=0
	set -- $(echo $FILES | tr ' ' '\n' | grep -vx "$I/set_ftrace_filter")
	nfiles=$#
	while [ $i -lt 24 ]; do
		eval f=\${$(((i + i / 12) % nfiles + 1))}
		case $((i % 12)) in
		0) head -c $((i * 37 % 4000 + 1)) /dev/urandom > $f ;;
		1) printf 'vfs_read\0sched*\0' > $f ;;
		2) printf '%05000d\n' 0 | tr 0 a > $f ;;
		3) echo '!' > $f ;;
		4) echo '!!vfs_*' > $f ;;
		5) echo ':mod:' > $f ;;
		6) echo '*:mod:no_such_module' > $f ;;
		7) echo 'vfs_read:no_such_command' > $f ;;
		8) echo 'vfs_read:traceoff:-1' > $f ;;
		9) head -c 1048576 /dev/zero | tr '\0' 'x' > $f ;;
		10) echo '::::' > $f ;;
		11) printf '\377\376vfs_\n*' > $f ;;
		esac 2>/dev/null
		i=$((i + 1))
	done
}

writer $T/set_ftrace_filter '' 'vfs_*' '!vfs_read' 'ksys_*' &
w1=$!
writer $T/set_ftrace_notrace '' '*lock*' 'schedule' &
w2=$!
writer $I/set_ftrace_filter vfs_read 'vfs_read' 'vfs_write' '!vfs_write' &
w3=$!
writer $T/set_graph_function '' 'vfs_read' 'do_sys_*' &
w4=$!
writer $T/set_graph_notrace '' 'schedule' &
w5=$!
writer $T/set_ftrace_pid '' $$ 1 &
w6=$!
reader &
r1=$!
fuzzer &
fz=$!
for p in $w1 $w2 $w3 $w4 $w5 $w6 $r1 $fz; do
	wait $p
done

# The files still do what they say: a plain write reads back as written.
echo vfs_read > $T/set_ftrace_filter || fail "write after the storm"
[ "$(cat $T/set_ftrace_filter)" = vfs_read ] ||
	fail "set_ftrace_filter reads '$(head -c 200 $T/set_ftrace_filter)'"
echo schedule > $T/set_graph_function || fail "graph write after the storm"
[ "$(cat $T/set_graph_function)" = schedule ] ||
	fail "set_graph_function reads '$(head -c 200 $T/set_graph_function)'"

# Everything resets, and nothing is left (the instance's tracer
# stopped first, as its filter empties).
echo 1 > $T/tracing_on
echo 1 > $I/tracing_on
echo nop > $I/current_tracer
for f in $FILES; do
	echo > $f || fail "cannot reset $f"
	left=$(grep -v '^#' $f | grep -v '^no pid$')
	[ -z "$left" ] || fail "$f not empty after reset: $(echo "$left" | head -n 3)"
done
rmdir $I || fail "instance busy"
echo nop > $T/current_tracer
[ $(wc -l < $T/enabled_functions) -eq 0 ] ||
	fail "functions left hooked: $(head -n 3 $T/enabled_functions)"
reset_tracing
exit 0
