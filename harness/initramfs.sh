#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's initramfs from a kernel build directory: busybox, a
# few host programs with their libraries, the kernel's modules, the
# selftests the plan runs and our guest scripts.
#
# usage: initramfs.sh SRC BUILD OUT.cpio.gz
set -euo pipefail
src=$(realpath "$1") build=$(realpath "$2") out=$(realpath -m "$3")
here=$(cd "$(dirname "$0")" && pwd)
root=$build/initramfs
krel=$(cat "$build/include/config/kernel.release")

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,root,lib64,usr/bin,usr/sbin,lib/modules}
cp /bin/busybox "$root/bin/busybox"
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
grep -v '^#' "$here/guest/host-binaries" | while read -r bin; do
	[ -n "$bin" ] && copy_with_libs "$bin"
done
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

# Modules, stripped of DWARF (BTF stays: it is not a debug section).
make -s -C "$src" O="$build" INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 \
	modules_install >/dev/null
rm -f "$root/lib/modules/$krel/build" "$root/lib/modules/$krel/source"
# External modules: the harness's own go where modprobe finds them; the
# livepatch selftests insmod theirs from test_modules/ beside the scripts.
mkdir -p "$root/lib/modules/$krel/extra"
for m in "$build"/harness-modules/*.ko; do
	strip --strip-debug -o "$root/lib/modules/$krel/extra/$(basename "$m")" "$m"
done
depmod -b "$root" "$krel"

# Selftests run from the guest, as shipped in the (series-patched) tree.
mkdir -p "$root/selftests"
cp -a "$src/tools/testing/selftests/ftrace" "$root/selftests/ftrace"
cp -a "$src/tools/testing/selftests/livepatch" "$root/selftests/livepatch"
rm -rf "$root/selftests/livepatch/test_modules"
mkdir -p "$root/selftests/livepatch/test_modules"
for m in "$build"/livepatch-modules/*.ko; do
	[ -e "$m" ] || continue
	strip --strip-debug -o "$root/selftests/livepatch/test_modules/$(basename "$m")" "$m"
done
[ -x "$build/livepatch-modules/test_klp-call_getpid" ] &&
	cp "$build/livepatch-modules/test_klp-call_getpid" "$root/selftests/livepatch/"
cp -a "$src/tools/testing/selftests/kselftest" "$root/selftests/kselftest" 2>/dev/null || true

# Our guest side.
mkdir -p "$root/harness"
cp -a "$here/guest/." "$root/harness/"
install -m 0755 "$here/guest/init" "$root/init"
cp "$here/test-plan" "$root/harness/test-plan"
# 00basic/mount_options and test_ownership need a user and a group
# other than root to hand tracefs to.
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' \
	> "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"
echo "nobody:x:65534:" >> "$root/etc/group"

(cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
