#include "gm/report.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "gm/activity.h"
#include "gm/buf.h"
#include "gm/error.h"
#include "gm/selftest.h"
#include "gm/unowned.h"

/* The page around the tables: its style, then (PAGE_END) its script. */
static const char page_style[] =
":root{color-scheme:light dark;--b:#8884;--m:#777}"
"body{font:15px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1200px;"
"padding:0 12px}h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}"
".meta,.legend,.e,.f{color:var(--m);font-size:.9em}"
"#summary{padding:8px;border:1px solid var(--b);border-radius:6px}"
".scroll{overflow-x:auto}table{border-collapse:collapse;width:100%}"
"th,td{border-bottom:1px solid var(--b);padding:4px 6px;text-align:left;"
"vertical-align:top}th{cursor:pointer;white-space:nowrap}"
"th[aria-sort=ascending]::after{content:' \\25B2'}"
"th[aria-sort=descending]::after{content:' \\25BC'}.num,td.n{text-align:right}"
"tr.orphan td:first-child{color:#d22;font-weight:bold}"
"tr.inactive td:first-child{color:#d72;font-weight:bold}"
"tr.idle td:first-child{color:#b90}ul.pp{margin:0;padding:0;list-style:none}"
".bar{display:inline-block;height:.8em;background:#d55}"
"input.filter{font-size:1em;padding:4px;width:min(100%,20em)}"
"[hidden]{display:none!important}"
"@media (max-width:640px){table.sortable,table.sortable tbody,"
"table.sortable tr,table.sortable td{display:block}"
"table.sortable thead tr{display:flex;flex-wrap:wrap;gap:4px}"
"table.sortable th{border:1px solid var(--b);border-radius:4px}"
"table.sortable tr{border-bottom:2px solid var(--b);padding:4px 0}"
"table.sortable td{border:0;padding:1px 4px;text-align:left}"
"table.sortable td:nth-child(-n+2){display:inline-block}"
"td[data-h]::before{content:attr(data-h) ': ';color:var(--m)}}";

static const char page_script[] =
"(function(){var E=document.getElementById('errors');"
"function err(m){E.hidden=false;E.textContent+=m+'\\n';}"
"addEventListener('error',function(e){err('error: '+(e.message||"
"(e.target&&(e.target.src||e.target.href))||e.type));},true);"
"var ce=console.error;console.error=function(){"
"err('console: '+[].join.call(arguments,' '));ce.apply(console,arguments);};"
"function each(l,f){[].forEach.call(l,f);}"
"function key(td,num){var v=td.getAttribute('data-v');"
"if(v===null)v=td.textContent;return num?parseFloat(v)||0:v.toLowerCase();}"
"function sort(t,i,dir){var b=t.tBodies[0],h=t.tHead.rows[0].cells,"
"num=h[i].classList.contains('num'),r=[].slice.call(b.rows);"
"r.sort(function(x,y){var a=key(x.cells[i],num),c=key(y.cells[i],num);"
"return (a<c?-1:a>c?1:0)*dir;});each(r,function(x){b.appendChild(x);});"
"each(h,function(c,j){c.setAttribute('aria-sort',j!=i?'none':"
"dir>0?'ascending':'descending');});}"
"function filter(t){var q=document.querySelector("
"'input.filter[data-for='+t.id+']').value.toLowerCase(),"
"a=t.id=='st'&&document.getElementById('attn').checked,n=0;"
"each(t.tBodies[0].rows,function(r){var s=(!q||r.textContent.toLowerCase()"
".indexOf(q)>=0)&&(!a||r.className!='ok');r.hidden=!s;n+=s;});"
"document.getElementById(t.id+'-n').textContent=n;}"
"each(document.querySelectorAll('table.sortable'),function(t){"
"each(t.tHead.rows[0].cells,function(h,i){h.tabIndex=0;"
"h.onclick=function(){sort(t,i,h.getAttribute('aria-sort')=='descending'?"
"1:-1);};h.onkeydown=function(e){if(e.key=='Enter')h.onclick();};});});"
"each(document.querySelectorAll('input.filter'),function(i){"
"i.oninput=function(){filter(document.getElementById("
"i.getAttribute('data-for')));};});"
"document.getElementById('attn').onchange=function(){"
"filter(document.getElementById('st'));};"
"document.getElementById('copy').onclick=function(){var r="
"document.createRange(),w=getSelection();r.selectNodeContents("
"document.getElementById('summary'));w.removeAllRanges();w.addRange(r);"
"try{document.execCommand('copy');}catch(e){}};"
"var m=/^#selftest=(.*)$/.exec(location.hash);if(m){"
"var t=document.getElementById('st'),h=t.tHead.rows[0].cells;"
"for(var i=0;i<h.length;i++)if(h[i].textContent=='Commits')sort(t,i,-1);"
"document.querySelector('input.filter[data-for=st]').value="
"decodeURIComponent(m[1]);filter(t);"
"document.body.setAttribute('data-selftest','done');}})();";

/* ==================== text ==================== */

/* `s` HTML-escaped; control characters as \xHH. */
static void put_html(FILE *f, const char *s)
{
	static const char *const entity[] = { ['"'] = "&quot;",
		['&'] = "&amp;", ['\''] = "&#39;", ['<'] = "&lt;",
		['>'] = "&gt;" };

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= '>' && entity[*p])
			fputs(entity[*p], f);
		else if (*p < ' ' || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
}

/* ==================== sections ==================== */

enum state { ORPHAN, INACTIVE, QUIET, IDLE, OK, NR_STATES };
static const char *const state_names[] = { "orphan", "inactive", "quiet",
					   "idle", "ok" };

struct row {
	const struct gm_activity_section *as;
	enum state state;
	size_t active;		/* its people with commits */
	int64_t last;
};

static enum state section_state(const struct row *r,
				const struct gm_maintainers *m)
{
	const char *status = m->sections[r->as->section].status;

	if (!r->as->nr_people || (status && !strncasecmp(status, "orphan", 6)))
		return ORPHAN;
	if (!r->active)
		return r->as->commits ? INACTIVE : QUIET;
	return gm_activity_section_idle(r->as) ? IDLE : OK;
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->state != y->state)
		return x->state < y->state ? -1 : 1;
	if (x->as->commits != y->as->commits)
		return x->as->commits > y->as->commits ? -1 : 1;
	return x->as->section < y->as->section ? -1 : 1;
}

static void put_person(FILE *f, const struct gm_activity_person *p)
{
	fputs("<li><span class=n>", f);
	put_html(f, *p->name ? p->name : p->email);
	fputs("</span> <span class=e>", f);
	put_html(f, p->email);
	fprintf(f, "</span> <abbr title=%s>%c</abbr> <span class=f>"
		"<b class=c>%zu</b> commits, <b class=r>%zu</b> reviews, "
		"last <b class=l>", p->reviewer ? "reviewer" : "maintainer",
		p->reviewer ? 'R' : 'M', p->commits, p->reviews);
	gm_activity_put_date(f, p->last);
	fputs("</b></span></li>", f);
}

static void put_row(FILE *f, const struct row *r,
		    const struct gm_maintainers *m)
{
	const struct gm_section *sec = &m->sections[r->as->section];

	fprintf(f, "<tr class=%s><td data-v=%d>%s<td>", state_names[r->state],
		(int)r->state, state_names[r->state]);
	put_html(f, sec->name);
	fputs("<td>", f);
	put_html(f, sec->status ? sec->status : "-");
	fprintf(f, "<td class=n data-h=Commits>%zu<td class=n data-h=Active>"
		"%zu<td data-v=%lld>", r->as->commits, r->active,
		(long long)(r->active ? r->last : 0));
	gm_activity_put_date(f, r->last);
	fputs("<td><ul class=pp>", f);
	for (size_t k = 0; k < r->as->nr_people; k++)
		put_person(f, &r->as->people[k]);
	fputs("</ul></tr>\n", f);
}

/* The rows in the page's order; `count[state]` the sections in each. */
static struct row *rows_make(const struct gm_activity *a,
			     const struct gm_maintainers *m, size_t count[NR_STATES])
{
	struct row *rows = calloc(a->nr_sections + 1, sizeof(*rows));

	if (!rows)
		return NULL;
	for (size_t i = 0; i < a->nr_sections; i++) {
		struct row *r = &rows[i];

		r->as = &a->sections[i];
		r->last = INT64_MIN;
		for (size_t k = 0; k < r->as->nr_people; k++) {
			const struct gm_activity_person *p =
				&r->as->people[k];

			r->active += p->commits > 0;
			if (p->commits && p->last > r->last)
				r->last = p->last;
		}
		r->state = section_state(r, m);
		count[r->state]++;
	}
	if (a->nr_sections)
		qsort(rows, a->nr_sections, sizeof(*rows), row_cmp);
	return rows;
}

static void put_sections(FILE *f, const struct row *rows, size_t nr,
			 const struct gm_maintainers *m)
{
	fprintf(f, "<section><h2 id=sections>Sections (<span id=st-n>%zu"
		"</span>)</h2><p class=legend><b>orphan</b>: S: Orphan, or no "
		"M:/R: person; <b>inactive</b>: none of its people in its "
		"commits of the window; <b>quiet</b>: no commits, nobody "
		"active; <b>idle</b>: its reviewers but none of its "
		"maintainers in its commits. Commits: those changing its files; a "
		"person's: those they wrote or are named in on a *-by: line, "
		"reviews those with their Reviewed-by or Acked-by.</p>"
		"<p><input class=filter data-for=st placeholder='Filter "
		"sections, people'> <label><input type=checkbox id=attn> only "
		"those needing attention</label></p><div class=scroll>"
		"<table id=st class=sortable><thead><tr><th>State<th>Section"
		"<th>Status<th class=num>Commits<th class=num>Active"
		"<th>Last<th>People</tr></thead><tbody>\n", nr);
	for (size_t i = 0; i < nr; i++)
		put_row(f, &rows[i], m);
	fputs("</tbody></table></div></section>\n", f);
}

/* ==================== unowned files ==================== */

#define MAX_DIRS 500

static int put_unowned(FILE *f, const struct gm_unowned_dirs *d)
{
	struct gm_buf tmp = GM_BUF_INIT;
	size_t top = d->nr ? d->v[0].unowned : 1, n = d->nr;
	int error = 0;

	if (n > MAX_DIRS)
		n = MAX_DIRS;
	fprintf(f, "<section><h2 id=unowned>Unowned files (<span id=ut-n>%zu"
		"</span> places)</h2><p class=legend>%zu of %zu files are "
		"claimed by no section with an M: line (the catch-all claims "
		"none), each counted in the shallowest directory whose files "
		"are all unowned (<b>all</b>), else in its own. %s</p>"
		"<p><input class=filter data-for=ut placeholder='Filter "
		"directories'></p><div class=scroll><table id=ut "
		"class=sortable><thead><tr><th>Directory<th class=num>Unowned"
		"<th class=num>Files<th class=num>Chart</tr></thead><tbody>\n",
		n, d->unowned, d->files, n < d->nr ?
		"The first 500 only: git maintainer --unowned lists all." : "");
	for (size_t i = 0; i < n && !error; i++) {
		const struct gm_unowned_dir *u = &d->v[i];

		fputs("<tr><td>", f);
		/* quoted as git quotes it, bytes >= 0x80 as they are */
		gm_buf_reset(&tmp);
		if (!(error = gm_buf_put_path(&tmp, *u->path ? u->path : "./",
					      false)))
			put_html(f, tmp.ptr);
		fprintf(f, "%s<td class=n data-h=Unowned>%zu<td class=n "
			"data-h=Files>%zu<td data-v=%zu><span class=bar "
			"style='width:%.1f%%'></span></tr>\n",
			u->whole ? " <b>all</b>" : "", u->unowned, u->files,
			u->unowned, 100.0 * (double)u->unowned / (double)top);
	}
	fputs("</tbody></table></div></section>\n", f);
	gm_buf_release(&tmp);
	return error;
}

static int unowned_read(struct gm_unowned_dirs *d, struct gm_repo *r,
			const struct gm_maintainers *m, int pattern_depth)
{
	struct gm_strvec all = GM_STRVEC_INIT, none = GM_STRVEC_INIT;
	const char **files = NULL;
	unsigned char *owned = NULL;
	size_t nr = 0;
	int error = gm_unowned_read(&files, &nr, &owned, &all, r, m, &none,
				    pattern_depth);

	memset(d, 0, sizeof(*d));
	if (!error)
		error = gm_unowned_dirs(d, files, nr, owned);
	free(owned);
	free(files);
	gm_strvec_release(&all);
	return error;
}

/* ==================== self-test ==================== */

#define MAX_FINDINGS 1000

/* One line "<file>:<line>: warning: <message>\t<the line>" as a row. */
static void put_finding(FILE *f, char *line)
{
	char *msg = strstr(line, ": warning: "), *text;

	if (!msg)
		return;
	*msg = '\0';
	msg += strlen(": warning: ");
	if ((text = strchr(msg, '\t')))
		*text++ = '\0';
	fputs("<tr><td>", f);
	put_html(f, line);
	fputs("<td>", f);
	put_html(f, msg);
	fputs("<td><code>", f);
	put_html(f, text ? text : "");
	fputs("</code></tr>\n", f);
}

/* The offline checks of --self-test: their lines in `*text`, `*nr` of them. */
static int findings_read(char **text, size_t *nr, struct gm_repo *r,
			 const struct gm_report_settings *s)
{
	static const unsigned checks = GM_SELFTEST_SECTIONS |
				       GM_SELFTEST_PATTERNS |
				       GM_SELFTEST_ADDRESSES;
	struct gm_selftest_input in = GM_SELFTEST_INPUT_INIT;
	size_t len = 0;
	FILE *mem = open_memstream(text, &len);
	int error;

	*nr = 0;
	if (!mem)
		return gm_error_set(GM_ERROR, "out of memory");
	if ((error = gm_selftest_load(&in, r, checks, s->mpath, s->find,
				      s->mailmap)) == 0)
		error = gm_selftest_run(&in, checks, mem, NULL, nr);
	gm_selftest_release(&in);
	if (fclose(mem) && !error)
		error = gm_error_set(GM_ERROR, "out of memory");
	return error;
}

/* The findings' table: the first MAX_FINDINGS lines of `text`. */
static void put_findings(FILE *f, char *text, size_t nr)
{
	char *next;

	fprintf(f, "<section><h2 id=findings>Self-test (<span id=ft-n>%zu"
		"</span> findings)</h2><p class=legend>git maintainer "
		"--self-test=sections,patterns,addresses; the links and scm "
		"checks need the network: run them with --self-test.%s</p>"
		"<p><input class=filter data-for=ft placeholder='Filter "
		"findings'></p><div class=scroll><table id=ft class=sortable>"
		"<thead><tr><th>Where<th>Finding<th>Line</tr></thead><tbody>\n",
		nr, nr > MAX_FINDINGS ? " The first 1000 only." : "");
	for (size_t shown = 0; text && *text && shown < MAX_FINDINGS;
	     shown++, text = next) {
		if ((next = strchr(text, '\n')))
			*next++ = '\0';
		put_finding(f, text);
	}
	fputs("</tbody></table></div></section>\n", f);
}

/* ==================== the page ==================== */

/* The tree's name: its work tree's last component, else "the tree". */
static const char *tree_name(struct gm_repo *r)
{
	static char path[4096];
	const char *w = gm_repo_workdir(r), *name;

	snprintf(path, sizeof(path), "%s", w ? w : "");
	name = *path ? basename(path) : "";
	return *name && strcmp(name, "/") ? name : "the tree";
}

static void put_summary(FILE *f, const char *name, const char *rev,
			size_t nr, const size_t count[NR_STATES], int64_t since,
			int64_t until, const struct gm_unowned_dirs *d,
			size_t findings)
{
	fputs("<p id=summary>", f);
	put_html(f, name);
	fprintf(f, " MAINTAINERS at %.12s: %zu sections, %zu orphaned, %zu "
		"whose people were all inactive (%zu while their files "
		"changed), %zu whose maintainers were absent from their "
		"commits, from ", rev, nr, count[ORPHAN],
		count[INACTIVE] + count[QUIET], count[INACTIVE], count[IDLE]);
	gm_activity_put_date(f, since);
	fputs(" to ", f);
	gm_activity_put_date(f, until == INT64_MAX ? time(NULL) : until);
	fprintf(f, "; %zu of %zu files (%.1f%%) claimed by no maintained "
		"section; %zu self-test findings.</p>\n", d->unowned, d->files,
		d->files ? 100.0 * (double)d->unowned / (double)d->files : 0.0,
		findings);
}

static int write_page(FILE *f, struct gm_repo *r,
		      const struct gm_maintainers *m,
		      const struct gm_report_settings *s,
		      const struct gm_activity *a, int64_t since,
		      int64_t until, const struct gm_unowned_dirs *d)
{
	const char *name = tree_name(r);
	char *text = NULL;
	size_t count[NR_STATES] = { 0 }, findings = 0;
	char rev[GM_REPO_HEX_SIZE];
	struct row *rows = rows_make(a, m, count);
	int error = rows ? findings_read(&text, &findings, r, s) :
			   gm_error_set(GM_ERROR, "out of memory");

	if (error)
		goto out;
	gm_repo_commit_hex(r, rev);
	fputs("<!doctype html><html lang=en><head><meta charset=utf-8>"
	      "<meta name=viewport content='width=device-width,"
	      "initial-scale=1'><title>MAINTAINERS health: ", f);
	put_html(f, name);
	fprintf(f, "</title><style>%s</style></head><body><header><h1>"
		"MAINTAINERS health: ", page_style);
	put_html(f, name);
	fprintf(f, "</h1><p class=meta>commit %s; written by git maintainer "
		"--report</p>", rev);
	put_summary(f, name, rev, a->nr_sections, count, since, until, d,
		    findings);
	fputs("<button id=copy>Select the summary</button> <a href=#sections>"
	      "Sections</a> &middot; <a href=#unowned>Unowned files</a> "
	      "&middot; <a href=#findings>Self-test</a></header>\n", f);
	put_sections(f, rows, a->nr_sections, m);
	if ((error = put_unowned(f, d)) < 0)
		goto out;
	put_findings(f, text, findings);
	fprintf(f, "<pre id=errors hidden></pre><script>%s</script></body>"
		"</html>\n", page_script);
out:
	free(text);
	free(rows);
	return error;
}

int gm_report_run(FILE *out, struct gm_strvec *warnings, struct gm_repo *r,
		  const struct gm_maintainers *m,
		  const struct gm_report_settings *s)
{
	struct gm_strvec none = GM_STRVEC_INIT;
	struct gm_activity_settings as = { &none, s->since, s->until,
					   s->pattern_depth, s->mailmap,
					   false };
	struct gm_unowned_dirs d = { 0 };
	struct gm_activity *a = NULL;
	int64_t since, until;
	char *page = NULL;
	size_t len = 0;
	FILE *mem = NULL;
	int error;

	if ((error = gm_activity_read(&a, &since, &until, warnings, r, m,
				      &as)) < 0 ||
	    (error = unowned_read(&d, r, m, s->pattern_depth)) < 0)
		goto out;
	/* The page reaches `out` whole or not at all. */
	if (!(mem = open_memstream(&page, &len)) ||
	    (!(error = write_page(mem, r, m, s, a, since, until, &d)) &&
	     fflush(mem)))
		error = gm_error_set(GM_ERROR, "out of memory");
	if (error < 0)
		goto out;
	if (fwrite(page, 1, len, out) != len || ferror(out))
		error = gm_error_set(GM_ERROR, "write error: %s",
				     strerror(errno));
out:
	if (mem)
		fclose(mem);
	free(page);
	gm_unowned_dirs_release(&d);
	gm_activity_free(a);
	return error;
}
