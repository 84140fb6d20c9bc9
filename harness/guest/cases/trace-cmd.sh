# trace-cmd (Debian's) records the function tracer with a filter and
# reports it: a real tracefs client must not notice anything unusual.
# The workload is dd, which reads with read(2): busybox cat copies with
# sendfile(2) and never reaches vfs_read.
. ./lib.sh
reset_tracing
cd /tmp || exit 1
trace-cmd record -q -p function -l 'vfs_read' -o /tmp/tc.dat \
	sh -c 'for i in 1 2 3 4 5; do dd if=/proc/version of=/dev/null bs=16; done 2>/dev/null' \
	> /tmp/tc.rec 2>&1 || { cat /tmp/tc.rec; fail "record"; }
trace-cmd report -i /tmp/tc.dat > /tmp/tc.txt 2>&1 || { cat /tmp/tc.txt; fail "report"; }
head -n 5 /tmp/tc.txt
# Each dd reads /proc/version (~150 bytes) 16 bytes at a time.
n=$(grep -c 'dd-.*function: *vfs_read' /tmp/tc.txt)
echo "vfs_read events from dd: $n"
if [ "$n" -lt 25 ]; then
	tail -n 20 /tmp/tc.txt
	cat /tmp/tc.rec
	fail "expected at least 25 vfs_read events from dd, got $n"
fi
if grep 'function:' /tmp/tc.txt | grep -v 'vfs_read'; then
	fail "filter leaked"
fi
trace-cmd reset > /dev/null 2>&1
exit 0
