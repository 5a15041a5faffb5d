#!/usr/bin/env bash
# the bash completion, sourced in bash, completes commands (lupe rec<TAB>), a command's options from its table (lupe record --call<TAB>), event names (lupe stat -e sched:sched_sw<TAB>) and perf.data files after -i
. "$(dirname "$0")/lib/common.sh"
comp=$LUPE_SRC/scripts/completion/lupe.bash
[ -f "$comp" ] || fail "no $comp"
# shellcheck source=/dev/null
. "$comp" || fail "sourcing $comp failed"
complete -p lupe | grep -q -- '-F _lupe' || fail "sourcing did not register _lupe for lupe"

# complete LINE: what bash would offer at the end of LINE, one a line. The
# words are split as readline splits them (COMP_WORDBREAKS: ':' and '='
# are words of their own), COMP_LINE and COMP_POINT as bash sets them.
complete_line() {
	local line=$1
	COMP_LINE=$line
	COMP_POINT=${#line}
	local re='[[:space:]]+|:|='
	COMP_WORDS=()
	local rest=$line w=
	while [ -n "$rest" ]; do
		case ${rest:0:1} in
		' ') [ -n "$w" ] && COMP_WORDS+=("$w"); w= ;;
		: | =) [ -n "$w" ] && COMP_WORDS+=("$w"); COMP_WORDS+=("${rest:0:1}"); w= ;;
		*) w+=${rest:0:1} ;;
		esac
		rest=${rest:1}
	done
	COMP_WORDS+=("$w") # the word being completed, maybe empty
	COMP_WORDS[0]=$LUPE
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_lupe lupe "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}"
}

out=$(complete_line "lupe rec")
[ "$out" = record ] || fail "lupe rec<TAB> offers '$out', want record"
out=$(complete_line "lupe re")
[ "$(echo "$out" | sort | tr '\n' ' ')" = "record report " ] || fail "lupe re<TAB> offers '$out'"
out=$(complete_line "lupe record --call")
[ "$out" = --call-graph ] || fail "lupe record --call<TAB> offers '$out', want --call-graph"
# the options come from the command's own table: a report option is no record option
"$LUPE" record --list-opts | grep -qx -- --call-graph || fail "lupe record --list-opts lacks --call-graph"
out=$(complete_line "lupe report --no-chi")
[ "$out" = --no-children ] || fail "lupe report --no-chi<TAB> offers '$out'"
out=$(complete_line "lupe record --no-chi")
[ -z "$out" ] || fail "lupe record --no-chi<TAB> offers '$out': report's option"
ok "commands and options"

need_tracefs
"$LUPE" list --raw-dump | tr ' ' '\n' | grep -qx sched:sched_switch || skip "no sched:sched_switch tracepoint here"
out=$(complete_line "lupe stat -e sched:sched_sw")
# bash puts the offer after the ':' break
want=$("$LUPE" list --raw-dump | tr ' ' '\n' | sed -n 's/^sched:\(sched_sw.*\)/\1/p' | sort)
[ "$(echo "$out" | sort)" = "$want" ] || fail "lupe stat -e sched:sched_sw<TAB> offers '$out', want $want"
echo "$out" | grep -qx sched_switch || fail "lupe stat -e sched:sched_sw<TAB> does not offer sched_switch: $out"
out=$(complete_line "lupe record -e sched:sched_swi")
[ "$out" = sched_switch ] || fail "lupe record -e sched:sched_swi<TAB> offers '$out'"
out=$(complete_line "lupe stat -e task-cl")
[ "$out" = task-clock ] || fail "lupe stat -e task-cl<TAB> offers '$out', want task-clock"
ok "event names"

touch perf.data perf.data.old notes.txt
mkdir sub
out=$(complete_line "lupe report -i ")
[ "$(echo "$out" | sort | tr '\n' ' ')" = "perf.data perf.data.old sub " ] || fail "lupe report -i <TAB> offers '$out'"
ok "perf.data files after -i"
