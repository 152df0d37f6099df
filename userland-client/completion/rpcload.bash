# SPDX-License-Identifier: GPL-2.0
# bash completion for rpcload (userland-client/).  Source it, or copy it to
# /usr/share/bash-completion/completions/rpcload.  The options come from
# the program's own --help, so they never fall out of date; the cases of
# "rpcload bad --case" from "rpcload bad --list".

_rpcload_options()
{
	"$1" "$2" --help 2>/dev/null |
		grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+'
}

_rpcload()
{
	local cur prev cmd i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		null | echo | sleep | load | bad | slices) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "null echo sleep load bad slices --help --version" -- "$cur"))
		return
	fi
	case $prev in
	--case)
		COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" bad --list 2>/dev/null |
			awk '{ print $1 }')" -- "${cur##*,}"))
		return ;;
	--proto)
		COMPREPLY=($(compgen -W "tcp udp" -- "$cur"))
		return ;;
	--proc)
		COMPREPLY=($(compgen -W "null echo sleep" -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_rpcload_options "${COMP_WORDS[0]}" "$cmd")" -- "$cur"))
	fi
}
complete -F _rpcload rpcload
