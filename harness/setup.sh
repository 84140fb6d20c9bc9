#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what building, booting and testing the series needs (Debian 12).
# Does nothing when everything is there already.
#
# usage: setup.sh [--arches | --arm64-guest | --arm-guest | --i386-guest |
#                  --distro]
# --arches also installs what `make arches` needs: the cross compilers.
# --distro, what `make distro` needs: Debian's kernel configurations.
# --arm64-guest, what `make test-arm64` needs: arm64's cross compiler,
# qemu-system-aarch64, and arm64's static busybox, unpacked (not
# installed: it would replace the host's) into the cache.
# --arm-guest, the same for `make test-arm`: arm's (armhf's).
# --i386-guest, the same for `make test-i386` (its QEMU is x86's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/base.env"
arches= guest= distro=
case "${1:-}" in
--arches) arches=1 ;;
--arm64-guest) guest=arm64 ;;
--arm-guest) guest=armhf ;;
--i386-guest) guest=i386 ;;
--distro) distro=1 ;;
esac
cache=${SERIES_CACHE:-$HOME/.cache/ftrace-series}

pkgs=(
	"$BASE_PKG=$BASE_VERSION"
	build-essential gcc make binutils flex bison bc libelf-dev libssl-dev
	dwarves pahole cpio busybox-static kmod xz-utils rsync perl python3
	python3-ply python3-git
	qemu-system-x86 trace-cmd sparse coccinelle git patch procps util-linux
	# The client cases' clients, copied into the test guests.
	bpftrace linux-perf
	# make bpf: the BPF selftests' test_progs and programs.
	clang llvm lld zlib1g-dev
	coreutils diffutils libc-bin libc6-dev
	# make docs: Sphinx (Debian 12 has 5.3, the kernel asks for 2.4.4 or
	# later) and alabaster, the theme Documentation/conf.py defaults to.
	python3-sphinx python3-alabaster
)
# The cross compilers: gcc-PREFIX for each of harness/cross-compilers.
[ -n "$arches" ] && pkgs+=($(awk '!/^#/ && NF { sub(/-$/, "", $2); print "gcc-" $2 }' \
	"$here/cross-compilers"))
[ "$guest" = arm64 ] && pkgs+=(gcc-aarch64-linux-gnu qemu-system-arm)
[ "$guest" = armhf ] && pkgs+=(gcc-arm-linux-gnueabihf qemu-system-arm)
[ "$guest" = i386 ] && pkgs+=(gcc-i686-linux-gnu)
[ -n "$distro" ] && pkgs+=("$DISTRO_PKG=$BASE_VERSION")

# The guest's busybox, from Debian's busybox-static:$guest (a Debian
# architecture: arm64, armhf, i386).
guest_busybox() {
	local dir=$cache/busybox-$guest sudo=
	[ -x "$dir/bin/busybox" ] && return 0
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	if ! dpkg --print-foreign-architectures | grep -qx "$guest"; then
		$sudo dpkg --add-architecture "$guest"
		$sudo apt-get update -qq
	fi
	local tmp
	tmp=$(mktemp -d)
	chmod 777 "$tmp"
	(cd "$tmp" && apt-get download -qq "busybox-static:$guest") ||
		{ $sudo apt-get update -qq && (cd "$tmp" && apt-get download -qq "busybox-static:$guest"); }
	mkdir -p "$dir"
	dpkg-deb -x "$tmp"/busybox-static_*_"$guest".deb "$tmp/x"
	install -D -m 0755 "$tmp/x/bin/busybox" "$dir/bin/busybox"
	rm -rf "$tmp"
	echo "[setup] $guest busybox in $dir/bin/busybox"
}

missing=()
for p in "${pkgs[@]}"; do
	name=${p%%=*}
	want=${p#*=}
	have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
	case "$have" in
	"install ok installed"*)
		[ "$name" = "$p" ] || [ "${have##* }" = "$want" ] || missing+=("$p") ;;
	*) missing+=("$p") ;;
	esac
done
if [ ${#missing[@]} -eq 0 ]; then
	[ -z "$guest" ] || guest_busybox
	exit 0
fi

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "[setup] installing: ${missing[*]}"
$sudo apt-get update -qq
if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
	--no-install-recommends "${missing[@]}" >/tmp/series-apt.log 2>&1; then
	tail -20 /tmp/series-apt.log
	echo "[setup] apt-get failed (log: /tmp/series-apt.log)." >&2
	echo "[setup] If $BASE_PKG $BASE_VERSION is no longer offered, the base" >&2
	echo "        must be re-pinned in harness/base.env on purpose." >&2
	exit 1
fi
[ -z "$guest" ] || guest_busybox
