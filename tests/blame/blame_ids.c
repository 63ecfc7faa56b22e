/*
 * The commits of files' lines as --git-blame finds them, for the
 * differential test against git blame:
 *
 *     gm_blame_ids TREE SPEC...
 *
 * opens the repository at TREE (HEAD, its work tree) as git-maintainer
 * does. Each SPEC is "PATH" (the whole file) or "PATH:START,LEN" (a
 * range, `-L START,+LEN`). The whole files are blamed as one run of
 * gm_blame_run() with no ranges (-f FILE...), the ranges as another, of
 * the files they name with them all (a patch's hunks). Prints, for each
 * whole file, "# PATH" and the id of each of its lines, one a line
 * (boundary lines left out, as the script's ^([0-9a-f]+) leaves them
 * out); then for each file with ranges "# ranges PATH" and the ids of
 * its ranges' lines, range after range. On stderr, the seconds the two
 * runs took. Exit 0, or 2 if something cannot be read.
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

/* Sort the SPECs into whole files and ranges (their paths in `ranged`). */
static int read_specs(char **specs, int n, struct gm_strvec *whole,
		      struct gm_strvec *ranged, struct gm_patch_range **ranges,
		      size_t *nr_ranges)
{
	size_t alloc = 0;

	for (int i = 0; i < n; i++) {
		char *colon = strrchr(specs[i], ':');
		struct gm_patch_range r;

		if (!colon || sscanf(colon + 1, "%ld,%ld", &r.start, &r.len) != 2) {
			if (gm_strvec_push(whole, specs[i]) < 0)
				return GM_ERROR;
			continue;
		}
		if (!(r.file = strndup(specs[i], (size_t)(colon - specs[i]))) ||
		    GM_ARRAY_GROW(*ranges, *nr_ranges, alloc) < 0 ||
		    (!gm_strvec_contains(ranged, r.file) &&
		     gm_strvec_push(ranged, r.file) < 0)) {
			free(r.file);
			return gm_error_set(GM_ERROR, "out of memory");
		}
		(*ranges)[(*nr_ranges)++] = r;
	}
	return 0;
}

/* Blame `files` as one run and print each file's lines after `tag`. */
static int blame_print(struct gm_blame_request *req,
		       const struct gm_strvec *files, const char *tag)
{
	struct gm_blame *b = NULL;
	int error;

	if (!files->nr)
		return 0;
	if ((error = gm_blame_run(&b, req, files)) < 0)
		return error;
	for (size_t f = 0; f < files->nr; f++) {
		const struct gm_strvec *ids = &gm_blame_file_at(b, f)->lines;

		printf("# %s%s\n", tag, files->v[f]);
		for (size_t k = 0; k < ids->nr; k++)
			printf("%s\n", ids->v[k]);
	}
	gm_blame_free(b);
	return 0;
}

int main(int argc, char **argv)
{
	struct gm_strvec whole = GM_STRVEC_INIT, ranged = GM_STRVEC_INIT;
	struct gm_repo_location *loc = NULL;
	struct gm_blame_request req;
	struct gm_patch_range *ranges = NULL;
	struct gm_repo *r = NULL;
	size_t nr_ranges = 0;
	double spent;

	if (argc < 3 || chdir(argv[1]) < 0) {
		fprintf(stderr, "usage: gm_blame_ids TREE SPEC...\n");
		return 2;
	}
	git_libgit2_init();
	if (gm_repo_locate(&loc) < 0 || gm_repo_open(&r, loc, NULL) < 0 ||
	    read_specs(argv + 2, argc - 2, &whole, &ranged, &ranges,
		       &nr_ranges) < 0)
		goto fail;
	memset(&req, 0, sizeof(req));
	req.repo = gm_repo_git(r);
	req.newest = gm_repo_commit_id(r);
	req.workdir = gm_repo_workdir(r);
	spent = now();
	if (blame_print(&req, &whole, "") < 0)
		goto fail;
	req.ranges = ranges;
	req.nr_ranges = nr_ranges;
	if (blame_print(&req, &ranged, "ranges ") < 0)
		goto fail;
	fprintf(stderr, "%.3f\n", now() - spent);
	for (size_t i = 0; i < nr_ranges; i++)
		free(ranges[i].file);
	free(ranges);
	gm_strvec_release(&whole);
	gm_strvec_release(&ranged);
	gm_repo_free(r);
	gm_repo_location_free(loc);
	git_libgit2_shutdown();
	return 0;
fail:
	fprintf(stderr, "gm_blame_ids: %s\n", gm_error_last());
	return 2;
}
