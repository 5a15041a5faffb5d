#!/usr/bin/env bash
# lupe probe's refusal of a kernel probe by line or variable (no kernel DWARF) carries perf's "Failed to find the path for the kernel", the phrase perf's vfs_getname tests grep to skip
. "$(dirname "$0")/lib/common.sh"
# the pattern of perf 6.1's tests/shell/lib/probe_vfs_getname.sh (skip_if_no_debuginfo)
pat='^(Failed to find the path for the kernel|Debuginfo-analysis is not supported)|(file has no debug information)'
lib=/usr/lib/perf-core/tests/shell/lib/probe_vfs_getname.sh
if [ -f "$lib" ]; then
	grep -qF "$pat" "$lib" || fail "perf's probe_vfs_getname.sh no longer greps '$pat': update this test"
fi
# what the tests run: the line they could not find is empty; then a variable
for def in "vfs_getname=getname_flags: pathname=result->name:string" \
	   "vfs_getname=getname_flags:12 pathname=filename:ustring" \
	   "vfs_getname=getname_flags pathname=filename:ustring"; do
	"$LUPE" probe -v "$def" > out 2> err && fail "'$def' was added: lupe reads no kernel DWARF"
	grep -Eq "$pat" err || fail "the refusal of '$def' lacks perf's phrase: $(cat err)"
	grep -q "^lupe: cannot probe '.*': kernel probes by .* need the kernel's debug info" err ||
		fail "the refusal of '$def' does not say why in lupe's words: $(cat err)"
done
# a uprobe's bad line is not a kernel matter: no such phrase
"$LUPE" probe -x /bin/true 'main:x' 2> err && fail "'main:x' was accepted"
grep -Eq "$pat" err && fail "a uprobe's bad line speaks of the kernel: $(cat err)"
ok "kernel probes by line or variable are refused with perf's phrase; a uprobe's bad line is not"
