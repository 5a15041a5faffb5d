#!/usr/bin/env bash
# cpack -G DEB makes lupe, liblupe0 and liblupe-dev packages that lintian passes without errors; installed with dpkg -i into a Debian root made from the host (an overlay of /, in a mount namespace: the host is not changed), dpkg -L lists lupe, liblupe.so.0, lupe.pc, the man pages and the completion, and the installed lupe records and reports the demo
. "$(dirname "$0")/lib/common.sh"
need_root
for t in cpack dpkg-deb unshare chroot; do
	command -v $t >/dev/null || skip "no $t"
done
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null
grep -qw overlay /proc/filesystems || skip "no overlayfs for the test root"
command -v lowdown >/dev/null || skip "no lowdown: the packages carry man pages (apt-get install lowdown)"

# A package is built for /usr: a tree of its own beside the build tree
# (kept, so that a second run only rebuilds what changed), tests and
# sanitizers off, only what the packages hold.
pkg=$LUPE_BUILD/deb
cmake -S "$LUPE_SRC" -B "$pkg" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
	-DLUPE_WITH_CMOCKA=OFF -DLUPE_FUZZ_TESTS=OFF -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >cmake.log 2>&1 ||
	{ cat cmake.log; fail "configuring the package tree failed"; }
cmake --build "$pkg" -j2 --target lupe lupe-exporter liblupe_shared liblupe man debian-docs >build.log 2>&1 ||
	{ tail -30 build.log; fail "building the package tree failed"; }
rm -f "$pkg"/*.deb
(cd "$pkg" && cpack -G DEB) >cpack.log 2>&1 || { cat cpack.log; fail "cpack -G DEB failed"; }
debs=("$pkg"/lupe_*.deb "$pkg"/liblupe0_*.deb "$pkg"/liblupe-dev_*.deb)
for d in "${debs[@]}"; do
	[ -f "$d" ] || fail "cpack made no $(basename "$d"): $(ls "$pkg"/*.deb 2>&1)"
done
ok "cpack -G DEB: $(cd "$pkg" && echo *.deb)"

# dependencies from dpkg-shlibdeps, not a hand-kept list
dep=$(dpkg-deb -f "$pkg"/lupe_*.deb Depends)
for lib in libc6 libelf1 libdw1; do
	echo "$dep" | grep -q "$lib (>=" || fail "lupe's Depends lacks $lib: $dep"
done
dpkg-deb -f "$pkg"/liblupe-dev_*.deb Depends | grep -q "liblupe0 (= " || fail "liblupe-dev does not depend on its liblupe0"

if command -v lintian >/dev/null; then
	lintian --tag-display-limit 0 "${debs[@]}" >lintian.txt 2>&1
	grep '^E:' lintian.txt && fail "lintian reports errors (above)"
	echo "lintian warnings:"
	grep '^W:' lintian.txt
	ok "lintian: no errors, $(grep -c '^W:' lintian.txt) warnings"
else
	echo "lintian not installed: not run"
fi

# The root: the host's / under an overlay, so the packages' dependencies
# are the host's installed ones and nothing reaches the host's disk.
root=$TMPD/root
host_status=$(dpkg-query -W -f='${Status}' lupe 2>/dev/null)
mkdir -p "$TMPD/upper" "$TMPD/work" "$root"
mkdir -p "$TMPD/upper/tmp/t"
cp "${debs[@]}" "$TMPD/upper/tmp/t/"
cp "$WORKLOADS/demo" "$TMPD/upper/tmp/t/demo" || fail "no demo workload in $WORKLOADS"
cat >"$TMPD/upper/tmp/t/in-root.sh" <<'IN'
set -e
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
cd /tmp/t
dpkg -i ./*.deb >dpkg.log 2>&1 || { cat dpkg.log; echo "FAIL: dpkg -i failed"; exit 1; }
for want in "lupe /usr/bin/lupe" "lupe /usr/share/man/man1/lupe-record.1.gz" "lupe /usr/share/man/man1/lupe.1.gz" \
	"lupe /usr/share/bash-completion/completions/lupe" "lupe /usr/libexec/lupe/lupe-exporter" \
	"liblupe0 /usr/lib/x86_64-linux-gnu/liblupe.so.0" "liblupe-dev /usr/lib/x86_64-linux-gnu/pkgconfig/lupe.pc" \
	"liblupe-dev /usr/include/lupe/lupe.h"; do
	set -- $want
	dpkg -L "$1" | grep -qx "$2" || { echo "FAIL: dpkg -L $1 does not list $2"; exit 1; }
done
echo "ok: dpkg -L lists lupe, the exporter, man pages, completion, liblupe.so.0, lupe.pc, headers"
command -v lupe | grep -qx /usr/bin/lupe || { echo "FAIL: lupe on PATH is $(command -v lupe)"; exit 1; }
lupe record -q -g -o perf.data -- ./demo >record.log 2>&1 || { cat record.log; echo "FAIL: installed lupe record failed"; exit 1; }
lupe report -i perf.data --stdio >report.txt 2>&1 || { cat report.txt; echo "FAIL: installed lupe report failed"; exit 1; }
grep -q 'spin' report.txt || { head -20 report.txt; echo "FAIL: the report of the demo shows no spin"; exit 1; }
lupe help record | head -1 | grep -q 'LUPE-RECORD(1)' || { echo "FAIL: installed lupe help record is not its man page"; exit 1; }
MANPATH= man -w lupe-report | grep -qx /usr/share/man/man1/lupe-report.1.gz || { echo "FAIL: man -w lupe-report"; exit 1; }
lupe exporter -h | grep -q 'Usage: lupe exporter' || { echo "FAIL: the installed lupe does not run its exporter"; exit 1; }
pkg-config --modversion lupe >/dev/null || { echo "FAIL: pkg-config does not find the installed lupe.pc"; exit 1; }
echo "ok: the installed lupe records and reports the demo; help, man, the exporter and lupe.pc work"
dpkg -r lupe liblupe-dev liblupe0 >dpkg.log 2>&1 || { cat dpkg.log; echo "FAIL: dpkg -r failed"; exit 1; }
[ ! -e /usr/bin/lupe ] || { echo "FAIL: /usr/bin/lupe left after dpkg -r"; exit 1; }
echo "ok: dpkg -r removes them"
IN
unshare -m --propagation private bash -c '
	set -e
	t=$1
	mount -t overlay overlay -o lowerdir=/,upperdir=$t/upper,workdir=$t/work $t/root
	mount -t proc proc $t/root/proc
	mount --rbind /sys $t/root/sys
	mount --rbind /dev $t/root/dev
	chroot $t/root bash /tmp/t/in-root.sh
' _ "$TMPD" >root.log 2>&1
rc=$?
cat root.log
[ $rc = 0 ] || fail "in the test root: exit $rc"
grep -q '^ok: dpkg -r' root.log || fail "the test root did not finish"
[ "$(dpkg-query -W -f='${Status}' lupe 2>/dev/null)" = "$host_status" ] ||
	fail "the host's lupe package changed: the overlay leaked"
ok "the packages install, run and remove in a root made from the host"
