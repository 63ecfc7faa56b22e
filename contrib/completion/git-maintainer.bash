# Bash completion for git-maintainer(1).
#
# With git's own completion loaded (it usually is: bash-completion loads it
# for "git"), `git maintainer <TAB>` calls _git_maintainer below. Source this
# file from ~/.bashrc, or install it as
#   /usr/share/bash-completion/completions/git-maintainer
# where bash-completion finds it by itself, for `git maintainer` and for the
# dashed `git-maintainer` alike.
#
# Option values are completed where there is a short list to offer
# (--format, --rev); everything else falls back to file names.

# Options taking a value end in '='. The words after "--" are the negated
# forms, which git's __gitcomp offers only once "--no" has been typed.
__git_maintainer_options="
	--file --rev= --mpath= --maintainer-path= --series= --find-maintainer-files --batch --jobs=
	--email --moderated --keywords --keywords-in-file --file-emails
	--remove-duplicates --mailmap --fixes --git-all-signature-types
	--git-chief-penguins --pattern-depth= --tree
	--maintainer-roles --keyword-roles --unicode-file-emails
	--history --since= --until= --git-min-signatures= --git-min-percent=
	--git-max-maintainers= --git-fallback
	--unowned --activity
	--to --cc --headers
	--roles --rolestats --format= --separator= --multiline
	--scm --status --subsystem --web --bug --substatus --sections --letters=
	--self-test --self-test= --version --help
	--
	--no-email --no-moderated --no-keywords --no-keywords-in-file
	--no-file-emails --no-remove-duplicates --no-mailmap --no-fixes
	--no-git-all-signature-types --no-git-chief-penguins --no-tree
	--no-history --no-git-fallback --no-roles --no-rolestats --no-multiline
	--no-scm --no-status --no-subsystem --no-web --no-bug --no-substatus
	--no-sections --no-maintainer-roles --no-keyword-roles
	--no-unicode-file-emails
"

# The completions for the current word, in $cur, into COMPREPLY.
_git_maintainer ()
{
	local word=${cur-}

	case "$word" in
	--format=*)
		__gitcomp "text json" "" "${word#--format=}"
		return
		;;
	--rev=*)
		__git_complete_refs --cur="${word#--rev=}"
		return
		;;
	--series=*)
		# a directory
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "${word#--series=}")
		return
		;;
	--*=*)
		# a free-form value: nothing to offer
		COMPREPLY=()
		return
		;;
	-*)
		__gitcomp "$__git_maintainer_options"
		return
		;;
	esac

	# A patch file or, with -f, a path.
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -f -- "$word")
}

# The dashed command. git's __git_complete sets up $cur and friends and
# registers the function with `complete -F`. Loaded on its own by
# bash-completion, for `git-maintainer <TAB>`, this file first asks for git's
# completion; without it there is nothing to build on, and readline's file
# name completion stays.
if ! declare -F __git_complete >/dev/null 2>&1 &&
   declare -F __load_completion >/dev/null 2>&1; then
	__load_completion git
fi
if declare -F __git_complete >/dev/null 2>&1; then
	__git_complete git-maintainer _git_maintainer
fi
