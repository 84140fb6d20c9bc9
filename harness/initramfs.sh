#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's initramfs from a kernel build directory: busybox, a
# few host programs with their libraries, the kernel's modules, the
# selftests the plan runs and our guest scripts.
#
# usage: initramfs.sh SRC BUILD OUT.cpio.gz
# For another architecture's guest, GUEST_ARCH names it and BUSYBOX is a
# static busybox built for it (harness/setup.sh --arches unpacks
# Debian's); the host's programs and guest-src/ are then left out, and
# CROSS_COMPILE's strip is used.
set -euo pipefail
src=$(realpath "$1") build=$(realpath "$2") out=$(realpath -m "$3")
here=$(cd "$(dirname "$0")" && pwd)
root=$build/initramfs
krel=$(cat "$build/include/config/kernel.release")
guest_arch=${GUEST_ARCH:-x86_64}
busybox=${BUSYBOX:-/bin/busybox}
strip=${CROSS_COMPILE:-}strip

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,root,lib64,usr/bin,usr/sbin,lib/modules}
cp "$busybox" "$root/bin/busybox"
# The host's busybox lists the applets: Debian builds both from one source.
for applet in $(/bin/busybox --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
ln -sf ../bin/busybox "$root/sbin/modprobe"
ln -sf ../bin/busybox "$root/sbin/insmod"
ln -sf ../bin/busybox "$root/sbin/rmmod"
ln -sf ../bin/busybox "$root/sbin/poweroff"

# Host programs and the libraries they link against.
copy_with_libs() {
	local bin=$1 lib
	install -D -m 0755 "$bin" "$root$bin"
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || install -D -m 0755 "$lib" "$root$lib"
	done
}
if [ "$guest_arch" = x86_64 ]; then
grep -v '^#' "$here/guest/host-binaries" | while read -r bin; do
	[ -n "$bin" ] && copy_with_libs "$bin"
done
# The clients of the client cases (bpftrace's LLVM and clang alone are
# some 200 MB) go only into a kernel that can run BPF trampolines: the
# test kernels, not those of nodyn, stress, bench or the demo.
if grep -qx 'CONFIG_BPF_JIT=y' "$build/.config"; then
	grep -v '^#' "$here/guest/host-binaries-clients" | while read -r bin; do
		[ -n "$bin" ] && copy_with_libs "$bin"
	done
fi
# kmod answers to its name; GNU stat is wanted at /bin/stat itself.
for tool in insmod rmmod modinfo lsmod; do
	ln -sf ../bin/kmod "$root/usr/sbin/$tool"
done
rm -f "$root/bin/stat"
cp "$root/usr/bin/stat" "$root/bin/stat"

# Our own user-space test programs (guest-src/NAME.c, one program a
# file), static so that they need nothing in the guest: /usr/bin/NAME.
for prog in "$here"/guest-src/*.c; do
	gcc -static -O2 -Wall -Wextra -o "$root/usr/bin/$(basename "$prog" .c)" "$prog"
done
fi

# Modules, stripped of DWARF (BTF stays: it is not a debug section).
# (A kernel configured without them has none.)
if grep -q '^CONFIG_MODULES=y' "$build/.config"; then
	make -s -C "$src" O="$build" INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 \
		modules_install >/dev/null
	rm -f "$root/lib/modules/$krel/build" "$root/lib/modules/$krel/source"
	# External modules: the harness's own go where modprobe finds them;
	# the livepatch selftests insmod theirs from test_modules/ beside
	# the scripts.
	mkdir -p "$root/lib/modules/$krel/extra"
	for m in "$build"/harness-modules/*.ko; do
		[ -e "$m" ] || continue
		$strip --strip-debug -o "$root/lib/modules/$krel/extra/$(basename "$m")" "$m"
	done
	depmod -b "$root" "$krel"
fi

# Selftests run from the guest, as shipped in the (series-patched) tree.
mkdir -p "$root/selftests"
cp -a "$src/tools/testing/selftests/ftrace" "$root/selftests/ftrace"
cp -a "$src/tools/testing/selftests/livepatch" "$root/selftests/livepatch"
rm -rf "$root/selftests/livepatch/test_modules"
mkdir -p "$root/selftests/livepatch/test_modules"
for m in "$build"/livepatch-modules/*.ko; do
	[ -e "$m" ] || continue
	$strip --strip-debug -o "$root/selftests/livepatch/test_modules/$(basename "$m")" "$m"
done
[ -x "$build/livepatch-modules/test_klp-call_getpid" ] &&
	cp "$build/livepatch-modules/test_klp-call_getpid" "$root/selftests/livepatch/"
cp -a "$src/tools/testing/selftests/kselftest" "$root/selftests/kselftest" 2>/dev/null || true

# More to lay over the root (make bpf: the BPF selftests' test_progs).
[ -n "${INITRAMFS_EXTRA:-}" ] && cp -a "$INITRAMFS_EXTRA/." "$root/"

# Our guest side.
mkdir -p "$root/harness"
cp -a "$here/guest/." "$root/harness/"
install -m 0755 "$here/guest/init" "$root/init"
cp "$here/test-plan" "$root/harness/test-plan"
# Where the series' code lies in the kernel's text, for stress-failnth,
# which fails only the allocations made under it: the name of its first
# function and of the first other function after its last.  Only names
# unique in System.map count (the guest looks them up in kallsyms), in
# .text, static-call trampolines and function prefixes left out.  The
# objects of kernel/trace/ftrace/ link one after another: no other
# unique name may lie between (a static inline of a header may).
# Without such a run the file is left out, and that case fails.
ours_a=$build/kernel/trace/ftrace/built-in.a
# (A base kernel, as `make bench` builds one, has no such folder.)
if [ -e "$ours_a" ]; then
	nm --defined-only "$ours_a" | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u
fi > "$build/ftrace-text.ours"
awk -v ours="$build/ftrace-text.ours" '
	BEGIN { while ((getline n < ours) > 0) mine[n] = 1 }
	{ addr[NR] = $1; type[NR] = $2; name[NR] = $3; count[$3]++ }
	$3 == "_stext" { lo = $1 } $3 == "_etext" { hi = $1 }
	END {
		# An alias of ours (ftrace_ops_list_func) is ours.
		for (i = 1; i <= NR; i++)
			if ((name[i] in mine) && count[name[i]] == 1)
				at[addr[i]] = 1
		for (i = 1; i <= NR; i++) {
			if (addr[i] < lo || addr[i] >= hi || type[i] !~ /^[tT]$/ ||
			    count[name[i]] != 1 || name[i] ~ /^__(SCT|pfx)_/)
				continue
			if ((name[i] in mine) || (addr[i] in at)) {
				if (!first)
					first = name[i]
				if (after) {
					print "initramfs: " after " lies inside the code of the series" > "/dev/stderr"
					exit 1
				}
			} else if (first && !after) {
				after = name[i]
			}
		}
		if (!first || !after)
			exit 1
		print first, after
	}' <(sort "$build/System.map") > "$build/ftrace-text" &&
	cp "$build/ftrace-text" "$root/harness/ftrace-text" ||
	echo "initramfs: no bounds of the series' code for stress-failnth" >&2

# 00basic/mount_options and test_ownership need a user and a group
# other than root to hand tracefs to.
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' \
	> "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"
echo "nobody:x:65534:" >> "$root/etc/group"

(cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
