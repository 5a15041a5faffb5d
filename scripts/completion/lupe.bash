# bash completion for lupe                                -*- shell-script -*-
# Installed as share/bash-completion/completions/lupe. Every word comes from
# lupe itself, so the script never falls behind the option tables:
#   lupe --list-cmds          the commands
#   lupe CMD --list-opts      a command's long options (its argp table)
#   lupe list --raw-dump      event names, after -e/--event
# and files for -i/--input (perf.data files and folders first). It needs
# nothing from the bash-completion package.

# The word under the cursor as the user typed it: bash splits at ':' and
# '=' (COMP_WORDBREAKS), so "sched:sched_sw" reaches us in pieces.
_lupe_cur() {
	local line=${COMP_LINE:0:COMP_POINT}
	printf '%s' "${line##*[[:space:]]}"
}

# Offer words ($2...) that start with $1, each cut to what follows the
# last ':' or '=' of $1, as bash puts them after that break.
_lupe_reply() {
	local cur=$1 w
	shift
	COMPREPLY=()
	local cut=${cur%"${cur##*[:=]}"}
	for w in "$@"; do
		[[ $w == "$cur"* ]] && COMPREPLY+=("${w#"$cut"}")
	done
}

_lupe() {
	local lupe=${COMP_WORDS[0]} cur= prev= cmd= i w=
	cur=$(_lupe_cur)
	# the command: the first word after lupe that is not a global option
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--buildid-dir) ((i++)) ;;
		-*) ;;
		*) cmd=$w; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			_lupe_reply "$cur" --help --version --debug --buildid-dir --list-cmds
		else
			mapfile -t w < <("$lupe" --list-cmds 2>/dev/null)
			_lupe_reply "$cur" "${w[@]}"
		fi
		return 0
	fi
	# the word before the current one, the split at ':' undone
	local line=${COMP_LINE:0:COMP_POINT}
	line=${line%"$cur"}
	line=${line%"${line##*[![:space:]]}"}
	prev=${line##*[[:space:]]}
	case $prev in
	-e | --event)
		mapfile -t w < <("$lupe" list --raw-dump 2>/dev/null | tr ' ' '\n')
		_lupe_reply "$cur" "${w[@]}"
		return 0
		;;
	-i | --input)
		# perf.data files and folders first, else any file
		mapfile -t w < <(compgen -f -- "$cur" | while read -r f; do
			[[ -d $f || $f == *perf*data* || $f == *.data ]] && echo "$f"; done)
		((${#w[@]})) || mapfile -t w < <(compgen -f -- "$cur")
		COMPREPLY=("${w[@]}")
		compopt -o filenames 2>/dev/null
		return 0
		;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t w < <("$lupe" "$cmd" --list-opts 2>/dev/null)
		_lupe_reply "$cur" "${w[@]}"
		return 0
	fi
	case $cmd in
	help) mapfile -t w < <("$lupe" --list-cmds 2>/dev/null); _lupe_reply "$cur" "${w[@]}" ;;
	data) _lupe_reply "$cur" convert ;;
	*) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); compopt -o filenames 2>/dev/null ;;
	esac
	return 0
}
complete -F _lupe lupe
