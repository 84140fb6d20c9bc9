# kmemleak around the stress plan: "clear" at its start forgets what boot
# and KUnit left (the stress kernel scans only on demand), "scan" at its
# end fails on any object leaked since.  Objects younger than 5 s are
# not reported, hence the wait; two scans, as kmemleak advises, so that
# a pointer in flight during the first is seen by the second.  Each
# guest of the plan has its pair: a second word (kmemleak:clear,1) only
# tells the plan's lines apart.
. ./lib.sh
k=/sys/kernel/debug/kmemleak
[ -w $k ] || unsupported "no $k"
case "$1" in
clear)
	echo scan > $k
	echo clear > $k
	;;
scan)
	sleep 6
	echo scan > $k
	echo scan > $k
	leaks=$(cat $k)
	if [ -n "$leaks" ]; then
		echo "$leaks" | head -n 120
		fail "kmemleak: $(echo "$leaks" | grep -c '^unreferenced object') objects leaked"
	fi
	;;
*)	fail "usage: kmemleak clear|scan [GUEST]" ;;
esac
exit 0
