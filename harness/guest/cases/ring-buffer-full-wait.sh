# A reader that waits for full pages sleeps until buffer_percent of its
# CPU's buffer is written, and the commit that crosses the mark wakes it
# (the full waiters' part of the ring buffer's commit, rb_wakeups()).
# The reader splices trace_pipe_raw (guest-src/splice_read.c), the read
# that honours buffer_percent, as trace-cmd does; read(2) would wake at
# the first event.  An instance of its own, written on the reader's CPU
# only: 8 pages, woken at 50% (3 full pages, the one being written not
# counted).
. ./lib.sh
I=$T/instances/fullwait
out=/tmp/fullwait.raw
rmdir $I 2> /dev/null
mkdir $I || fail "mkdir $I"

# marks N: N lines of 56 bytes to trace_marker from CPU 0 (events of 80).
marks() {
	taskset 1 sh -c "i=0; while [ \$i -lt $1 ]; do
		echo 0123456789012345678901234567890123456789012345678901234 > $I/trace_marker
		i=\$((i + 1)); done"
}
finish() { # status
	kill $reader 2> /dev/null
	wait $reader 2> /dev/null
	rmdir $I || fail "rmdir $I"
	exit $1
}

echo 32 > $I/buffer_size_kb
echo 50 > $I/buffer_percent
echo 1 > $I/tracing_on
: > $out
splice_read $I/per_cpu/cpu0/trace_pipe_raw $out &
reader=$!
sleep 1
kill -0 $reader || { echo "FAIL: the reader did not wait on an empty buffer"; finish 1; }

# Two pages, less a few bytes: a full page to read, but under the mark.
marks 100
sleep 2
size=$(stat -c %s $out)
echo "under the mark: reader alive, $size bytes read"
kill -0 $reader || { echo "FAIL: the reader ended under the mark"; finish 1; }
[ "$size" -eq 0 ] || { echo "FAIL: woken under buffer_percent"; finish 1; }

# Past the mark: the commit that crosses it must wake the reader.
marks 400
i=0
while [ $i -lt 10 ] && [ "$(stat -c %s $out)" -eq 0 ]; do
	sleep 1; i=$((i + 1))
done
size=$(stat -c %s $out)
echo "past the mark: $size bytes read after ${i}s"
[ "$size" -gt 0 ] || { echo "FAIL: not woken past buffer_percent"; finish 1; }
finish 0
