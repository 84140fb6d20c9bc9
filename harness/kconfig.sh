#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configure a build directory: tinyconfig + configs/base.config + the
# flavour's fragment, then check that every option the fragments ask for
# really ended up in .config (Kconfig drops unmet options silently).
# Flavour cfg-NAME is an entry of the configuration matrix (`make
# configs`): the test kernel with configs/matrix/NAME.config on top.
# Flavour distro (`make distro`) starts from Debian's own configuration
# (base.env's DISTRO_CONFIG) with its modules switched off, instead of
# tinyconfig, and adds configs/distro.config; only that fragment's
# options are checked, Debian's are its own.
#
# usage: kconfig.sh SRC BUILD FLAVOUR
# A cross-built architecture's flavour is arch-ARCH (configs/arch/), and
# ARCH and CROSS_COMPILE come from the environment, as kbuild reads them.
set -euo pipefail
src=$(realpath "$1") build=$(realpath -m "$2") flavour=$3
here=$(cd "$(dirname "$0")/.." && pwd)
frags=("$here/configs/base.config" "$here/configs/$flavour.config")
# The stress kernel is the test kernel with more checkers.
[ "$flavour" = stress ] &&
	frags=("$here/configs/base.config" "$here/configs/test.config" "$here/configs/stress.config")
# A matrix fragment comes last and wins.  What it switches off takes
# options of base.config and test.config with it: the fragment says
# CONFIG_X=n for each of those too, so that every option the kernel
# goes without is written down where the entry is defined.
case "$flavour" in
arch-*) frags=("$here/configs/arch/common.config" "$here/configs/arch/${flavour#arch-}.config") ;;
cfg-*)	frags=("$here/configs/base.config" "$here/configs/test.config"
	       "$here/configs/matrix/${flavour#cfg-}.config") ;;
esac
[ -n "${EXTRA_CONFIG:-}" ] && frags+=("$EXTRA_CONFIG")

mkdir -p "$build"
start=tinyconfig
if [ "$flavour" = distro ]; then
	. "$here/harness/base.env"
	# Every =m of Debian's becomes "not set"; the fragment turns the
	# plan's modules back on.
	xz -dc "$DISTRO_CONFIG" | sed 's/^\(CONFIG_[A-Za-z0-9_]*\)=m$/# \1 is not set/' \
		>"$build/.config-distro"
	frags=("$build/.config-distro" "$here/configs/distro.config")
	start=
fi
# Only reconfigure when a fragment changed: a fresh .config makes make
# rebuild far more than it has to.  A later fragment overrides an earlier.
sum=$(cat "${frags[@]}" | sha256sum | cut -c1-16)
if [ -f "$build/.config" ] && [ "$(cat "$build/.config-frags" 2>/dev/null)" = "$sum" ]; then
	exit 0
fi
if [ -n "$start" ]; then
	make -s -C "$src" O="$build" "$start" >/dev/null
else
	cp "${frags[0]}" "$build/.config"
fi
"$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "${frags[@]}" >/dev/null
make -s -C "$src" O="$build" olddefconfig >/dev/null

# The fragments whose every option must hold: Debian's configuration
# is not one of them (olddefconfig may drop what this compiler or the
# modules switched off make impossible).
checked=("${frags[@]}")
[ "$flavour" = distro ] && checked=("$here/configs/distro.config")

# KCONFIG_ONLY_KNOWN=1 (the unmodified base built with the test
# fragments, for comparison): a symbol no Kconfig file of the tree
# defines, as the series' KUnit suites on the base, is not checked.
known=
if [ -n "${KCONFIG_ONLY_KNOWN:-}" ]; then
	known=$build/.config-known
	find "$src" -name 'Kconfig*' -print0 | xargs -0 sed -n \
		's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/CONFIG_\2/p' |
		sort -u > "$known"
fi
bad=0
while IFS= read -r line; do
	if [ -n "$known" ] && ! grep -qx "${line%%=*}" "$known"; then
		echo "kconfig: $line: no such symbol in this tree, not checked" >&2
		continue
	fi
	case "$line" in
	CONFIG_*=n) opt=${line%%=*}
		if grep -q "^$opt=" "$build/.config"; then
			echo "kconfig: $opt is set, the fragments say n" >&2; bad=1
		fi ;;
	CONFIG_*=*) opt=${line%%=*}
		if ! grep -qx "$line" "$build/.config"; then
			got=$(grep "^$opt=\|# $opt is not set" "$build/.config" || echo "absent")
			echo "kconfig: asked $line, got: $got" >&2; bad=1
		fi ;;
	esac
done < <(cat "${checked[@]}" | grep '^CONFIG_' |
	awk -F= '{ v[$1] = $0; if (!($1 in seen)) { seen[$1] = 1; o[n++] = $1 } }
		END { for (i = 0; i < n; i++) print v[o[i]] }')
if [ $bad -ne 0 ]; then
	echo "kconfig: the fragments do not hold on this tree" >&2
	case "$flavour" in
	cfg-*)	echo "kconfig: an option that configs/matrix/${flavour#cfg-}.config" \
		     "makes impossible goes in it as CONFIG_X=n" >&2 ;;
	esac
	exit 1
fi
echo "$sum" > "$build/.config-frags"
