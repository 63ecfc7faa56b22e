/*
 * The commits of a file's lines as --git-blame finds them, for
 * the differential test against git blame:
 *
 *     gm_blame_ids TREE SPEC...
 *
 * opens the repository at TREE (HEAD, its work tree) as git-maintainer
 * does, and for each SPEC, "PATH" (the whole file) or "PATH:START,LEN"
 * (`-L START,+LEN`), prints a line "# SPEC" and then the id of every
 * line gm_blame_lines() gives, one a line (boundary lines left out, as
 * the script's ^([0-9a-f]+) leaves them out). On stderr, the seconds all
 * the blames took together. Exit 0, or 2 if something cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "gm/blame.h"
#include "gm/error.h"
#include "gm/repo.h"
#include "gm/strvec.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Blame one SPEC into `out`. */
static int blame_spec(struct gm_strvec *out, struct gm_repo *r,
		      const char *spec)
{
	char *path = strdup(spec), *colon;
	long start = 0, len = 0;
	int error;

	if (!path)
		return gm_error_set(GM_ERROR, "out of memory");
	if ((colon = strrchr(path, ':')) &&
	    sscanf(colon + 1, "%ld,%ld", &start, &len) == 2)
		*colon = '\0';
	else
		start = len = 0;
	error = gm_blame_lines(out, gm_repo_git(r), gm_repo_commit_id(r),
			       gm_repo_workdir(r), path, start, len);
	free(path);
	return error;
}

int main(int argc, char **argv)
{
	struct gm_repo_location *loc = NULL;
	struct gm_repo *r = NULL;
	struct gm_strvec *ids;
	double spent;
	int error = 0;

	if (argc < 3 || chdir(argv[1]) < 0) {
		fprintf(stderr, "usage: gm_blame_ids TREE SPEC...\n");
		return 2;
	}
	git_libgit2_init();
	if (!(ids = calloc((size_t)argc, sizeof(*ids))) ||
	    gm_repo_locate(&loc) < 0 || gm_repo_open(&r, loc, NULL) < 0)
		goto fail;
	spent = now();
	for (int i = 2; i < argc && !error; i++)
		error = blame_spec(&ids[i], r, argv[i]);
	spent = now() - spent;
	if (error)
		goto fail;
	for (int i = 2; i < argc; i++) {
		printf("# %s\n", argv[i]);
		for (size_t k = 0; k < ids[i].nr; k++)
			printf("%s\n", ids[i].v[k]);
		gm_strvec_release(&ids[i]);
	}
	fprintf(stderr, "%.3f\n", spent);
	free(ids);
	gm_repo_free(r);
	gm_repo_location_free(loc);
	git_libgit2_shutdown();
	return 0;
fail:
	fprintf(stderr, "gm_blame_ids: %s\n", gm_error_last());
	return 2;
}
