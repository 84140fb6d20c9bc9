#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the run kernel.  With a terminal on stdin the user lands in a guest
# shell after the demo; without one the demo runs and the guest powers off.
#
# usage: boot-demo.sh BZIMAGE INITRD LOG
set -euo pipefail
kernel=$1 initrd=$2 log=$3
# One host thread for all vCPUs, as the tests boot: multi-threaded TCG
# runs stale code after cross-CPU text patching.
accel=(-accel "tcg,thread=${SERIES_TCG_THREAD:-single}" -cpu max)
[ "${SERIES_ACCEL:-tcg}" = kvm ] && accel=(-accel kvm -cpu host)
common=(qemu-system-x86_64 -M q35 -smp 2 -m 1G "${accel[@]}" -nodefaults
	-display none -no-reboot -kernel "$kernel" -initrd "$initrd")

if [ -t 0 ] && [ -t 1 ]; then
	echo "[run] booting; the demo runs, then a shell (poweroff -f or Ctrl-a x leaves)"
	"${common[@]}" -serial mon:stdio \
		-append "console=ttyS0 quiet panic=-1 series.mode=shell"
else
	echo "[run] booting (no terminal: demo only; console log: $log)"
	timeout 600 "${common[@]}" -serial stdio \
		-append "console=ttyS0 quiet panic=-1 series.mode=demo" | tee "$log" \
		| grep -v '^\[ *[0-9]*\.[0-9]*\]'
fi
