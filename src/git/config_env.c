/*
 * The settings of "git -c key=value", as git hands them to its
 * subcommands: GIT_CONFIG_COUNT with GIT_CONFIG_KEY_<n> and
 * GIT_CONFIG_VALUE_<n>, then GIT_CONFIG_PARAMETERS, a list of
 * shell-quoted 'key'='value' (or older 'key=value') words; a later one
 * wins. They are added to the repository's configuration as its
 * highest level, so that every read of it, ours or libgit2's, sees them.
 */
#include "repo_internal.h"

#include <git2/sys/config.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm/buf.h"
#include "gm/error.h"

#define PARAMETERS "GIT_CONFIG_PARAMETERS"
#define COUNT "GIT_CONFIG_COUNT"

struct env_config {
	git_config_backend parent;	/* first: libgit2 casts to it */
	git_config_entry *entries;	/* in the order given */
	size_t nr, alloc;
};

struct env_iterator {
	git_config_iterator parent;
	size_t next;
};

/* ==================== reading the environment ==================== */

static bool is_key_char(int c)
{
	return isalnum(c) || c == '-';
}

/*
 * `key` as git stores it: section and name in lower case, a subsection
 * kept; NULL (with a message) if git refuses it.
 */
static char *canonical_key(const char *key)
{
	const char *first = strchr(key, '.'), *last = strrchr(key, '.');
	size_t len = strlen(key);
	char *out;

	if (!first || !last[1]) {
		gm_error_set(GM_EINVALID, "invalid config key '%s' in the "
			     "command-line configuration", key);
		return NULL;
	}
	if (!(out = strdup(key))) {
		gm_error_set(GM_ERROR, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)key[i];
		bool outer = key + i < first || key + i > last;

		if (outer ? !is_key_char(c) ||
			    (key + i == last + 1 && !isalpha(c)) :
			    c == '\n') {
			gm_error_set(GM_EINVALID, "invalid config key '%s' in "
				     "the command-line configuration", key);
			free(out);
			return NULL;
		}
		out[i] = outer ? (char)tolower(c) : (char)c;
	}
	return out;
}

static void entry_keep(git_config_entry *e)
{
	(void)e;	/* the backend owns every entry */
}

/* Add key=value (`value` NULL: the key alone, a true bool). */
static int env_add(struct env_config *c, const char *key, const char *value)
{
	git_config_entry *e;
	char *name, *dup = NULL;

	if (!*key)
		return gm_error_set(GM_EINVALID, "empty config key in the "
				    "command-line configuration");
	if (!(name = canonical_key(key)))
		return GM_EINVALID;
	if ((value && !(dup = strdup(value))) ||
	    GM_ARRAY_GROW(c->entries, c->nr, c->alloc) < 0) {
		free(name);
		free(dup);
		return gm_error_set(GM_ERROR, "out of memory");
	}
	e = &c->entries[c->nr++];
	memset(e, 0, sizeof(*e));
	e->name = name;
	e->value = dup;
	e->level = GIT_CONFIG_LEVEL_APP;
	e->free = entry_keep;
	return 0;
}

/* GIT_CONFIG_COUNT pairs, as git reads them. */
static int env_read_count(struct env_config *c)
{
	const char *env = getenv(COUNT);
	char name[64], *end;
	unsigned long count;
	int error = 0;

	if (!env || !*env)
		return 0;
	errno = 0;
	count = strtoul(env, &end, 10);
	if (*end || errno)
		return gm_error_set(GM_EINVALID, "bogus count in %s", COUNT);
	if (count > INT_MAX)
		return gm_error_set(GM_EINVALID, "too many entries in %s",
				    COUNT);
	for (unsigned long i = 0; !error && i < count; i++) {
		const char *key, *value;

		snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%lu", i);
		if (!(key = getenv(name)))
			return gm_error_set(GM_EINVALID, "missing config key %s",
					    name);
		snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%lu", i);
		if (!(value = getenv(name)))
			return gm_error_set(GM_EINVALID,
					    "missing config value %s", name);
		error = env_add(c, key, value);
	}
	return error;
}

/*
 * One shell-quoted word at *p into `out`, *p moved past it; false if *p
 * is not one. Outside the quotes only \' and \! between two quoted parts
 * are read, as git writes them.
 */
static bool dequote_step(const char **p, struct gm_buf *out, int *error)
{
	const char *s = *p;

	gm_buf_reset(out);
	if (*s != '\'')
		return false;
	for (;;) {
		char c = *++s;

		if (!c)
			return false;
		if (c != '\'') {
			if ((*error = gm_buf_putc(out, c)) < 0)
				return false;
			continue;
		}
		if (s[1] == '\\' && (s[2] == '\'' || s[2] == '!') &&
		    s[3] == '\'') {
			if ((*error = gm_buf_putc(out, s[2])) < 0)
				return false;
			s += 3;
			continue;
		}
		*p = s + 1;
		return true;
	}
}

/* Old style 'key=value': the key is trimmed, no '=' is a true bool. */
static int env_add_old_style(struct env_config *c, struct gm_buf *word)
{
	char *eq = strchr(word->ptr, '='), *key = word->ptr, *end;

	if (eq)
		*eq = '\0';
	while (isspace((unsigned char)*key))
		key++;
	end = key + strlen(key);
	while (end > key && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return env_add(c, key, eq ? eq + 1 : NULL);
}

static int env_bogus(void)
{
	return gm_error_set(GM_EINVALID, "bogus format in %s", PARAMETERS);
}

/* GIT_CONFIG_PARAMETERS, as git reads it. */
static int env_read_parameters(struct env_config *c)
{
	struct gm_buf key = GM_BUF_INIT, value = GM_BUF_INIT;
	const char *p = getenv(PARAMETERS);
	int error = 0;

	while (!error && p && *p) {
		if (!dequote_step(&p, &key, &error)) {
			error = error ? error : env_bogus();
			break;
		}
		if (!*p || isspace((unsigned char)*p)) {
			error = env_add_old_style(c, &key);
		} else if (*p++ != '=') {
			error = env_bogus();
		} else if (*p == '\'') {
			if (!dequote_step(&p, &value, &error) ||
			    (*p && !isspace((unsigned char)*p)))
				error = error ? error : env_bogus();
			else
				error = env_add(c, key.ptr, value.ptr);
		} else if (!*p || isspace((unsigned char)*p)) {
			error = env_add(c, key.ptr, NULL);
		} else {
			error = env_bogus();
		}
		while (*p && isspace((unsigned char)*p))
			p++;
	}
	gm_buf_release(&key);
	gm_buf_release(&value);
	return error;
}

/* ==================== the backend ==================== */

static int env_open(git_config_backend *b, git_config_level_t level,
		    const git_repository *repo)
{
	(void)b;
	(void)level;
	(void)repo;
	return 0;
}

static int env_get(git_config_backend *b, const char *key,
		   git_config_entry **out)
{
	struct env_config *c = (struct env_config *)b;

	for (size_t i = c->nr; i-- > 0;)
		if (!strcmp(c->entries[i].name, key)) {
			*out = &c->entries[i];
			return 0;
		}
	return GIT_ENOTFOUND;
}

static int env_read_only(void)
{
	git_error_set_str(GIT_ERROR_CONFIG,
			  "the command-line configuration cannot be changed");
	return -1;
}

static int env_set(git_config_backend *b, const char *key, const char *value)
{
	(void)b;
	(void)key;
	(void)value;
	return env_read_only();
}

static int env_set_multivar(git_config_backend *b, const char *name,
			    const char *regexp, const char *value)
{
	(void)b;
	(void)name;
	(void)regexp;
	(void)value;
	return env_read_only();
}

static int env_del(git_config_backend *b, const char *key)
{
	(void)b;
	(void)key;
	return env_read_only();
}

static int env_del_multivar(git_config_backend *b, const char *key,
			    const char *regexp)
{
	(void)b;
	(void)key;
	(void)regexp;
	return env_read_only();
}

static int env_iterator_next(git_config_entry **out, git_config_iterator *it)
{
	struct env_iterator *i = (struct env_iterator *)it;
	struct env_config *c = (struct env_config *)it->backend;

	if (i->next >= c->nr)
		return GIT_ITEROVER;
	*out = &c->entries[i->next++];
	return 0;
}

static void env_iterator_free(git_config_iterator *it)
{
	free(it);
}

static int env_iterator(git_config_iterator **out, git_config_backend *b)
{
	struct env_iterator *i = calloc(1, sizeof(*i));

	if (!i) {
		git_error_set_oom();
		return -1;
	}
	i->parent.backend = b;
	i->parent.next = env_iterator_next;
	i->parent.free = env_iterator_free;
	*out = &i->parent;
	return 0;
}

static int env_lock(git_config_backend *b)
{
	(void)b;
	return 0;
}

static int env_unlock(git_config_backend *b, int success)
{
	(void)b;
	(void)success;
	return 0;
}

static void env_free(git_config_backend *b)
{
	struct env_config *c = (struct env_config *)b;

	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++) {
		free((char *)c->entries[i].name);
		free((char *)c->entries[i].value);
	}
	free(c->entries);
	free(c);
}

static struct env_config *env_new(void);

/* A copy, read-only, as libgit2 wants of a snapshot's every level. */
static int env_snapshot(git_config_backend **out, git_config_backend *b)
{
	struct env_config *c = (struct env_config *)b, *n = env_new();
	int error = n ? 0 : GM_ERROR;

	for (size_t i = 0; !error && i < c->nr; i++)
		error = env_add(n, c->entries[i].name, c->entries[i].value);
	if (error) {
		env_free(n ? &n->parent : NULL);
		git_error_set_oom();
		return -1;
	}
	n->parent.readonly = 1;
	*out = &n->parent;
	return 0;
}

static struct env_config *env_new(void)
{
	struct env_config *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->parent.version = GIT_CONFIG_BACKEND_VERSION;
	c->parent.open = env_open;
	c->parent.get = env_get;
	c->parent.set = env_set;
	c->parent.set_multivar = env_set_multivar;
	c->parent.del = env_del;
	c->parent.del_multivar = env_del_multivar;
	c->parent.iterator = env_iterator;
	c->parent.snapshot = env_snapshot;
	c->parent.lock = env_lock;
	c->parent.unlock = env_unlock;
	c->parent.free = env_free;
	return c;
}

int gm_repo_config_env_add(git_repository *repo)
{
	struct env_config *c;
	git_config *cfg = NULL;
	int error;

	if (!getenv(COUNT) && !getenv(PARAMETERS))
		return 0;
	if (!(c = env_new()))
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = env_read_count(c)) < 0 ||
	    (error = env_read_parameters(c)) < 0)
		goto fail;
	if ((error = git_repository_config(&cfg, repo)) < 0 ||
	    (error = git_config_add_backend(cfg, &c->parent,
					    GIT_CONFIG_LEVEL_APP, repo,
					    1)) < 0) {
		error = gm_error_from_git(error, "cannot read the configuration");
		goto fail;
	}
	git_config_free(cfg);
	return 0;
fail:
	git_config_free(cfg);
	env_free(&c->parent);
	return error;
}
