# trace-cmd (Debian's) records the function tracer with a filter and
# reports it: a real tracefs client must not notice anything unusual.
. ./lib.sh
reset_tracing
cd /tmp || exit 1
trace-cmd record -q -p function -l 'vfs_read' -o /tmp/tc.dat cat /proc/version \
	> /tmp/tc.rec 2>&1 || { cat /tmp/tc.rec; fail "record"; }
trace-cmd report -i /tmp/tc.dat > /tmp/tc.txt 2>&1 || { cat /tmp/tc.txt; fail "report"; }
head -n 5 /tmp/tc.txt
grep -q 'function: *vfs_read' /tmp/tc.txt || fail "no vfs_read in the report"
grep 'function:' /tmp/tc.txt | grep -vq 'vfs_read' && fail "filter leaked"
trace-cmd reset > /dev/null 2>&1
exit 0
