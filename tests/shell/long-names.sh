#!/usr/bin/env bash
# a 20,000-character C++ symbol (a /tmp/perf-PID.map entry) is whole in report's columns and chains (graph, flat, folded, --hierarchy), script, and every exporter (folded, SVG, pprof, speedscope, firefox), run by lupe and by lupe-asan; report's entry lines and script equal perf's
. "$(dirname "$0")/lib/common.sh"
need_perf
command -v python3 >/dev/null || skip "no python3 to build the file and check the outputs"
ASAN_BIN=${LUPE_ASAN_BIN:-$LUPE_BUILD/lupe-asan}
[ -x "$ASAN_BIN" ] || fail "no lupe-asan at $ASAN_BIN (cmake builds it unless LUPE_ASAN is on)"
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1
# a pid of nothing running (pid_max is at most 4194304), its map file ours
pid=$((4100000 + $$ % 90000))
map=/tmp/perf-$pid.map
[ -e "$map" ] && skip "$map exists already"
trap 'rm -rf "$TMPD" "$map"' EXIT
python3 - > name <<'EOF'
inner = ("std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const, "
         "std::vector<unsigned long, std::allocator<unsigned long> > >")
suffix = (">::_M_copy<false, std::_Rb_tree<int, int, std::_Identity<int>, std::less<int>, "
          "std::allocator<int> >::_Alloc_node>(std::_Rb_tree_node<int> const*, std::_Rb_tree_node_base*, "
          "std::_Rb_tree<int, int, std::_Identity<int>, std::less<int>, std::allocator<int> >::_Alloc_node&)")
body = "std::_Rb_tree<"
while len(body) + len(suffix) < 20000:
    body += inner + ", "
print(body[:20000 - len(suffix)] + suffix, end="")
EOF
name=$(cat name)
[ ${#name} = 20000 ] || fail "the generated name is ${#name} characters long"
printf '7f0000001000 100 %s\n7f0000002000 100 main_loop\n' "$name" > "$map"
python3 "$LUPE_SRC/tests/shell/lib/perfdata.py" jit long.data $pid name caller || fail "cannot build long.data"
# folded: the name up to its first '(' as stackcollapse-perf.pl cuts it
folded=${name%%(*}

# has FILE TEXT: FILE holds TEXT (python: grep -F on a 20,000-byte pattern is slow)
has() { python3 -c 'import sys; sys.exit(sys.argv[2].encode() not in open(sys.argv[1], "rb").read())' "$1" "$2"; }

for bin in "$LUPE" "$ASAN_BIN"; do
	b=${bin##*/}
	run() { "$bin" "$@" 2>err; rc=$?; [ $rc = 0 ] || fail "$b $* exited $rc: $(head -c 2000 err)"; }
	# report: the Symbol column and every callchain layout
	for opts in "" "--no-children" "-g flat" "-g folded" "-g caller" "--hierarchy" "--sort sym -v"; do
		# shellcheck disable=SC2086
		run report --stdio $opts -i long.data > rep.out
		has rep.out "$name" || fail "$b report $opts cuts the name (longest line $(awk '{ if (length($0) > m) m = length($0) } END { print m }' rep.out))"
	done
	run script -i long.data > script.out
	has script.out "$name" || fail "$b script cuts the name"
	run convert --to folded -i long.data > folded.out
	grep -q "^jitted;main_loop;" folded.out && has folded.out "$folded 20" ||
		fail "$b convert --to folded: $(head -c 300 folded.out)"
	python3 "$LUPE_SRC/tests/shell/lib/stackcollapse.py" < script.out > folded.ref
	cmp -s folded.ref folded.out || fail "$b convert --to folded differs from the stackcollapse-perf.pl folding of script"
	run flamegraph -i long.data -o long.svg
	# (flamegraph.pl's frames are the folded names)
	python3 - long.svg "$folded" <<'EOF' || fail "$b flamegraph: the name is not whole in the SVG"
import sys, xml.sax.saxutils as x
sys.exit(x.escape(sys.argv[2], {'"': "&quot;", "'": "&apos;"}).encode() not in open(sys.argv[1], "rb").read())
EOF
	if "$bin" convert --to pprof -i long.data -o long.pb.gz 2>err; then
		python3 -c 'import gzip, sys; sys.exit(sys.argv[2].encode() not in gzip.open(sys.argv[1]).read())' \
			long.pb.gz "$name" || fail "$b convert --to pprof: the name is not whole in the profile"
	else
		grep -q "built without" err || fail "$b convert --to pprof failed: $(head -c 2000 err)"
	fi
	for to in speedscope firefox; do
		run convert --to $to -i long.data -o long.json
		python3 - long.json "$name" <<'EOF' || fail "$b convert --to $to: the name is not whole in a string of the JSON"
import json, sys
def strings(v):
    if isinstance(v, dict):
        for w in v.values(): yield from strings(w)
    elif isinstance(v, list):
        for w in v: yield from strings(w)
    elif isinstance(v, str):
        yield v
# (firefox's function names read "NAME (in DSO)")
sys.exit(not any(sys.argv[2] in s for s in strings(json.load(open(sys.argv[1])))))
EOF
	done
done

# perf prints the entry lines and script's text the same; its chain lines
# and column heads stop at its 1,024-byte line buffer (a documented
# difference: lupe's are whole), so those compare up to there
"$PERF" report --stdio -i long.data 2>/dev/null | grep -v '^#' > perf.rep
"$LUPE" report --stdio -i long.data 2>/dev/null | grep -v '^#' > lupe.rep
grep "%.*\[\.\] main_loop" lupe.rep >/dev/null || fail "no main_loop entry: $(cut -c 1-200 lupe.rep)"
diff <(grep '%' perf.rep) <(grep '%' lupe.rep) >/dev/null || fail "report's entry lines differ from perf's"
diff <(cut -c 1-1000 perf.rep) <(cut -c 1-1000 lupe.rep) >/dev/null || fail "report's chains differ from perf's"
# the file has no event names: perf and lupe name the attr (cpu-clock:HG, perf's H and G rule)
"$PERF" script -i long.data 2>/dev/null > perf.script
"$LUPE" script -i long.data > lupe.script 2>/dev/null
cmp -s perf.script lupe.script || fail "script differs from perf's: $(diff perf.script lupe.script | cut -c 1-200 | head -5)"
ok "a 20,000-character name is whole in report, script, folded, SVG, pprof, speedscope and firefox (lupe and lupe-asan); report's entries and script as perf's"
