#!/usr/bin/env bash
# lupe annotate lists every instruction of AVX-512 (EVEX) code and of the libc string function a workload spends most in (__strcmp_evex and friends on AVX-512 machines), an undecodable byte as (bad), with perf annotate's per-address shares and, for the workload's EVEX loop, objdump's text, on files recorded by perf and by lupe
. "$(dirname "$0")/lib/common.sh"
need_perf
[ "$(uname -m)" = x86_64 ] || skip "annotate decodes x86-64 only"

"$PERF" record -q -o perf.perf -- "$WORKLOADS/strings" -n 600 > /dev/null 2>&1 || skip "perf cannot record here (see record tests)"
"$LUPE" record -q -o perf.lupe -- "$WORKLOADS/strings" -n 600 > /dev/null 2>&1 || fail "lupe record failed"

# every: "ADDRESS PERCENT" of every instruction line, in the listing's order
every() { awk -F: '$1 ~ /^ *[0-9]+\.[0-9]+ *$/ { gsub(/ /, "", $2); printf "%s %.2f\n", $2, $1 }' "$1"; }
# text: "ADDRESS: INSTRUCTION" of every instruction line
text() { grep -E '^ *[0-9]+\.[0-9]+ :' "$1" | sed -E 's/^ *[0-9.]+ : +//; s/: +/: /'; }

# the libc string function hit most (perf names it from libc's debug symbols)
"$PERF" report -i perf.perf --stdio -q --sort dso,sym 2> /dev/null > report.txt
strfn=$(awk '$2 ~ /^libc/ && $NF ~ /^__(str|mem)/ { print $NF; exit }' report.txt)
[ -n "$strfn" ] || skip "no libc string function in the profile (libc without symbols?): $(head -5 report.txt)"
if grep -qw avx512bw /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo; then
	# _evex (AVX-512VL on 256-bit registers) or _avx512 (512-bit: glibc's
	# pick on Intel Xeons here, __memmove_avx512_unaligned_erms): EVEX code both
	case $strfn in
	*_evex* | *_avx512*) ;;
	*) fail "an AVX-512 machine, yet the hottest string function is $strfn, not an _evex or _avx512 one" ;;
	esac
else
	echo "note: no AVX-512 here: libc runs $strfn; the EVEX listing is checked on the workload's jump_over"
fi

for f in perf.perf perf.lupe; do
	for sym in jump_over "$strfn"; do
		"$PERF" annotate --stdio -s "$sym" -i "$f" > perf.out 2> /dev/null
		"$LUPE" annotate --stdio --no-source -s "$sym" -i "$f" > lupe.out 2> lupe.err ||
			fail "lupe annotate -s $sym -i $f: $(cat lupe.err)"
		every perf.out > perf.every
		every lupe.out > lupe.every
		[ "$(wc -l < perf.every)" -gt 10 ] || fail "perf annotate -s $sym -i $f shows $(wc -l < perf.every) instructions"
		# perf's shares have two decimals: the same sums give the same text
		diff perf.every lupe.every > every.diff ||
			fail "$sym in $f: lupe lists $(wc -l < lupe.every) instructions, perf $(wc -l < perf.every), or other shares: $(head -20 every.diff)"
		awk '$2 > 0 { n++ } END { exit !(n > 0) }' lupe.every || fail "$sym in $f: no instruction with samples"
		if [ "$sym" = jump_over ]; then
			grep -q ':   (bad)$' lupe.out || fail "no (bad) byte in: $(cat lupe.out)"
			text perf.out > perf.text
			text lupe.out > lupe.text
			diff perf.text lupe.text > text.diff || fail "jump_over's text is not objdump's: $(cat text.diff)"
		fi
		ok "$sym in $f: all $(wc -l < lupe.every) instructions, perf's shares ($(awk '$2 > 0' lupe.every | wc -l) with samples)"
	done
done
