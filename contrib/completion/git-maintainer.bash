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
# The build replaces this list with one made from the option table of
# src/cli/options.c (contrib/completion/generate.c), and installs that.
__git_maintainer_options="
	--activity
	--batch
	--bug
	--cc
	--check
	--check=
	--check-history
	--check-reviewers
	--email
	--fe
	--file
	--file-emails
	--find-maintainer-files
	--fixes
	--format=
	--git
	--git-all-signature-types
	--git-blame
	--git-blame-signatures
	--git-chief-penguins
	--git-fallback
	--git-max-maintainers=
	--git-min-percent=
	--git-min-signatures=
	--git-since=
	--headers
	--help
	--hg-since=
	--history
	--jobs=
	--keywords
	--keywords-in-file
	--kf
	--letters=
	--mailmap
	--maintainer-path=
	--moderated
	--mpath=
	--multiline
	--pattern-depth=
	--remove-duplicates
	--rev=
	--roles
	--rolestats
	--scm
	--sections
	--self-test
	--self-test=
	--separator=
	--series=
	--since=
	--status
	--substatus
	--subsystem
	--to
	--tree
	--unowned
	--until=
	--version
	--web
	--
	--no-bug
	--no-check-history
	--no-check-reviewers
	--no-email
	--no-fe
	--no-file-emails
	--no-fixes
	--no-git
	--no-git-all-signature-types
	--no-git-blame
	--no-git-blame-signatures
	--no-git-chief-penguins
	--no-git-fallback
	--no-history
	--no-keywords
	--no-keywords-in-file
	--no-kf
	--no-mailmap
	--no-moderated
	--no-multiline
	--no-remove-duplicates
	--no-roles
	--no-rolestats
	--no-scm
	--no-sections
	--no-status
	--no-substatus
	--no-subsystem
	--no-tree
	--no-web
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
	--check=*)
		__gitcomp "recipients approvals" "" "${word#--check=}"
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
