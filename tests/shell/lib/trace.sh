# Helpers for lupe trace's tests; source after common.sh.
# need_bpf_trace: skip unless lupe trace captures with BPF here (built with
# libbpf, clang and bpftool, and permitted to load the program).
need_bpf_trace() {
	"$LUPE" trace -o /dev/null -- true 2> "$TMPD/bpf-check.err" ||
		fail "lupe trace -- true failed: $(cat "$TMPD/bpf-check.err")"
	grep -q "strings and buffers are not shown" "$TMPD/bpf-check.err" &&
		skip "no BPF capture: $(cat "$TMPD/bpf-check.err")"
	return 0
}
# count FILE SYSCALL: "calls errors" of SYSCALL in the total table of a summary
count() { awk -v s="$2" '/^ total,/ {t = 1} t && $1 == s {print $2, $3; exit}' "$1"; }
calls() { count "$@" | cut -d" " -f1; }
# delta BASE RUN SYSCALL: calls of SYSCALL in summary RUN minus those in BASE
# (a run of the workload with -n 0: what its start-up and runtime make)
delta() {
	local b r
	b=$(calls "$1" "$3"); r=$(calls "$2" "$3")
	echo $(( ${r:-0} - ${b:-0} ))
}
