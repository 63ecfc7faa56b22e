#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "gm/buf.h"
#include "gm/config.h"
#include "gm/error.h"
#include "gm/options.h"
#include "gm/rank.h"
#include "gm/strvec.h"
#include "gm/treescript.h"

#include "gm_tests.h"
#include "gm_testutil.h"

/*
 * Script texts of the shape get_maintainer.pl has: top-level option
 * variables with their initialisers, then one GetOptions call binding
 * option specs to them. OLD is like 6.1 (no --keywords-in-file, no
 * --substatus); NEW has both, as Linux has had since.
 */
#define SCRIPT_HEAD \
	"#!/usr/bin/env perl\n" \
	"# SPDX-License-Identifier: GPL-2.0\n" \
	"use strict;\n" \
	"my $email = 1;\n" \
	"my $email_maintainer = 1;\n" \
	"my $email_file_emails = 0;\n" \
	"my $email_git_max_maintainers = 5;\n" \
	"my $output_roles = 0;\n" \
	"my $keywords = 1;\n"

#define SCRIPT_OPTIONS \
	"\t\t'email!' => \\$email,\n" \
	"\t\t'm!' => \\$email_maintainer,\n" \
	"\t\t'git-max-maintainers=i' => \\$email_git_max_maintainers,\n" \
	"\t\t'roles!' => \\$output_roles,\n" \
	"\t\t'k|keywords!' => \\$keywords,\n" \
	"\t\t'fe|file-emails!' => \\$email_file_emails,\n"

#define SCRIPT_TAIL \
	"\t\t)) {\n" \
	"    die \"$P: invalid argument - use --help if necessary\\n\";\n" \
	"}\n" \
	"sub f {\n" \
	"    my $keywords_in_file = 1;\n" \
	"}\n"

static const char old_script[] =
	SCRIPT_HEAD
	"\n"
	"if (!GetOptions(\n"
	SCRIPT_OPTIONS
	SCRIPT_TAIL;

static const char new_script[] =
	SCRIPT_HEAD
	"my $keywords_in_file = 0;\n"
	"my $output_substatus = undef;\n"
	"\n"
	"if (!GetOptions(\n"
	SCRIPT_OPTIONS
	"\t\t'kf|keywords-in-file!' => \\$keywords_in_file,\n"
	"\t\t'substatus!' => \\$output_substatus,\n"
	SCRIPT_TAIL;

/*
 * gm_treescript_read() of `text`, at "s.pl", applied to `o` as it is by
 * gm_config_treescript_apply(); the notes appended to `notes` and the
 * family put in `*family`, each unless NULL. @return the options changed.
 */
static int read_apply(struct gm_options *o, const char *text, size_t len,
		      struct gm_strvec *notes, int *family)
{
	struct gm_treescript ts = GM_TREESCRIPT_INIT;
	int f = gm_treescript_read(&ts, text, len, "s.pl");
	int n;

	ck_assert_int_ge(f, 0);
	n = gm_config_treescript_apply(o, &ts);
	for (size_t i = 0; notes && i < ts.notes.nr; i++)
		ck_assert_int_eq(gm_strvec_push(notes, ts.notes.v[i]), 0);
	if (family)
		*family = f;
	gm_treescript_release(&ts);
	return n;
}

/*
 * read_apply() on a copy of `text` in a buffer of exactly its length (no
 * NUL after it: ASan sees any read past the end), to options fresh from
 * gm_options_init().
 */
static int apply_exact(struct gm_options *o, const char *text, size_t len)
{
	char *copy = malloc(len ? len : 1);
	int n;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, len);
	gm_options_init(o);
	n = read_apply(o, copy, len, NULL, NULL);
	free(copy);
	return n;
}

static int apply(struct gm_options *o, const char *text)
{
	return apply_exact(o, text, strlen(text));
}

/* Every field the script may set is as gm_options_init() leaves it. */
static void assert_defaults(const struct gm_options *o)
{
	struct gm_options d;

	gm_options_init(&d);
	ck_assert_int_eq(o->email, d.email);
	ck_assert_int_eq(o->maintainers, d.maintainers);
	ck_assert_int_eq(o->keywords, d.keywords);
	ck_assert_int_eq(o->keywords_in_file, 1);	/* 6.1 */
	ck_assert_int_eq(o->file_emails, d.file_emails);
	ck_assert_int_eq(o->git_max_maintainers, d.git_max_maintainers);
	ck_assert_int_eq(o->roles, d.roles);
	ck_assert_int_eq(o->substatus, 0);
	gm_options_release(&d);
}

START_TEST(test_treescript_61_keeps_every_default)
{
	struct gm_options o;

	/* §13.3: no --keywords-in-file is 6.1's behaviour, K: on -f files */
	ck_assert_int_eq(apply(&o, old_script), 0);
	assert_defaults(&o);
	gm_options_release(&o);
	ck_assert_int_eq(apply(&o, ""), 0);
	assert_defaults(&o);
	gm_options_release(&o);
	gm_options_init(&o);
	ck_assert_int_eq(read_apply(&o, NULL, 0, NULL, NULL), 0);
	assert_defaults(&o);
	gm_options_release(&o);
}
END_TEST

START_TEST(test_treescript_new_defaults)
{
	struct gm_options o;

	/* §13.2, §13.3: kf off, substatus undecided (R-06 step 4) */
	ck_assert_int_eq(apply(&o, new_script), 2);
	ck_assert_int_eq(o.keywords_in_file, 0);
	ck_assert_int_eq(o.substatus, -1);
	ck_assert_int_eq(o.keywords, 1);
	ck_assert_int_eq(o.email, 1);
	gm_options_release(&o);
}
END_TEST

/* Lines of Linux's own script, and of the changes that mark later ones. */
#define LINUX_FAMILY \
	"push(@penguin_chief, \"Linus Torvalds:torvalds\\@linux-foundation.org\");\n" \
	"\t&& (-f \"${lk_path}Kbuild\")\n"
#define LINUX_61_ROLES \
	"sub get_maintainer_role {\n" \
	"    } elsif ($role eq \"odd fixes\") {\n" \
	"\t$role = \"odd fixer\";\n"
#define LINUX_NEW_ROLES \
	"sub get_maintainer_role {\n" \
	"    my $role = \"maintainer\";\n"
#define LINUX_KEYWORD \
	"\t    add_categories($line, \":Keyword:$keyword_hash{$line}\");\n"
#define LINUX_UTF8 \
	"\tmy @nw = split(/[^\\p{L}\\'\\,\\.\\+-]/, $name);\n"

struct linux_case {
	const char *text;	/* appended to new_script */
	int changed;		/* beyond the two of new_script */
	int maintainer_roles, keyword_roles, unicode_file_emails;
};

static const struct linux_case linux_cases[] = {
	/* 6.1 itself: the family, none of the changes */
	{ LINUX_FAMILY LINUX_61_ROLES, 0, 0, 0, 0 },
	/* 6.12: :Keyword: and UTF-8 names, still S:-derived roles */
	{ LINUX_FAMILY LINUX_61_ROLES LINUX_KEYWORD LINUX_UTF8, 2, 0, 1, 1 },
	/* 2025 and later: all three */
	{ LINUX_FAMILY LINUX_NEW_ROLES LINUX_KEYWORD LINUX_UTF8, 3, 1, 1, 1 },
	/* not Linux's: the same lines in a fork with another chief */
	{ "push(@penguin_chief, \"Tom RINI:trini\\@konsulko.com\");\n"
	  "\t&& (-f \"${lk_path}Kbuild\")\n"
	  LINUX_NEW_ROLES LINUX_KEYWORD LINUX_UTF8, 0, 0, 0, 0 },
	/* nor without the kernel tree check */
	{ "push(@penguin_chief, \"Linus Torvalds:torvalds\\@linux-foundation.org\");\n"
	  LINUX_NEW_ROLES LINUX_KEYWORD LINUX_UTF8, 0, 0, 0, 0 },
	/* the role change needs the role function to be there */
	{ LINUX_FAMILY LINUX_KEYWORD, 1, 0, 1, 0 },
};

START_TEST(test_treescript_linux_markers)
{
	const struct linux_case *c = &linux_cases[_i];
	struct gm_buf text = GM_BUF_INIT;
	struct gm_options o;

	gm_buf_printf(&text, "%s%s", new_script, c->text);
	ck_assert_int_eq(apply_exact(&o, text.ptr, text.len), 2 + c->changed);
	ck_assert_int_eq(o.maintainer_roles, c->maintainer_roles);
	ck_assert_int_eq(o.keyword_roles, c->keyword_roles);
	ck_assert_int_eq(o.unicode_file_emails, c->unicode_file_emails);
	ck_assert_int_eq(o.keywords_in_file, 0);
	gm_options_release(&o);

	/* one already on (git config, say) is left on and not counted */
	gm_options_init(&o);
	o.keyword_roles = 1;
	ck_assert_int_eq(read_apply(&o, text.ptr, text.len, NULL, NULL),
			 2 + c->changed - c->keyword_roles);
	ck_assert_int_eq(o.keyword_roles, 1);
	gm_options_release(&o);
	gm_buf_release(&text);
}
END_TEST

START_TEST(test_treescript_other_defaults_follow)
{
	static const char text[] =
		"my $email_file_emails = 1;\n"
		"my $email_git_max_maintainers = 3;\n"
		"my $email_maintainer = 1;\n"		/* as 6.1 */
		"my $output_roles = 1;\n"		/* layout: not taken */
		"GetOptions(\n"
		"  \"fe|file-emails!\"=>\\$email_file_emails, "
		"'git-max-maintainers=i' => \\$email_git_max_maintainers,\n"
		"  'm!' => \\$email_maintainer,\n"
		"  'roles!' => \\$output_roles,\n"
		");\n";
	struct gm_options o;

	ck_assert_int_eq(apply(&o, text), 2);
	ck_assert_int_eq(o.file_emails, 1);
	ck_assert_int_eq(o.git_max_maintainers, 3);
	ck_assert_int_eq(o.maintainers, 1);
	ck_assert_int_eq(o.roles, 0);
	gm_options_release(&o);
}
END_TEST

START_TEST(test_treescript_needs_variable_and_option)
{
	static const char no_option[] =
		"my $keywords_in_file = 0;\n"
		"GetOptions(\n\t'k|keywords!' => \\$keywords,\n);\n";
	static const char no_initialiser[] =
		"my $other = 0;\n"
		"GetOptions(\n\t'kf|keywords-in-file!' => \\$keywords_in_file,\n);\n"
		"my $keywords_in_file = 0;\n";		/* after the call */
	static const char in_a_sub[] =
		"sub x {\n    my $keywords_in_file = 0;\n}\n"
		"GetOptions(\n\t'kf|keywords-in-file!' => \\$keywords_in_file,\n);\n";
	static const char only_in_comment[] =
		"my $keywords_in_file = 0;\n"
		"# GetOptions(\n\t'kf|keywords-in-file!' => \\$keywords_in_file,\n";
	static const char undef_switch[] =
		"my $keywords_in_file;\n"
		"GetOptions('kf|keywords-in-file!' => \\$keywords_in_file);\n";
	const char *const texts[] = {
		no_option, no_initialiser, in_a_sub, only_in_comment,
		undef_switch,
	};
	struct gm_options o;

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		ck_assert_msg(apply(&o, texts[i]) == 0, "text %zu", i);
		assert_defaults(&o);
		gm_options_release(&o);
	}
}
END_TEST

START_TEST(test_treescript_initialisers)
{
	static const char *const unknown[] = {
		"$ENV{KF} // 0", "0x0", "\"0\"", "0 if $x", "1_0", "- 0",
		"", "undef", "undefined", "99999999999", "0.5",
	};
	static const char last_wins[] =
		"my $keywords_in_file = 0;\n"
		"my $keywords_in_file = 1;\n"
		"my\t$keywords_in_file\t=\t-0\t; # again\n"
		"GetOptions('kf|keywords-in-file!' => \\$keywords_in_file);\n";
	struct gm_options o;
	char text[256];

	for (size_t i = 0; i < ARRAY_SIZE(unknown); i++) {
		snprintf(text, sizeof(text),
			 "my $keywords_in_file = %s;\n"
			 "GetOptions('kf|keywords-in-file!' => "
			 "\\$keywords_in_file);\n", unknown[i]);
		ck_assert_msg(apply(&o, text) == 0, "%s", text);
		ck_assert_int_eq(o.keywords_in_file, 1);
		gm_options_release(&o);
	}
	ck_assert_int_eq(apply(&o, last_wins), 1);
	ck_assert_int_eq(o.keywords_in_file, 0);
	gm_options_release(&o);

	/* a switch is any number; 2 is on, which 6.1's default already is */
	ck_assert_int_eq(apply(&o, "my $x = 2;\nGetOptions('kf!' => \\$x);"),
			 0);
	ck_assert_int_eq(o.keywords_in_file, 1);
	gm_options_release(&o);
	ck_assert_int_eq(apply(&o, "my $x = -4;\nGetOptions("
			       "'pattern-depth=i' => \\$x);"), 1);
	ck_assert_int_eq(o.pattern_depth, -4);
	gm_options_release(&o);
}
END_TEST

/* Odd and hostile text: never a crash, never an overread, 6.1 kept. */
START_TEST(test_treescript_hostile)
{
	static const char nul_inside[] =
		"my $keywords_in_file = 0\0;\n"
		"GetOptions(\n\t'kf|keywords-in-file!' => \\$keywords_in_file,\n)";
	static const char tail[] = " = 0;\nGetOptions('kf' => \\$kkk);";
	static const char *const texts[] = {
		"GetOptions(",
		"my $keywords_in_file = 0;\nGetOptions(",
		"my $keywords_in_file = 0;\nGetOptions('",
		"my $keywords_in_file = 0;\nGetOptions('kf",
		"my $keywords_in_file = 0;\nGetOptions('kf|keywords-in-file!' =",
		"my $keywords_in_file = 0;\nGetOptions('kf|keywords-in-file!' => \\",
		"my $keywords_in_file = 0;\nGetOptions('kf|keywords-in-file!' => \\$",
		"my $keywords_in_file = 0;\nGetOptions('kf\n' => \\$keywords_in_file);",
		"my $keywords_in_file = 0;\nGetOptions('kf' => \\@keywords_in_file);",
		"my $keywords_in_file = 0;\nGetOptions('kf' => $keywords_in_file);",
		"my $keywords_in_file = 0;\nGetOptions(\n'|||' => \\$keywords_in_file);",
		"my $keywords_in_file = 0;\nGetOptions(\n'' => \\$keywords_in_file);",
		"my $keywords_in_file = 0;\nGetOptions(\n'kfx' => \\$keywords_in_file);",
		("my $keywords_in_file = 0;\nGetOptions();\n"
		 "GetOptions('kf' => \\$keywords_in_file);"),
		"my $keywords_in_file = 0\n;GetOptions('kf' => \\$keywords_in_file);",
		"my $",
		"my",
		"m",
		"\n\n\n",
		"my $keywords_in_file = 0;\r\nGetOptions(\r\n",
	};
	struct gm_options o;
	char *big;
	size_t n = 1 << 20;

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		ck_assert_msg(apply(&o, texts[i]) == 0, "text %zu", i);
		assert_defaults(&o);
		gm_options_release(&o);
	}
	ck_assert_int_eq(apply_exact(&o, nul_inside, sizeof(nul_inside) - 1),
			 0);
	assert_defaults(&o);
	gm_options_release(&o);

	/* a name longer than any variable read; a megabyte of one line */
	big = malloc(n + 64);
	ck_assert_ptr_nonnull(big);
	memcpy(big, "my $", 4);
	memset(big + 4, 'k', n);
	memcpy(big + 4 + n, tail, sizeof(tail) - 1);
	ck_assert_int_eq(apply_exact(&o, big, 4 + n + sizeof(tail) - 1), 0);
	assert_defaults(&o);
	gm_options_release(&o);
	memset(big, 'x', n);
	ck_assert_int_eq(apply_exact(&o, big, n), 0);
	gm_options_release(&o);
	free(big);
}
END_TEST

/* Entries that are not `'spec' => \$var` are stepped over. */
START_TEST(test_treescript_entries_around_odd_ones)
{
	static const char text[] =
		"my $keywords_in_file = 0;\n"
		"my $output_substatus = 1;\n"
		"if (!GetOptions(\n"
		"\t\t# a comment with 'kf' => \\$nothing\n"
		"\t\t'list=s' => \\@list,\n"
		"\t\t'map=s%' => sub { 1 },\n"
		"\t\t'substatus!' => \\$output_substatus,"
		" 'KF|Keywords-In-File!' => \\$keywords_in_file,\n"
		"\t\t)) {\n"
		"}\n";
	struct gm_options o;

	ck_assert_int_eq(apply(&o, text), 2);
	ck_assert_int_eq(o.keywords_in_file, 0);
	ck_assert_int_eq(o.substatus, 1);
	gm_options_release(&o);
}
END_TEST

START_TEST(test_treescript_substatus_decided_by_finish)
{
	struct gm_options o;
	const char *roles[] = { "--rolestats" };
	const char *noemail[] = { "--rolestats", "--noemail", "--scm" };

	/* R-06 step 4: email && roles && standard output is a terminal */
	apply(&o, new_script);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_int_eq(o.substatus, 0);	/* no roles */
	gm_options_release(&o);

	apply(&o, new_script);
	ck_assert_int_eq(gm_options_parse(&o, 1, roles), 0);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_int_eq(o.substatus, isatty(STDOUT_FILENO) ? 1 : 0);
	gm_options_release(&o);

	apply(&o, new_script);
	ck_assert_int_eq(gm_options_parse(&o, 3, noemail), 0);
	ck_assert_int_eq(gm_options_finish(&o), 0);
	ck_assert_int_eq(o.substatus, 0);
	gm_options_release(&o);
}
END_TEST

/* ==================== the tree's copy, and precedence ==================== */

static const struct gm_test_file files_old[] = {
	{ "MAINTAINERS", "BETA\nM:\tB <b@x.org>\nL:\tbeta@x.org\nS:\tMaintained\n"
	  "K:\t\\bbeta_magic\\b\n\nTHE REST\nL:\tall@x.org\nS:\tBuried alive\n"
	  "F:\t*\nF:\t*/\n", 0 },
	{ "lib/k.c", "int beta_magic;\n", 0 },
	{ "scripts/get_maintainer.pl", old_script, GIT_FILEMODE_BLOB_EXECUTABLE },
};

static const struct gm_test_file files_new[] = {
	{ "MAINTAINERS", "BETA\nM:\tB <b@x.org>\nL:\tbeta@x.org\nS:\tMaintained\n"
	  "K:\t\\bbeta_magic\\b\n\nTHE REST\nL:\tall@x.org\nS:\tBuried alive\n"
	  "F:\t*\nF:\t*/\n", 0 },
	{ "lib/k.c", "int beta_magic;\n", 0 },
	{ "scripts/get_maintainer.pl", new_script, GIT_FILEMODE_BLOB_EXECUTABLE },
};

static const struct gm_test_commit two_scripts[] = {
	{ "old script\n", 1700000000, files_old, ARRAY_SIZE(files_old) },
	{ "new script\n", 1700003600, files_new, ARRAY_SIZE(files_new) },
};

static char *repo_dir, *home_dir;
static int saved_cwd = -1;
static char *saved_home;

static void tree_setup(void)
{
	const char *home = getenv("HOME");

	ck_assert_int_eq(gm_test_repo_create(&repo_dir, NULL, two_scripts,
					     ARRAY_SIZE(two_scripts)), 0);
	home_dir = gm_test_tmpdir();
	ck_assert_ptr_nonnull(home_dir);
	saved_cwd = open(".", O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(saved_cwd, 0);
	saved_home = home ? strdup(home) : NULL;
	setenv("HOME", home_dir, 1);	/* no $HOME/.get_maintainer.conf */
	ck_assert_int_eq(chdir(repo_dir), 0);
}

static void tree_teardown(void)
{
	if (saved_cwd >= 0 && fchdir(saved_cwd) < 0)
		perror("fchdir");
	if (saved_cwd >= 0)
		close(saved_cwd);
	saved_cwd = -1;
	if (saved_home)
		setenv("HOME", saved_home, 1);
	else
		unsetenv("HOME");
	free(saved_home);
	saved_home = NULL;
	gm_test_rmtree(repo_dir);
	gm_test_rmtree(home_dir);
	repo_dir = home_dir = NULL;
}

static void set_config(const char *key, int value)
{
	git_repository *repo = NULL;
	git_config *cfg = NULL;

	ck_assert_int_eq(git_repository_open(&repo, repo_dir), 0);
	ck_assert_int_eq(git_repository_config(&cfg, repo), 0);
	if (value < 0)
		git_config_delete_entry(cfg, key);
	else
		ck_assert_int_eq(git_config_set_bool(cfg, key, value), 0);
	git_config_free(cfg);
	git_repository_free(repo);
}

/* keywords_in_file as gm_config_load() decides it at `rev` for `argv`. */
static int kf_at(const char *rev, int argc, const char **argv)
{
	struct gm_options o;
	struct gm_repo *r = NULL;
	int kf;

	gm_options_init(&o);
	ck_assert_msg(gm_test_repo_open(&r, rev) == 0, "%s", gm_error_last());
	ck_assert_msg(gm_config_load(&o, r, argc, argv) == 0, "%s",
		      gm_error_last());
	kf = o.keywords_in_file;
	gm_options_release(&o);
	gm_repo_free(r);
	return kf;
}

START_TEST(test_treescript_load_follows_the_commit)
{
	struct gm_options o;
	struct gm_repo *r = NULL;

	/* HEAD's script, not the work tree's copy: that one is made old */
	ck_assert_int_eq(gm_test_write_file(repo_dir,
					    "scripts/get_maintainer.pl",
					    old_script), 0);
	gm_options_init(&o);
	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	ck_assert_int_eq(gm_config_treescript(&o, r, NULL), 2);
	ck_assert_int_eq(o.keywords_in_file, 0);
	gm_repo_free(r);
	gm_options_release(&o);

	ck_assert_int_eq(kf_at(NULL, 0, NULL), 0);
	ck_assert_int_eq(kf_at("HEAD~1", 0, NULL), 1);
}
END_TEST


START_TEST(test_treescript_precedence)
{
	static const char *const kf[] = { "--kf" };
	static const char *const kiff[] = { "--keywords-in-file" };
	static const char *const nokf[] = { "--nokf" };
	static const char *const no_kiff[] = { "--no-keywords-in-file" };

	/* argv > .get_maintainer.conf > git config > the script > 6.1 */
	ck_assert_int_eq(kf_at(NULL, 0, NULL), 0);
	ck_assert_int_eq(kf_at(NULL, 1, (const char **)kf), 1);
	ck_assert_int_eq(kf_at(NULL, 1, (const char **)kiff), 1);
	ck_assert_int_eq(kf_at("HEAD~1", 1, (const char **)nokf), 0);
	ck_assert_int_eq(kf_at("HEAD~1", 1, (const char **)no_kiff), 0);

	set_config("maintainer.keywordsInFile", 1);
	ck_assert_int_eq(kf_at(NULL, 0, NULL), 1);
	ck_assert_int_eq(kf_at(NULL, 1, (const char **)nokf), 0);
	set_config("maintainer.keywordsInFile", 0);
	ck_assert_int_eq(kf_at("HEAD~1", 0, NULL), 0);
	ck_assert_int_eq(kf_at("HEAD~1", 1, (const char **)kf), 1);

	/* the conf file in $HOME (the tree has none) beats git config */
	ck_assert_int_eq(gm_test_write_file(home_dir, ".get_maintainer.conf",
					    "--kf\n"), 0);
	ck_assert_int_eq(kf_at(NULL, 0, NULL), 1);
	ck_assert_int_eq(kf_at(NULL, 1, (const char **)nokf), 0);
}
END_TEST

/* The binary, one -f run and one --batch run, on the same tree. */
START_TEST(test_treescript_cli_and_batch)
{
	static const char *const plain[] = { "-f", "lib/k.c", NULL };
	static const char *const kf[] = { "--kf", "-f", "lib/k.c", NULL };
	static const char *const old[] = { "--rev", "HEAD~1", "-f", "lib/k.c",
					   NULL };
	static const char *const batch[] = { "--batch", NULL };
	static const char *const batch_kf[] = { "--batch", "--kf", NULL };
	struct gm_test_run r;

	ck_assert_int_eq(gm_test_run_binary(&r, repo_dir, home_dir, NULL, NULL,
					    plain), 0);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "all@x.org\n");
	gm_test_run_release(&r);

	ck_assert_int_eq(gm_test_run_binary(&r, repo_dir, home_dir, NULL, NULL,
					    kf), 0);
	ck_assert_str_eq(r.out, "B <b@x.org>\nall@x.org\nbeta@x.org\n");
	gm_test_run_release(&r);

	ck_assert_int_eq(gm_test_run_binary(&r, repo_dir, home_dir, NULL, NULL,
					    old), 0);
	ck_assert_str_eq(r.out, "B <b@x.org>\nall@x.org\nbeta@x.org\n");
	gm_test_run_release(&r);

	ck_assert_int_eq(gm_test_run_binary(&r, repo_dir, home_dir, NULL,
					    "lib/k.c\n", batch), 0);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "lib/k.c\tall@x.org\n");
	gm_test_run_release(&r);

	ck_assert_int_eq(gm_test_run_binary(&r, repo_dir, home_dir, NULL,
					    "lib/k.c\n", batch_kf), 0);
	ck_assert_str_eq(r.out, "lib/k.c\tB <b@x.org>\nlib/k.c\tall@x.org\n"
			 "lib/k.c\tbeta@x.org\n");
	gm_test_run_release(&r);
}
END_TEST

/* ==================== families, penguins, forks ==================== */

#define FORK_TAIL \
	"\t\t)) {\n" \
	"    die \"$P: invalid argument - use --help if necessary\\n\";\n" \
	"}\n"

static const char linux61_script[] =
	"#!/usr/bin/env perl\n"
	"my $V = '0.26';\n"
	"my $email_git_fallback = 1;\n"
	"my $email_remove_duplicates = 1;\n"
	"my $output_rolestats = 1;\n"
	"my @penguin_chief = ();\n"
	"push(@penguin_chief, \"Linus Torvalds:torvalds\\@linux-foundation.org\");\n"
	"#push(@penguin_chief, \"Andrew Morton:akpm\\@linux-foundation.org\");\n"
	"if (!GetOptions(\n"
	"\t\t'git-fallback!' => \\$email_git_fallback,\n"
	"\t\t'remove-duplicates!' => \\$email_remove_duplicates,\n"
	"\t\t'rolestats!' => \\$output_rolestats,\n"
	FORK_TAIL;

static const char linux_script[] =
	"#!/usr/bin/env perl\n"
	"my $V = '0.26';\n"
	"my $email_git_fallback = 1;\n"
	"my $output_substatus = undef;\n"
	"my @penguin_chief = ();\n"
	"push(@penguin_chief, \"Linus Torvalds:torvalds\\@linux-foundation.org\");\n"
	"if (!GetOptions(\n"
	"\t\t'git-fallback!' => \\$email_git_fallback,\n"
	"\t\t'substatus!' => \\$output_substatus,\n"
	FORK_TAIL;

static const char uboot_script[] =
	"#!/usr/bin/env perl\n"
	"my $V = '0.26';\n"
	"my $email_git_fallback = 1;\n"
	"my @penguin_chief = ();\n"
	"push(@penguin_chief, \"Tom RINI:trini\\@konsulko.com\");\n"
	"if (!GetOptions(\n"
	"\t\t'git-fallback!' => \\$email_git_fallback,\n"
	FORK_TAIL
	"die \"$P: The current directory does not appear to be \"\n"
	"\t. \"a U-Boot source tree.\\n\";\n";

static const char xen_script[] =
	"#!/usr/bin/perl -w\n"
	"my $V = '0.26-xen';\n"
	"my $email_git_fallback = 0;\n"
	"my $email_remove_duplicates = 0;\n"
	"my $drop_rest = 1;\n"
	"my $output_rolestats = 0;\n"
	"my @penguin_chief = ();\n"
	"push(@penguin_chief, \"Linus Torvalds:torvalds\\@linux-foundation.org\");\n"
	"if (!GetOptions(\n"
	"\t\t'git-fallback!' => \\$email_git_fallback,\n"
	"\t\t'remove-duplicates!' => \\$email_remove_duplicates,\n"
	"\t\t'drop_the_rest_supporter!' => \\$drop_rest,\n"
	"\t\t'rolestats!' => \\$output_rolestats,\n"
	FORK_TAIL;

START_TEST(test_treescript_family)
{
	static const struct {
		const char *text;
		enum gm_ts_family family;
		size_t line;
	} cases[] = {
		{ linux61_script, GM_TS_LINUX61, 2 },
		{ linux_script, GM_TS_LINUX, 9 },
		{ uboot_script, GM_TS_UBOOT, 12 },
		{ xen_script, GM_TS_XEN, 2 },
		{ old_script, GM_TS_UNKNOWN, 0 },	/* no $V, no penguin */
		{ "", GM_TS_UNKNOWN, 0 },
		/* a version that only ends "-xen" somewhere else */
		{ "my $V = '0.26';\n# '0.26-xen'\n", GM_TS_UNKNOWN, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct gm_treescript ts = GM_TREESCRIPT_INIT;
		int f = gm_treescript_read(&ts, cases[i].text,
					   strlen(cases[i].text), "s");

		ck_assert_msg(f == (int)cases[i].family, "case %zu: family %d",
			      i, f);
		ck_assert_int_eq(ts.family, cases[i].family);
		ck_assert_uint_eq(ts.family_line, cases[i].line);
		/* the family's name, as the first note gives it */
		if (cases[i].family == GM_TS_XEN)
			ck_assert_str_eq(ts.notes.v[0], "s:2: family Xen");
		if (cases[i].family == GM_TS_UBOOT)
			ck_assert_str_eq(ts.notes.v[0], "s:12: family u-boot");
		gm_treescript_release(&ts);
	}
}
END_TEST

/* The chief penguins gm_treescript_read() finds in `text[0..len)`. */
static size_t penguins_of(struct gm_treescript *ts, const char *text,
			  size_t len)
{
	gm_treescript_release(ts);
	ck_assert_int_ge(gm_treescript_read(ts, text, len, "s"), 0);
	return ts->penguins.nr;
}

START_TEST(test_treescript_penguins)
{
	struct gm_treescript ts = GM_TREESCRIPT_INIT;

	/* the commented-out Andrew Morton is no penguin */
	ck_assert_uint_eq(penguins_of(&ts, linux61_script,
				      strlen(linux61_script)), 1);
	ck_assert_str_eq(ts.penguins.v[0],
			 "Linus Torvalds:torvalds@linux-foundation.org");
	ck_assert_uint_eq(ts.penguins_line, 7);
	ck_assert_uint_eq(penguins_of(&ts, uboot_script,
				      strlen(uboot_script)), 1);
	ck_assert_str_eq(ts.penguins.v[0], "Tom RINI:trini@konsulko.com");
	ck_assert_uint_eq(ts.penguins_line, 5);
	/* no colon, no closing parenthesis, indented: not read */
	ck_assert_uint_eq(penguins_of(&ts,
		"push(@penguin_chief, \"No Colon\");\n"
		"push(@penguin_chief, \"A:b@c\"\n"
		" push(@penguin_chief, \"A:b@c\");\n", 90), 0);
	ck_assert_uint_eq(ts.penguins_line, 0);
	gm_treescript_release(&ts);
}
END_TEST

/* read_apply() on fresh options. @return the family. */
static int fork_on(struct gm_options *o, const char *text,
		   struct gm_strvec *notes)
{
	int family = -1;

	gm_options_init(o);
	read_apply(o, text, strlen(text), notes, &family);
	return family;
}

START_TEST(test_treescript_fork_fallback_and_penguins)
{
	struct gm_strvec notes = GM_STRVEC_INIT;
	struct gm_options o;
	char *joined;

	/* the tool alone has the fallback off; 6.1's script has it on */
	gm_options_init(&o);
	ck_assert_int_eq(o.git_fallback, 0);
	gm_options_release(&o);
	ck_assert_int_eq(fork_on(&o, linux61_script, &notes), GM_TS_LINUX61);
	ck_assert_int_eq(o.git_fallback, 1);
	ck_assert_int_eq(o.rolestats, 0);	/* layout: not followed */
	ck_assert_uint_eq(o.penguins.nr, 1);
	ck_assert_int_eq(o.drop_rest_supporter, 0);
	joined = gm_test_join(&notes, "\n");
	ck_assert_msg(strstr(joined, "s.pl:2: family Linux 6.1\n"), "%s", joined);
	ck_assert_msg(strstr(joined, "s.pl:3: --git-fallback default 1\n"),
		      "%s", joined);
	ck_assert_msg(strstr(joined, "s.pl:5: --rolestats default 1 (not "),
		      "%s", joined);
	ck_assert_msg(strstr(joined, "s.pl:7: chief penguin Linus Torvalds:"),
		      "%s", joined);
	free(joined);
	gm_strvec_release(&notes);
	gm_options_release(&o);

	/* a script without the option: no fallback */
	ck_assert_int_eq(fork_on(&o, old_script, NULL), GM_TS_UNKNOWN);
	ck_assert_int_eq(o.git_fallback, 0);
	ck_assert_uint_eq(o.penguins.nr, 0);
	gm_options_release(&o);

	/* declared without a value: undef, off */
	ck_assert_int_eq(fork_on(&o, "my $f;\nGetOptions(\n"
				 "'git-fallback!' => \\$f,\n);\n", NULL),
			 GM_TS_UNKNOWN);
	ck_assert_int_eq(o.git_fallback, 0);
	gm_options_release(&o);

	/* an initialiser not understood: 6.1's, on */
	ck_assert_int_eq(fork_on(&o, "my $f = $x + 1;\nGetOptions(\n"
				 "'git-fallback!' => \\$f,\n);\n", NULL),
			 GM_TS_UNKNOWN);
	ck_assert_int_eq(o.git_fallback, 1);
	gm_options_release(&o);

	ck_assert_int_eq(fork_on(&o, uboot_script, NULL), GM_TS_UBOOT);
	ck_assert_int_eq(o.git_fallback, 1);
	ck_assert_uint_eq(o.penguins.nr, 1);
	ck_assert_str_eq(o.penguins.v[0], "Tom RINI:trini@konsulko.com");
	ck_assert_int_eq(o.reviewer_section, 1);
	gm_options_release(&o);
}
END_TEST

START_TEST(test_treescript_fork_xen)
{
	struct gm_strvec notes = GM_STRVEC_INIT;
	struct gm_options o;
	char *joined;

	ck_assert_int_eq(fork_on(&o, xen_script, &notes), GM_TS_XEN);
	ck_assert_int_eq(o.git_fallback, 0);
	ck_assert_int_eq(o.drop_rest_supporter, 1);
	ck_assert_int_eq(o.brace_patterns, 1);
	ck_assert_int_eq(o.reviewer_section, 0);
	ck_assert_int_eq(o.section_name_max, 20);
	ck_assert_int_eq(o.named_lists, 1);
	ck_assert_int_eq(o.patch_dev_null, 0);
	ck_assert_int_eq(o.git_author_roles, 0);
	ck_assert_int_eq(o.fixes, 0);
	ck_assert_int_eq(o.tracked_paths, 0);
	joined = gm_test_join(&notes, "\n");
	ck_assert_msg(strstr(joined, "s.pl:2: family Xen\n"), "%s", joined);
	ck_assert_msg(strstr(joined, "s.pl:3: --git-fallback default 0\n"),
		      "%s", joined);
	ck_assert_msg(strstr(joined, "s.pl: no --fixes\n"), "%s", joined);
	free(joined);
	gm_strvec_release(&notes);
	gm_options_release(&o);

	/* the duplicates: an option default, from the same text */
	ck_assert_int_eq(o.remove_duplicates, 0);
	gm_options_release(&o);
}
END_TEST

/* ts's setting of `option`: set or not, and if so to `value` at `line`. */
static void assert_setting(const struct gm_treescript *ts, const char *option,
			   bool set, int value, size_t line)
{
	const struct gm_ts_setting *st = NULL;

	for (size_t i = 0; i < ts->nr_settings; i++)
		if (!strcmp(ts->settings[i].option, option))
			st = &ts->settings[i];
	ck_assert_msg((st != NULL) == set, "%s: set %d", option, st != NULL);
	if (!set)
		return;
	ck_assert_msg(st->value == value, "%s: value %d", option, st->value);
	ck_assert_msg(st->line == line, "%s: line %zu", option, st->line);
}

/* What gm_treescript_read() found, and on which line, without options. */
START_TEST(test_treescript_read_settings)
{
	struct gm_treescript ts = GM_TREESCRIPT_INIT;
	struct gm_buf text = GM_BUF_INIT;

	/* new_script: kf off on line 10, substatus undef on line 11 */
	ck_assert_int_eq(gm_treescript_read(&ts, new_script,
					    strlen(new_script), "s.pl"),
			 GM_TS_UNKNOWN);
	assert_setting(&ts, "keywords-in-file", true, 0, 10);
	assert_setting(&ts, "substatus", true, -1, 11);
	assert_setting(&ts, "keywords", false, 0, 0);	/* as 6.1 */
	assert_setting(&ts, "git-fallback", true, 0, 0);	/* none */
	assert_setting(&ts, "drop-the-rest-supporter", false, 0, 0);
	ck_assert_uint_eq(ts.penguins.nr, 0);
	ck_assert_str_eq(ts.notes.v[0], "s.pl:0: family unknown (taken as "
			 "Linux 6.1)");
	gm_treescript_release(&ts);

	/* Xen: the family's line tells its behaviours; its own defaults */
	ck_assert_int_eq(gm_treescript_read(&ts, xen_script,
					    strlen(xen_script), "s.pl"),
			 GM_TS_XEN);
	ck_assert_uint_eq(ts.family_line, 2);
	assert_setting(&ts, "git-fallback", true, 0, 3);
	assert_setting(&ts, "remove-duplicates", true, 0, 4);
	assert_setting(&ts, "drop-the-rest-supporter", true, 1, 2);
	assert_setting(&ts, "section-name-max", true, 20, 2);
	assert_setting(&ts, "reviewer-section", true, 0, 2);
	assert_setting(&ts, "fixes", true, 0, 2);
	assert_setting(&ts, "moderated", false, 0, 0);
	ck_assert_uint_eq(ts.penguins.nr, 1);
	ck_assert_uint_eq(ts.penguins_line, 8);
	gm_treescript_release(&ts);

	/* a later Linux script: each behaviour at the line of its change */
	gm_buf_printf(&text, "%s%s", new_script,
		      LINUX_FAMILY LINUX_NEW_ROLES LINUX_KEYWORD LINUX_UTF8);
	ck_assert_int_eq(gm_treescript_read(&ts, text.ptr, text.len, "s.pl"),
			 GM_TS_UNKNOWN);
	assert_setting(&ts, "maintainer-roles", true, 1, 30);
	assert_setting(&ts, "keyword-roles", true, 1, 32);
	assert_setting(&ts, "unicode-file-emails", true, 1, 33);
	gm_treescript_release(&ts);
	gm_treescript_release(NULL);
	gm_buf_release(&text);
}
END_TEST

/*
 * A script's fallback condition with or without 6.1's clause for
 * *MAINTAINERS: only without it is --git-fallback-maintainers set, at
 * the condition's line.
 */
START_TEST(test_treescript_fallback_maintainers)
{
	static const char head[] =
		"my $email_git_fallback = 1;\n"
		"if (!GetOptions(\n"
		"\t\t'git-fallback!' => \\$email_git_fallback,\n"
		FORK_TAIL
		"\tif ($email_git ||\n"
		"\t    ($email_git_fallback &&\n";
	static const char clause[] = "\t     $file !~ /MAINTAINERS$/ &&\n";
	static const char tail[] = "\t     !$exact_pattern_match_hash{$file})) {\n"
				   "\t    vcs_file_signoffs($file);\n";
	struct gm_treescript ts = GM_TREESCRIPT_INIT;
	struct gm_buf text = GM_BUF_INIT;
	struct gm_options o;

	for (int with = 0; with < 2; with++) {	/* without the clause, with it */
		gm_buf_reset(&text);
		ck_assert_int_eq(gm_buf_printf(&text, "%s%s%s", head,
					       with ? clause : "", tail), 0);
		ck_assert_int_ge(gm_treescript_read(&ts, text.ptr, text.len,
						    "s.pl"), 0);
		assert_setting(&ts, "git-fallback-maintainers", !with,
			       !with, with ? 0 : 8);
		gm_treescript_release(&ts);
		apply_exact(&o, text.ptr, text.len);
		ck_assert_int_eq(o.git_fallback_maintainers, !with);
		gm_options_release(&o);
	}

	/* no fallback condition at all: 6.1's */
	ck_assert_int_ge(gm_treescript_read(&ts, linux61_script,
					    strlen(linux61_script), "s.pl"), 0);
	assert_setting(&ts, "git-fallback-maintainers", false, 0, 0);
	gm_treescript_release(&ts);
	gm_buf_release(&text);
}
END_TEST

/* Each setting lands in the field of gm_options named after it. */
START_TEST(test_treescript_apply_fields)
{
	struct gm_treescript ts = GM_TREESCRIPT_INIT;
	struct gm_options o;
	static const char *const names[] = {
		"email", "s", "kf", "git-min-percent", "substatus",
		"keyword-roles", "git-fallback", "drop-the-rest-supporter",
		"section-name-max", "tracked-paths", "no-such-option",
	};
	const int *fields[] = {
		&o.email, &o.subscriber_lists, &o.keywords_in_file,
		&o.git_min_percent, &o.substatus, &o.keyword_roles,
		&o.git_fallback, &o.drop_rest_supporter, &o.section_name_max,
		&o.tracked_paths, NULL,
	};
	const size_t nr = sizeof(names) / sizeof(*names);

	gm_options_init(&o);
	/* none set: nothing changes */
	ck_assert_int_eq(gm_config_treescript_apply(&o, &ts), 0);
	for (size_t i = 0; i < nr; i++)
		ts.settings[i] = (struct gm_ts_setting){ names[i],
							 1000 + (int)i, 0 };
	ts.nr_settings = nr;
	ts.settings[0].value = o.email;	/* as it is: not counted */
	/* nor is the name no option has */
	ck_assert_int_eq(gm_config_treescript_apply(&o, &ts), (int)nr - 2);
	for (size_t i = 0; i + 1 < nr; i++)
		ck_assert_msg(*fields[i] == ts.settings[i].value, "%s: %d",
			      names[i], *fields[i]);
	/* the penguins replace the tool's, a copy of the script's */
	ck_assert_int_eq(gm_strvec_push(&ts.penguins, "A B:a@b"), 0);
	gm_config_treescript_apply(&o, &ts);
	gm_treescript_release(&ts);
	ck_assert_uint_eq(o.penguins.nr, 1);
	ck_assert_str_eq(o.penguins.v[0], "A B:a@b");
	gm_options_release(&o);
}
END_TEST

START_TEST(test_treescript_penguin_tests)
{
	static const char *const argv[] = { "--git-chief-penguins" };
	struct gm_options o;
	struct gm_rank_settings s = { .penguins = &o.penguins };
	struct gm_rank_settings none = { .penguins = NULL };	/* Linux's */

	gm_options_init(&o);
	ck_assert_int_eq(gm_strvec_push(&o.penguins,
					"Tom RINI:trini@konsulko.com"), 0);
	/* signatures: the name, any ASCII case */
	ck_assert(gm_rank_is_penguin_line(&s,
		"Signed-off-by: Tom Rini <trini@konsulko.com>", 44));
	ck_assert(!gm_rank_is_penguin_line(&s,
		"Signed-off-by: Linus Torvalds <torvalds@x.org>", 46));
	ck_assert(gm_rank_is_penguin_line(NULL,
		"Signed-off-by: Linus Torvalds <torvalds@x.org>", 46));
	ck_assert(gm_rank_is_penguin_line(&none,
		"Signed-off-by: Linus Torvalds <torvalds@x.org>", 46));
	ck_assert(!gm_rank_is_penguin_line(&none,
		"Signed-off-by: Tom Rini <trini@konsulko.com>", 44));
	/* entries: "Tom RINI <trini@konsulko.com>" as written, '.' any */
	ck_assert(!gm_test_dropped_as_penguin(&s,
		"Tom Rini <trini@konsulko.com>", 1));
	ck_assert(gm_test_dropped_as_penguin(&s,
		"x Tom RINI <trini@konsulkoXcom>", 1));
	ck_assert(gm_test_dropped_as_penguin(&s,
		"Tom Rini <trini@konsulko.com>", 0));
	ck_assert(!gm_test_dropped_as_penguin(&s,
		"Linus Torvalds <torvalds@linux-foundation.org>", 1));
	ck_assert_int_eq(gm_options_parse(&o, 1, (const char **)argv), 0);
	gm_options_release(&o);
}
END_TEST

/* The binary in a tree with a fork's script. */
static const struct gm_test_file files_xen[] = {
	{ "MAINTAINERS",
	  "X86\nM:\tJan <jan@x.org>\nR:\tRev <rev@x.org>\n"
	  "L:\tTeam Name <team@x.org>\nS:\tSupported\nF:\tarch/x86/\n"
	  "F:\tlib/{kexec,kimage}.c\n\n"
	  "A VERY LONG SECTION NAME INDEED\nM:\tLong <long@x.org>\n"
	  "S:\tSupported\nF:\tdrivers/\n\n"
	  "THE REST\nM:\tRest <rest@x.org>\nM:\tJan <jan@x.org>\n"
	  "L:\tdevel@x.org\nS:\tSupported\nF:\t*\nF:\t*/\n"
	  "V:\txen-maintainers-1\n", 0 },
	{ "arch/x86/a.c", "a\n", 0 },
	{ "lib/kexec.c", "k\n", 0 },
	{ "drivers/d.c", "d\n", 0 },
	{ "README", "r\n", 0 },
	{ "scripts/get_maintainer.pl", xen_script, GIT_FILEMODE_BLOB_EXECUTABLE },
};

static const struct gm_test_commit xen_commits[] = {
	{ "xen\n", 1700000000, files_xen, ARRAY_SIZE(files_xen) },
};

static const struct gm_test_file files_uboot1[] = {
	{ "MAINTAINERS",
	  "DRIVERS\nM:\tAnn <ann@x.org>\nS:\tOdd Fixes\nF:\tdrivers/\n\n"
	  "THE REST\nM:\tTom Rini <trini@konsulko.com>\nL:\tu-boot@x.org\n"
	  "S:\tMaintained\nF:\t*\nF:\t*/\n", 0 },
	{ "drivers/d.c", "d\n", 0 },
	{ "scripts/get_maintainer.pl", uboot_script,
	  GIT_FILEMODE_BLOB_EXECUTABLE },
};

static const struct gm_test_file files_uboot2[] = {
	{ "MAINTAINERS",
	  "DRIVERS\nM:\tAnn <ann@x.org>\nS:\tOdd Fixes\nF:\tdrivers/\n\n"
	  "THE REST\nM:\tTom Rini <trini@konsulko.com>\nL:\tu-boot@x.org\n"
	  "S:\tMaintained\nF:\t*\nF:\t*/\n", 0 },
	{ "drivers/d.c", "d\ne\n", 0 },
	{ "scripts/get_maintainer.pl", uboot_script,
	  GIT_FILEMODE_BLOB_EXECUTABLE },
};

static const struct gm_test_commit uboot_commits[] = {
	{ "start\n", 1700000000, files_uboot1, ARRAY_SIZE(files_uboot1) },
	{ "change\n\nSigned-off-by: Bob <bob@x.org>\n"
	  "Signed-off-by: Tom Rini <trini@konsulko.com>\n", 1700003600,
	  files_uboot2, ARRAY_SIZE(files_uboot2) },
};

static char *fork_dir, *fork_home;

static void fork_setup(const struct gm_test_commit *c, size_t nr)
{
	ck_assert_int_eq(gm_test_repo_create(&fork_dir, NULL, c, nr), 0);
	fork_home = gm_test_tmpdir();
	ck_assert_ptr_nonnull(fork_home);
}

static void fork_teardown(void)
{
	gm_test_rmtree(fork_dir);
	gm_test_rmtree(fork_home);
	fork_dir = fork_home = NULL;
}

/* stdout of the binary in the fork's tree, which must exit 0. */
static char *fork_out(const char *const *args, char **err)
{
	struct gm_test_run r;
	char *out;

	ck_assert_int_eq(gm_test_run_binary(&r, fork_dir, fork_home, NULL,
					    NULL, args), 0);
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	out = r.out;
	r.out = NULL;
	if (err) {
		*err = r.err;
		r.err = NULL;
	}
	gm_test_run_release(&r);
	return out;
}

#define CHECK_OUT(expected, ...) do { \
	static const char *const a_[] = { __VA_ARGS__, NULL }; \
	char *o_ = fork_out(a_, NULL); \
	ck_assert_str_eq(o_, expected); \
	free(o_); \
} while (0)

/* Each expected answer is what Xen's 0.26-xen script prints there. */
START_TEST(test_treescript_xen_tree)
{
	static const char *const verbose[] = { "--verbose", "-f", "README",
					       NULL };
	char *out, *err = NULL;

	fork_setup(xen_commits, ARRAY_SIZE(xen_commits));
	/* THE REST's supporters dropped; the L: name ignored */
	CHECK_OUT("Jan <jan@x.org>\nRev <rev@x.org>\nteam@x.org\ndevel@x.org\n",
		  "-f", "arch/x86/a.c");
	CHECK_OUT("Jan <jan@x.org> (supporter:X86)\nRev <rev@x.org> (reviewer)\n"
		  "team@x.org (open list:X86)\ndevel@x.org (open list)\n",
		  "--rolestats", "-f", "arch/x86/a.c");
	/* lib/{kexec,kimage}.c */
	CHECK_OUT("Jan <jan@x.org>\nRev <rev@x.org>\nteam@x.org\ndevel@x.org\n",
		  "-f", "lib/kexec.c");
	/* a file of THE REST's alone, in the set: nobody dropped */
	CHECK_OUT("Rest <rest@x.org>\nJan <jan@x.org>\ndevel@x.org\n",
		  "-f", "README");
	CHECK_OUT("Jan <jan@x.org>\nRev <rev@x.org>\nRest <rest@x.org>\n"
		  "team@x.org\ndevel@x.org\n", "-f", "arch/x86/a.c", "README");
	CHECK_OUT("Long <long@x.org> (supporter:A VERY LONG SECTI...)\n"
		  "devel@x.org (open list)\n", "--roles", "-f", "drivers/d.c");
	/* the command line over the family */
	CHECK_OUT("Jan <jan@x.org>\nRev <rev@x.org>\nRest <rest@x.org>\n"
		  "team@x.org\ndevel@x.org\n", "--nodrop_the_rest_supporter",
		  "-f", "arch/x86/a.c");
	CHECK_OUT("Long <long@x.org> (supporter:A VERY LONG SECTION NAME "
		  "INDEED)\ndevel@x.org (open list)\n", "--roles",
		  "--section-name-max=0", "-f", "drivers/d.c");
	/* 6.1's L: address "Team" is no address: dropped with a warning */
	CHECK_OUT("Jan <jan@x.org> (supporter:X86)\n"
		  "Rev <rev@x.org> (reviewer:X86)\ndevel@x.org (open list)\n",
		  "--rolestats", "--reviewer-section", "--nonamed-lists",
		  "-f", "arch/x86/a.c");
	CHECK_OUT("devel@x.org\n", "--nobrace-patterns", "--nom", "-f",
		  "lib/kexec.c");
	/* without -f a file is a patch, here one of no file */
	CHECK_OUT("", "arch/x86/a.c");
	CHECK_OUT("Jan <jan@x.org>\nRev <rev@x.org>\nteam@x.org\ndevel@x.org\n",
		  "--tracked-paths", "arch/x86/a.c");
	out = fork_out(verbose, &err);
	ck_assert_msg(strstr(err, "git-maintainer: scripts/get_maintainer.pl:2:"
			     " family Xen\n"), "%s", err);
	free(out);
	free(err);
	fork_teardown();
}
END_TEST

/* The default path: HEAD's blob only, never a work tree file. */
START_TEST(test_treescript_worktree_script_ignored)
{
	static const char *const args[] = { "--verbose", "-f", "arch/x86/a.c",
					    NULL };
	struct gm_test_run r;

	/* the Xen tree's commit without its script, which the work tree has */
	static const struct gm_test_commit no_script[] = {
		{ "xen\n", 1700000000, files_xen, ARRAY_SIZE(files_xen) - 1 },
	};

	fork_setup(no_script, ARRAY_SIZE(no_script));
	ck_assert_int_eq(gm_test_write_file(fork_dir,
					    "scripts/get_maintainer.pl",
					    xen_script), 0);
	ck_assert_int_eq(gm_test_run_binary(&r, fork_dir, fork_home, NULL,
					    NULL, args), 0);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.err, "scripts/get_maintainer.pl: no such script"),
		      "%s", r.err);
	/* 6.1: THE REST's people stay */
	ck_assert_str_eq(r.out, "Jan <jan@x.org>\nRev <rev@x.org>\n"
			 "Rest <rest@x.org>\ndevel@x.org\n");
	gm_test_run_release(&r);
	fork_teardown();
}
END_TEST

/* What u-boot's script prints there, apart from its --rolestats. */
START_TEST(test_treescript_uboot_penguin)
{
	char *out;
	static const char *const plain[] = { "--rolestats", "--git-since=2000-01-01",
					     "-f", "drivers/d.c", NULL };
	static const char *const chief[] = { "--rolestats", "--git-since=2000-01-01",
					     "--git-chief-penguins", "-f",
					     "drivers/d.c", NULL };

	fork_setup(uboot_commits, ARRAY_SIZE(uboot_commits));
	/* the fallback is on; his signature is not counted; he stays */
	out = fork_out(plain, NULL);
	ck_assert_msg(strstr(out, "Tom Rini <trini@konsulko.com> "
			     "(maintainer:THE REST)\n"), "%s", out);
	ck_assert_msg(strstr(out, "Bob <bob@x.org> (commit_signer:1/2=50%)\n"),
		      "%s", out);
	ck_assert_msg(!strstr(out, "RINI"), "%s", out);
	free(out);
	out = fork_out(chief, NULL);
	ck_assert_msg(strstr(out, "Tom Rini <trini@konsulko.com> "
			     "(maintainer:THE REST,commit_signer:1/2=50%)\n"),
		      "%s", out);
	ck_assert_msg(strstr(out, "Tom RINI <trini@konsulko.com> "
			     "(chief penguin)\nu-boot@x.org"), "%s", out);
	free(out);
	/* the script's regex on the address alone drops him */
	CHECK_OUT("ann@x.org\nbob@x.org\n", "--non", "--nogit-fallback",
		  "--git", "--git-since=2000-01-01", "--nogit-author-roles",
		  "--nol", "-f", "drivers/d.c");
	fork_teardown();
}
END_TEST

/* maintainer.script: a path in the tree, else a file; never the work tree's */
START_TEST(test_treescript_load_named_script)
{
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	struct gm_strvec notes = GM_STRVEC_INIT;
	struct gm_options o;
	struct gm_repo *r = NULL;
	char path[4096], *joined;

	/* the tree's path, named: HEAD's script (6.1-like), not Xen's */
	ck_assert_int_eq(gm_test_write_file(repo_dir, "scripts/get_maintainer.pl",
					    xen_script), 0);
	ck_assert_int_eq(gm_test_write_file(repo_dir, "scripts/xen.pl",
					    xen_script), 0);
	ck_assert_int_eq(git_repository_open(&repo, repo_dir), 0);
	ck_assert_int_eq(git_repository_config(&cfg, repo), 0);
	ck_assert_int_eq(git_config_set_string(cfg, "maintainer.script",
					       "scripts/get_maintainer.pl"), 0);
	gm_options_init(&o);
	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	gm_config_treescript(&o, r, &notes);
	ck_assert_int_eq(o.drop_rest_supporter, 0);
	gm_repo_free(r);
	gm_options_release(&o);
	gm_strvec_release(&notes);

	/* a named file outside the tree is read */
	ck_assert_int_lt(snprintf(path, sizeof(path), "%s/scripts/xen.pl",
				  repo_dir), (int)sizeof(path));
	ck_assert_int_eq(git_config_set_string(cfg, "maintainer.script", path),
			 0);
	gm_options_init(&o);
	ck_assert_int_eq(gm_test_repo_open(&r, NULL), 0);
	gm_config_treescript(&o, r, &notes);
	ck_assert_int_eq(o.drop_rest_supporter, 1);
	joined = gm_test_join(&notes, "\n");
	ck_assert_msg(strstr(joined, "xen.pl:2: family Xen"), "%s", joined);
	free(joined);
	gm_repo_free(r);
	gm_options_release(&o);
	gm_strvec_release(&notes);
	git_config_delete_entry(cfg, "maintainer.script");
	git_config_free(cfg);
	git_repository_free(repo);
}
END_TEST

Suite *treescript_suite(void)
{
	Suite *s = suite_create("treescript");
	TCase *parse = tcase_create("parse");
	TCase *tree = tcase_create("tree");
	TCase *forks = tcase_create("forks");

	tcase_add_test(parse, test_treescript_61_keeps_every_default);
	tcase_add_test(parse, test_treescript_new_defaults);
	tcase_add_test(parse, test_treescript_other_defaults_follow);
	tcase_add_loop_test(parse, test_treescript_linux_markers, 0,
			    (int)ARRAY_SIZE(linux_cases));
	tcase_add_test(parse, test_treescript_needs_variable_and_option);
	tcase_add_test(parse, test_treescript_initialisers);
	tcase_add_test(parse, test_treescript_hostile);
	tcase_add_test(parse, test_treescript_entries_around_odd_ones);
	tcase_add_test(parse, test_treescript_substatus_decided_by_finish);
	suite_add_tcase(s, parse);

	/* checked: each test gets a repository, $HOME and cwd of its own */
	tcase_add_checked_fixture(tree, tree_setup, tree_teardown);
	tcase_add_test(tree, test_treescript_load_follows_the_commit);
	tcase_add_test(tree, test_treescript_load_named_script);
	tcase_add_test(tree, test_treescript_precedence);
	tcase_add_test(tree, test_treescript_cli_and_batch);
	suite_add_tcase(s, tree);

	tcase_add_test(forks, test_treescript_family);
	tcase_add_test(forks, test_treescript_penguins);
	tcase_add_test(forks, test_treescript_fork_fallback_and_penguins);
	tcase_add_test(forks, test_treescript_fork_xen);
	tcase_add_test(forks, test_treescript_read_settings);
	tcase_add_test(forks, test_treescript_apply_fields);
	tcase_add_test(forks, test_treescript_fallback_maintainers);
	tcase_add_test(forks, test_treescript_penguin_tests);
	tcase_add_test(forks, test_treescript_xen_tree);
	tcase_add_test(forks, test_treescript_worktree_script_ignored);
	tcase_add_test(forks, test_treescript_uboot_penguin);
	tcase_set_timeout(forks, 60);
	suite_add_tcase(s, forks);
	return s;
}
