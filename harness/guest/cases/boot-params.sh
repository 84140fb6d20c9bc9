# The kernel took what the command line of a `make configs` entry asks
# for: the preemption model of preempt=, the mitigation of retbleed=.
# Prints the model and the mitigations in force either way.
. ./lib.sh
model=/sys/kernel/debug/sched/preempt
vuln=/sys/devices/system/cpu/vulnerabilities
echo "kernel: $(uname -v)"
[ -e $model ] && echo "preemption model: $(cat $model)"
dmesg | grep "Dynamic Preempt:"
for f in retbleed spectre_v2; do
	[ -e $vuln/$f ] && echo "$f: $(cat $vuln/$f)"
done
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	preempt=*)
		want=${arg#preempt=}
		[ -e $model ] || fail "$arg given, but no $model"
		grep -q "($want)" $model || fail "$arg given, the model is: $(cat $model)"
		;;
	retbleed=stuff)
		grep -q "Stuffing" $vuln/retbleed ||
			fail "$arg given, retbleed: $(cat $vuln/retbleed)"
		;;
	esac
done
exit 0
