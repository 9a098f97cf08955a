// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_perf_compare: is the candidate kernel worse than the baseline?
 *
 * Every RCU performance regression found so far was a before/after
 * comparison judged by hand in a mail: with and without a commit (three
 * runs each), with and without a boot option (one boot each), with and
 * without dcache_rcu (five to eight runs each). This tool makes it one
 * command with a verdict a bot can act on. It merges the raw samples of
 * each metric ("<test>.<metric>") over all results files of a side, and
 * judges each metric with rp_compare() (the verdict shared with boot_ab):
 * regressed only when the change is significant (p < alpha) AND worse than
 * the metric's allowed change; "no significant change" only when the test
 * could have seen the allowed change (minimum detectable effect); else
 * inconclusive.
 *
 *	rcu_perf_compare [options] BASE... -- CAND...
 *	rcu_perf_compare [options] --base PATH... --cand PATH...
 *	rcu_perf_compare --repeat DIR --base-cmd CMD --cand-cmd CMD [options]
 *	rcu_perf_compare --svg DIR [PATH...]	(plots; default input: DIR)
 *	rcu_perf_compare --kcidb FILE [PATH...]	(KCIDB v4 test objects)
 *	rcu_perf_compare --machine-key		(names baselines/<key>/)
 *
 * PATH is a results file or a directory of them (*.json). Exit status:
 * 0 no regression, 1 a regression, 2 bad usage or input, 3 inconclusive
 * (4: a --repeat command skipped).
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rcu_perf.h"

#define PROG		"rcu_perf_compare"
#define EXIT_REGRESSED	1
#define EXIT_USAGE	2
#define EXIT_INCONCL	3
#define EXIT_SKIP	4
#define MAX_ARGS	256

static struct rp_param params[] = {
	RP_MAX("allowed_change", "%", 10,
	       "healthy runs of GP latency differ by ~5%; smaller changes are noise"),
	RP_MIN("alpha", "p-value", 0.05,
	       "a change is significant below this: 1 false alarm in 20 per metric"),
	RP_SETTING("repeat_budget", "s", 600,
		   "--repeat stops starting rounds after this much time"),
	RP_SETTING("repeat_min_rounds", "count", 2,
		   "a single run per side says nothing about run-to-run noise"),
	RP_SETTING("repeat_max_rounds", "count", 10,
		   "beyond this the metric is too noisy for the allowed change"),
	{ }
};

enum { BASE, CAND, NR_SIDES };
static const char * const side_name[NR_SIDES] = { "baseline", "candidate" };
static const char * const side_file[NR_SIDES] = { "base", "cand" };

/* One metric of one test, merged over all the runs of each side. */
struct metric {
	char *key;		/* "<test>.<metric>" */
	char *test;
	char *name;
	char *unit;
	bool higher_is_better;
	struct rp_samples v[NR_SIDES];
	int runs[NR_SIDES];	/* results files that had it */
	double allowed;		/* allowed change, % */
	struct rp_cmp cmp;
	bool compared;
};

/* One KTAP check of one results file, for --kcidb without a baseline. */
struct check {
	char *test;
	char *name;
	char *verdict;		/* "pass", "fail", "skip", "error" */
	char *unit;
	double measured;
	int file;		/* index over all files read */
	char *start_time;	/* the run's "timestamp", or NULL */
	double duration;	/* the run's "duration_s", or NAN */
};

struct allow {
	const char *glob;
	double pct;
};

static struct {
	const char *paths[NR_SIDES][MAX_ARGS];
	int nr_paths[NR_SIDES];
	bool after_dashdash;
	const char *metric_globs[MAX_ARGS];
	int nr_metric_globs;
	struct allow allows[MAX_ARGS];
	int nr_allows;
	bool ktap;
	bool table;
	const char *labels[NR_SIDES];
	bool help, list, machine_key;
	const char *kcidb;
	const char *origin;
	const char *build_id;
	const char *run_id;
	const char *svg_dir;
	const char *repeat_dir;
	const char *cmd[NR_SIDES];
} o = { .origin = "rcu_perf", .labels = { "baseline", "candidate" } };

static struct metric *metrics;
static size_t nr_metrics, cap_metrics;
static struct check *checks;
static size_t nr_checks, cap_checks;
static int nr_files[NR_SIDES];
static int nr_files_total;
static char kernel_release[NR_SIDES][128];

static __printf(1, 2) __noreturn void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		die("out of memory");
	return d;
}

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

static const char usage_text[] =
	"Inputs (PATH: a results file or a directory of *.json results):\n"
	"  BASE... -- CAND...     baseline and candidate results\n"
	"  --base PATH            a baseline input (repeatable)\n"
	"  --cand PATH            a candidate input (repeatable)\n"
	"  Several runs of a side are merged sample by sample per metric.\n"
	"  Without a candidate, the inputs are summarized (or plotted, converted).\n"
	"Selection and limits:\n"
	"  --metric GLOB          only metrics whose <test>.<metric> matches\n"
	"                         (fnmatch, repeatable)\n"
	"  --allow GLOB=PCT       allowed change for matching metrics (overrides\n"
	"                         allowed_change; repeatable, the last match wins)\n"
	"Output:\n"
	"  --ktap                 KTAP: one result per metric (inconclusive: SKIP)\n"
	"  --table                one row per metric: medians, change, verdict\n"
	"  --labels BASE,CAND     the sides' names in the table (default\n"
	"                         baseline,candidate)\n"
	"  --kcidb FILE           KCIDB v4 I/O JSON test objects to FILE ('-': stdout)\n"
	"  --origin NAME          KCIDB origin (default rcu_perf)\n"
	"  --build-id ID          KCIDB build_id (default <origin>:<kernel release>)\n"
	"  --run-id ID            unique part of KCIDB test ids (default host-time)\n"
	"  --svg DIR              SVG plots into DIR (input DIR if no other input)\n"
	"  --machine-key          print this machine's key (CPU model and count, HZ,\n"
	"                         preemption model): \"make baseline\" records runs\n"
	"                         into baselines/<key>/\n"
	"Repeating until conclusive:\n"
	"  --repeat DIR           run the commands alternately, results in\n"
	"                         DIR/{base,cand}-NN.json (kept, appended to),\n"
	"                         until no metric is inconclusive or the budget ends\n"
	"  --base-cmd CMD         shell command producing a baseline run\n"
	"  --cand-cmd CMD         shell command producing a candidate run\n"
	"                         (each gets RCU_PERF_JSON=<its results file>)\n"
	"Exit: 0 no regression, 1 regression, 2 bad usage or input,\n"
	"      3 inconclusive, 4 a --repeat command skipped.\n";

/* "--opt VALUE" or "--opt=VALUE" at argv[i]; NULL if not @opt. */
static const char *opt_val(int argc, char **argv, int i, const char *opt,
			   int *used)
{
	const char *a = argv[i];
	size_t n = strlen(opt);

	if (!strncmp(a, opt, n) && a[n] == '=') {
		*used = 1;
		return a + n + 1;
	}
	if (strcmp(a, opt))
		return NULL;
	if (i + 1 >= argc)
		die("option %s needs a value", opt);
	*used = 2;
	return argv[i + 1];
}

static void add_path(int side, const char *p)
{
	if (o.nr_paths[side] >= MAX_ARGS)
		die("too many inputs");
	o.paths[side][o.nr_paths[side]++] = p;
}

/* --allow GLOB=PCT */
static void add_allow(const char *v)
{
	const char *eq = strrchr(v, '=');
	struct allow *al;
	char *glob;

	if (o.nr_allows >= MAX_ARGS)
		die("too many --allow options");
	al = &o.allows[o.nr_allows];
	if (!eq || eq == v || rp_parse_double(eq + 1, &al->pct) || al->pct < 0)
		die("--allow %s: expected GLOB=PERCENT (a number >= 0)", v);
	glob = xstrdup(v);
	glob[eq - v] = '\0';
	al->glob = glob;
	o.nr_allows++;
}

/* --labels BASE,CAND: short names without blanks, for the table's header */
static void set_labels(const char *v)
{
	const char *comma = strchr(v, ',');
	char *b;

	if (!comma || comma == v || !comma[1] || strchr(comma + 1, ',') ||
	    strpbrk(v, " \t\n") || strlen(v) > 40)
		die("--labels %s: expected BASE,CAND (two short names)", v);
	b = xstrdup(v);
	b[comma - v] = '\0';
	o.labels[BASE] = b;
	o.labels[CAND] = b + (comma - v) + 1;
}

/* Options with a value, in the order of vopt_name[]. */
enum {
	VO_BASE, VO_CAND, VO_METRIC, VO_ALLOW, VO_KCIDB, VO_ORIGIN,
	VO_BUILD_ID, VO_RUN_ID, VO_SVG, VO_REPEAT, VO_BASE_CMD, VO_CAND_CMD,
	VO_LABELS, NR_VOPTS,
};

static const char * const vopt_name[NR_VOPTS] = {
	"--base", "--cand", "--metric", "--allow", "--kcidb", "--origin",
	"--build-id", "--run-id", "--svg", "--repeat", "--base-cmd",
	"--cand-cmd", "--labels",
};

static int extra_opt(int argc, char **argv, int i, int *used)
{
	const char *a = argv[i], *v = NULL;
	int k;

	*used = 1;
	if (o.after_dashdash) {
		add_path(CAND, a);
		return 1;
	}
	if (!strcmp(a, "--")) {
		o.after_dashdash = true;
		return 1;
	}
	if (a[0] != '-' || !a[1]) {
		add_path(BASE, a);
		return 1;
	}
	if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		o.help = true;
		return 1;
	}
	if (!strcmp(a, "--list")) {
		o.list = true;
		return 1;
	}
	if (!strcmp(a, "--machine-key")) {
		o.machine_key = true;
		return 1;
	}
	if (!strcmp(a, "--ktap")) {
		o.ktap = true;
		return 1;
	}
	if (!strcmp(a, "--table")) {
		o.table = true;
		return 1;
	}
	for (k = 0; k < NR_VOPTS; k++) {
		v = opt_val(argc, argv, i, vopt_name[k], used);
		if (v)
			break;
	}
	switch (k) {
	case VO_BASE:
		add_path(BASE, v);
		break;
	case VO_CAND:
		add_path(CAND, v);
		break;
	case VO_METRIC:
		if (o.nr_metric_globs >= MAX_ARGS)
			die("too many --metric options");
		o.metric_globs[o.nr_metric_globs++] = v;
		break;
	case VO_ALLOW:
		add_allow(v);
		break;
	case VO_KCIDB:
		o.kcidb = v;
		break;
	case VO_ORIGIN:
		o.origin = v;
		break;
	case VO_BUILD_ID:
		o.build_id = v;
		break;
	case VO_RUN_ID:
		o.run_id = v;
		break;
	case VO_SVG:
		o.svg_dir = v;
		break;
	case VO_REPEAT:
		o.repeat_dir = v;
		break;
	case VO_BASE_CMD:
		o.cmd[BASE] = v;
		break;
	case VO_CAND_CMD:
		o.cmd[CAND] = v;
		break;
	case VO_LABELS:
		set_labels(v);
		break;
	default:
		return 0;	/* a common option, or unknown */
	}
	return 1;
}

static const struct rp_test test = {
	.name = PROG,
	.summary = "Before/after comparison of rcu_perf JSON results with statistics.",
	.params = params,
	.extra_usage = usage_text,
	.extra_opt = extra_opt,
};

static bool valid_origin(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= '0' && *s <= '9') &&
		    *s != '_')
			return false;
	return true;
}

static void parse_options(int argc, char **argv)
{
	double alpha;

	if (rp_parse(&test, argc, argv))
		exit(EXIT_USAGE);
	if (o.help) {
		rp_usage(stdout);
		exit(0);
	}
	if (o.list) {
		rp_list_params(stdout);
		exit(0);
	}
	if (o.machine_key) {
		char key[256];

		if (rp_machine_key(key, sizeof(key)))
			die("cannot name this machine");
		printf("%s\n", key);
		exit(0);
	}
	if (rp_opts.nr_knobs)
		die("--knob: the comparison changes nothing in the kernel; %s",
		    "give it to the program in --base-cmd/--cand-cmd");
	if (rp_opts.baseline && !strcmp(rp_opts.baseline_from, "--baseline"))
		die("--baseline %s: the baseline's results are inputs here: --base %s",
		    rp_opts.baseline, rp_opts.baseline);
	alpha = rp_val("alpha");
	if (!(alpha > 0 && alpha < 1))
		die("alpha %g: must be between 0 and 1", alpha);
	if (rp_val("repeat_min_rounds") < 1 || rp_val("repeat_max_rounds") < 1)
		die("repeat_min_rounds and repeat_max_rounds must be >= 1");
	if (!valid_origin(o.origin))
		die("--origin %s: KCIDB origins are [a-z0-9_]+", o.origin);
	if (o.build_id && !strchr(o.build_id, ':'))
		die("--build-id %s: KCIDB ids are <origin>:<anything>", o.build_id);
	if (o.table && o.ktap)
		die("--table and --ktap: choose one");
	if (o.repeat_dir && !o.cmd[BASE] && !o.cmd[CAND])
		die("--repeat needs --base-cmd and/or --cand-cmd");
	if (!o.repeat_dir && (o.cmd[BASE] || o.cmd[CAND]))
		die("--base-cmd/--cand-cmd need --repeat DIR");
	if (!o.repeat_dir && !o.nr_paths[BASE] && !o.nr_paths[CAND]) {
		if (!o.svg_dir)
			die("no input (see --help)");
		add_path(BASE, o.svg_dir);
	}
	if (!o.repeat_dir && !o.nr_paths[BASE])
		die("no baseline input (BASE... -- CAND..., or --base PATH)");
}

/* ------------------------------------------------------------------ */
/* Reading results                                                     */
/* ------------------------------------------------------------------ */

static bool selected(const char *key)
{
	int i;

	if (!o.nr_metric_globs)
		return true;
	for (i = 0; i < o.nr_metric_globs; i++)
		if (!fnmatch(o.metric_globs[i], key, 0))
			return true;
	return false;
}

static double allowed_for(const char *key)
{
	double pct = rp_val("allowed_change");
	int i;

	for (i = 0; i < o.nr_allows; i++)
		if (!fnmatch(o.allows[i].glob, key, 0))
			pct = o.allows[i].pct;
	return pct;
}

static struct metric *find_metric(const char *test_name, const char *name)
{
	size_t i, tl = strlen(test_name);
	struct metric *m;

	for (i = 0; i < nr_metrics; i++) {
		m = &metrics[i];
		if (!strncmp(m->key, test_name, tl) && m->key[tl] == '.' &&
		    !strcmp(m->key + tl + 1, name))
			return m;
	}
	if (nr_metrics == cap_metrics) {
		cap_metrics = cap_metrics ? 2 * cap_metrics : 32;
		metrics = xrealloc(metrics, cap_metrics * sizeof(*metrics));
	}
	m = &metrics[nr_metrics++];
	memset(m, 0, sizeof(*m));
	m->key = xrealloc(NULL, tl + strlen(name) + 2);
	sprintf(m->key, "%s.%s", test_name, name);
	m->test = xstrdup(test_name);
	m->name = xstrdup(name);
	return m;
}

static const struct rp_jval *get_typed(const char *path,
				       const struct rp_jval *obj,
				       const char *key, enum rp_jtype type,
				       bool required)
{
	static const char * const tname[] = {
		"null", "a boolean", "a number", "a string", "an array",
		"an object",
	};
	const struct rp_jval *v = rp_json_get(obj, key);

	if (!v || (v->type == RP_JNULL && !required)) {
		if (required)
			die("%s: missing \"%s\"", path, key);
		return NULL;
	}
	if (v->type != type)
		die("%s: \"%s\" is not %s", path, key, tname[type]);
	return v;
}

static void load_metric(const char *path, int side, const char *test_name,
			const struct rp_jval *jm, size_t idx)
{
	const struct rp_jval *name, *unit, *better, *samples;
	struct metric *m;
	size_t i, added = 0;
	bool higher;

	if (jm->type != RP_JOBJ)
		die("%s: metrics[%zu] is not an object", path, idx);
	name = get_typed(path, jm, "name", RP_JSTR, true);
	if (!*name->str || strpbrk(name->str, " \t\n"))
		die("%s: metrics[%zu]: bad name '%s'", path, idx, name->str);
	unit = get_typed(path, jm, "unit", RP_JSTR, false);
	better = get_typed(path, jm, "better", RP_JSTR, false);
	samples = get_typed(path, jm, "samples", RP_JARR, true);
	higher = better && !strcmp(better->str, "higher");
	if (better && !higher && strcmp(better->str, "lower"))
		die("%s: metric %s: \"better\" is '%s', not lower/higher", path,
		    name->str, better->str);

	m = find_metric(test_name, name->str);
	if (!m->unit) {
		m->unit = xstrdup(unit ? unit->str : "");
		m->higher_is_better = higher;
	} else if (strcmp(m->unit, unit ? unit->str : "")) {
		die("%s: metric %s in '%s', elsewhere in '%s'", path, m->key,
		    unit ? unit->str : "", m->unit);
	} else if (m->higher_is_better != higher) {
		die("%s: metric %s: \"better\" differs from other files", path,
		    m->key);
	}
	for (i = 0; i < samples->len; i++) {
		const struct rp_jval *s = samples->items[i];

		if (s->type == RP_JNULL)
			continue;	/* could not be measured */
		if (s->type != RP_JNUM || !isfinite(s->num))
			die("%s: metric %s: sample %zu is not a finite number",
			    path, m->key, i);
		if (rp_samples_add(&m->v[side], s->num))
			die("out of memory");
		added++;
	}
	if (added)
		m->runs[side]++;
}

static void load_check(const char *path, const char *test_name,
		       const struct rp_jval *jc, size_t idx)
{
	const struct rp_jval *name, *verdict, *measured, *unit;
	struct check *c;

	if (jc->type != RP_JOBJ)
		die("%s: checks[%zu] is not an object", path, idx);
	name = get_typed(path, jc, "name", RP_JSTR, false);
	if (!name)
		return;		/* "the rest was skipped": nothing to report */
	verdict = get_typed(path, jc, "verdict", RP_JSTR, true);
	measured = get_typed(path, jc, "measured", RP_JNUM, false);
	unit = get_typed(path, jc, "unit", RP_JSTR, false);
	if (nr_checks == cap_checks) {
		cap_checks = cap_checks ? 2 * cap_checks : 32;
		checks = xrealloc(checks, cap_checks * sizeof(*checks));
	}
	c = &checks[nr_checks++];
	c->test = xstrdup(test_name);
	c->name = xstrdup(name->str);
	c->verdict = xstrdup(verdict->str);
	c->unit = unit ? xstrdup(unit->str) : NULL;
	c->measured = measured ? measured->num : NAN;
	c->file = nr_files_total;
}

/*
 * One results file. A file given by name must be rcu_perf results; in a
 * directory, other JSON (say, a KCIDB file written there) is passed over.
 */
static void load_file(const char *path, int side, bool from_dir)
{
	const struct rp_jval *schema, *version, *tname, *arr, *sys, *rel;
	const struct rp_jval *ts, *dur;
	size_t i, first_check;
	struct rp_jval *doc;
	char err[256];

	doc = rp_json_parse_file(path, err, sizeof(err));
	if (!doc)
		die("%s", err);	/* names the file */
	if (doc->type != RP_JOBJ)
		die("%s: not an rcu_perf results file (not a JSON object)", path);
	schema = rp_json_get(doc, "schema");
	if (!schema || schema->type != RP_JSTR ||
	    strcmp(schema->str, RP_RESULTS_SCHEMA)) {
		if (from_dir) {
			rp_json_free(doc);
			return;
		}
		die("%s: not an rcu_perf results file (\"schema\" is not \"%s\")",
		    path, RP_RESULTS_SCHEMA);
	}
	version = get_typed(path, doc, "version", RP_JNUM, true);
	if (version->num != RP_RESULTS_VERSION)
		die("%s: results version %g, this tool reads version %d", path,
		    version->num, RP_RESULTS_VERSION);
	tname = get_typed(path, doc, "test", RP_JSTR, true);
	if (!*tname->str || strpbrk(tname->str, " \t\n./"))
		die("%s: bad test name '%s'", path, tname->str);

	arr = get_typed(path, doc, "metrics", RP_JARR, true);
	for (i = 0; i < arr->len; i++)
		load_metric(path, side, tname->str, arr->items[i], i);
	arr = get_typed(path, doc, "checks", RP_JARR, false);
	first_check = nr_checks;
	for (i = 0; arr && i < arr->len; i++)
		load_check(path, tname->str, arr->items[i], i);
	ts = get_typed(path, doc, "timestamp", RP_JSTR, false);
	dur = get_typed(path, doc, "duration_s", RP_JNUM, false);
	for (i = first_check; i < nr_checks; i++) {
		checks[i].start_time = ts ? xstrdup(ts->str) : NULL;
		checks[i].duration = dur ? dur->num : NAN;
	}

	sys = get_typed(path, doc, "system", RP_JOBJ, false);
	rel = sys ? rp_json_get(sys, "kernel_release") : NULL;
	if (rel && rel->type == RP_JSTR && !kernel_release[side][0])
		snprintf(kernel_release[side], sizeof(kernel_release[side]),
			 "%s", rel->str);
	nr_files[side]++;
	nr_files_total++;
	rp_json_free(doc);
}

static int filter_json(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 &&
	       !strcmp(d->d_name + n - 5, ".json");
}

/* Files of a directory matching @prefix*.json, in name order. */
static int list_dir(const char *dir, const char *prefix, char ***out)
{
	struct dirent **ents;
	char **paths = NULL;
	int n, i, k = 0;

	n = scandir(dir, &ents, filter_json, alphasort);
	if (n < 0)
		die("%s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		char *p;

		if (prefix && strncmp(ents[i]->d_name, prefix, strlen(prefix))) {
			free(ents[i]);
			continue;
		}
		p = xrealloc(NULL, strlen(dir) + strlen(ents[i]->d_name) + 2);
		sprintf(p, "%s/%s", dir, ents[i]->d_name);
		paths = xrealloc(paths, (k + 1) * sizeof(*paths));
		paths[k++] = p;
		free(ents[i]);
	}
	free(ents);
	*out = paths;
	return k;
}

static void load_path(const char *path, int side)
{
	char **files, why[PATH_MAX + 128];
	int n, i, before = nr_files[side];
	struct stat st;

	if (stat(path, &st))
		die("%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		load_file(path, side, false);
		return;
	}
	/* Root judges kernels by these files: no one else may plant them. */
	if (rp_check_trusted(path, -1, why, sizeof(why)))
		die("%s: %s", path, why);
	n = list_dir(path, NULL, &files);
	for (i = 0; i < n; i++) {
		load_file(files[i], side, true);
		free(files[i]);
	}
	free(files);
	if (nr_files[side] == before)
		die("%s: no rcu_perf results (*.json) in this directory", path);
}

/* ------------------------------------------------------------------ */
/* Comparing and the table                                             */
/* ------------------------------------------------------------------ */

struct tally {
	int n[4];		/* by enum rp_cmp_verdict */
	int missing;		/* in the baseline, not in the candidate */
};

static void compare_all(struct tally *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < nr_metrics; i++) {
		struct metric *m = &metrics[i];

		m->compared = false;
		if (!selected(m->key) || !m->v[BASE].n)
			continue;
		if (!m->v[CAND].n) {
			t->missing++;
			continue;
		}
		m->allowed = allowed_for(m->key);
		rp_compare(m->v[BASE].v, m->v[BASE].n, m->v[CAND].v,
			   m->v[CAND].n, m->higher_is_better, m->allowed,
			   rp_val("alpha"), &m->cmp);
		m->compared = true;
		t->n[m->cmp.verdict]++;
	}
}

static int exit_code(const struct tally *t)
{
	if (t->n[RP_CMP_REGRESSED])
		return EXIT_REGRESSED;
	if (t->n[RP_CMP_INCONCLUSIVE] || t->missing)
		return EXIT_INCONCL;
	return 0;
}

/*
 * rp_compare() picks the test by sample size (Welch below 5 samples on a
 * side, as stats.c says); name the one whose p-value it reports.
 */
static const char *test_used(const struct metric *m)
{
	const struct rp_samples *a = &m->v[BASE], *b = &m->v[CAND];
	double mw, welch;

	if (a->n < 2 && b->n < 2)
		return "n < 2 on both sides: no test";
	if (a->n < 2 || b->n < 2)
		return "Student t prediction interval";
	mw = rp_mann_whitney_p(a->v, a->n, b->v, b->n);
	welch = rp_welch_p(a->v, a->n, b->v, b->n);
	if (m->cmp.p == mw && m->cmp.p != welch)
		return "Mann-Whitney U";
	if (m->cmp.p == welch && m->cmp.p != mw)
		return "Welch t";
	return a->n < 5 || b->n < 5 ? "Welch t" : "Mann-Whitney U";
}

static const char *pfx(void)
{
	return o.ktap ? "# " : "";
}

static void print_summary_row(const char *label, const struct rp_summary *s,
			      int runs)
{
	printf("%s  %-9s %5zu %4d %11.5g +- %-10.4g %11.5g %11.5g %11.5g\n",
	       pfx(), label, s->n, runs, s->mean, s->stddev, s->median, s->min,
	       s->max);
}

static void print_header(const struct metric *m)
{
	printf("%s%s [%s, %s is better]\n", pfx(), m->key,
	       *m->unit ? m->unit : "no unit",
	       m->higher_is_better ? "higher" : "lower");
	printf("%s  %-9s %5s %4s %11s    %-10s %11s %11s %11s\n", pfx(), "",
	       "n", "runs", "mean", "stddev", "median", "min", "max");
}

/*
 * --table: one row per metric, the medians of both sides and the change
 * between them, the way A/B results are quoted in a mail.
 */
static int key_width(void)
{
	int w = 6;
	size_t i;

	for (i = 0; i < nr_metrics; i++)
		if (selected(metrics[i].key) && (int)strlen(metrics[i].key) > w)
			w = strlen(metrics[i].key);
	return w;
}

static void print_table_header(int w)
{
	printf("%-*s %-7s %11s %11s %8s %7s %5s %7s  %s\n", w, "metric", "unit",
	       o.labels[BASE], o.labels[CAND], "change", "allowed", "n",
	       "p", "verdict");
}

static void print_table_row(const struct metric *m, int w)
{
	const struct rp_cmp *c = &m->cmp;
	char n[32];

	snprintf(n, sizeof(n), "%zu/%zu", c->a.n, c->b.n);
	printf("%-*s %-7s %11.5g %11.5g %+7.2f%% %6.4g%% %5s %7.2g  %s\n", w,
	       m->key, *m->unit ? m->unit : "-", c->a.median, c->b.median,
	       c->change_pct, m->allowed, n, c->p,
	       c->verdict == RP_CMP_INCONCLUSIVE && !isfinite(c->mde_pct) ?
	       "inconclusive (too few samples)" :
	       rp_cmp_verdict_name(c->verdict));
}

static void print_compared(const struct metric *m, int *ktap_nr)
{
	const struct rp_cmp *c = &m->cmp;

	print_header(m);
	print_summary_row("baseline", &c->a, m->runs[BASE]);
	print_summary_row("candidate", &c->b, m->runs[CAND]);
	printf("%s  change %+.1f %%  p %.2g (%s)  MDE %.1f %%  allowed %.4g %%: %s\n",
	       pfx(), c->change_pct, c->p, test_used(m), c->mde_pct,
	       m->allowed, rp_cmp_verdict_name(c->verdict));
	if (!o.ktap)
		return;
	/* The same "measured vs limit" line as every other check. */
	printf("# %s: measured %+.1f %% worse vs limit <= %.4g %% (allowed_change);",
	       m->key, (m->higher_is_better ? -1 : 1) * c->change_pct,
	       m->allowed);
	printf(" p %.2g vs < %.4g (alpha); MDE %.1f %%\n", c->p, rp_val("alpha"),
	       c->mde_pct);
	++*ktap_nr;
	switch (c->verdict) {
	case RP_CMP_REGRESSED:
		printf("not ok %d %s\n", *ktap_nr, m->key);
		break;
	case RP_CMP_INCONCLUSIVE:
		printf("ok %d %s # SKIP inconclusive: %s\n", *ktap_nr, m->key,
		       isfinite(c->mde_pct) ?
		       "the minimum detectable effect exceeds the allowed change" :
		       "fewer than 2 samples on a side");
		break;
	default:
		printf("ok %d %s\n", *ktap_nr, m->key);
	}
}

static int report_compare(void)
{
	struct tally t;
	int nr = 0, ktap_nr = 0, w = key_width();
	size_t i;

	compare_all(&t);
	for (i = 0; i < nr_metrics; i++)
		if (selected(metrics[i].key) && metrics[i].v[BASE].n)
			nr++;
	if (!nr)
		die("no baseline samples%s", o.nr_metric_globs ?
		    " of the metrics matching --metric" : "");
	if (o.ktap)
		printf("TAP version 13\n1..%d\n", nr);
	printf("%s%s: %d baseline and %d candidate results files;", pfx(), PROG,
	       nr_files[BASE], nr_files[CAND]);
	printf(" allowed change %.4g %%%s, alpha %.4g\n",
	       rp_val("allowed_change"),
	       o.nr_allows ? " (--allow: per metric below)" : "",
	       rp_val("alpha"));
	if (o.table)
		print_table_header(w);
	for (i = 0; i < nr_metrics; i++) {
		const struct metric *m = &metrics[i];

		if (!selected(m->key))
			continue;
		if (m->compared && o.table) {
			print_table_row(m, w);
		} else if (m->compared) {
			print_compared(m, &ktap_nr);
		} else if (m->v[BASE].n) {
			printf("%s%s: no candidate samples\n", pfx(), m->key);
			if (o.ktap)
				printf("ok %d %s # SKIP no candidate samples\n",
				       ++ktap_nr, m->key);
		} else if (m->v[CAND].n) {
			printf("%s%s: only in the candidate (not compared)\n",
			       pfx(), m->key);
		}
	}
	printf("%sverdict: %d regressed, %d improved, %d %s, %d inconclusive, %d missing\n",
	       pfx(), t.n[RP_CMP_REGRESSED], t.n[RP_CMP_IMPROVED],
	       t.n[RP_CMP_SAME], rp_cmp_verdict_name(RP_CMP_SAME),
	       t.n[RP_CMP_INCONCLUSIVE], t.missing);
	if (o.ktap)
		printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
		       t.n[RP_CMP_SAME] + t.n[RP_CMP_IMPROVED],
		       t.n[RP_CMP_REGRESSED],
		       t.n[RP_CMP_INCONCLUSIVE] + t.missing);
	return exit_code(&t);
}

/* Without a candidate: the summary of each metric. */
static void report_single(void)
{
	struct rp_summary s;
	size_t i;

	printf("%s: %d results files\n", PROG, nr_files[BASE]);
	for (i = 0; i < nr_metrics; i++) {
		const struct metric *m = &metrics[i];

		if (!selected(m->key) || !m->v[BASE].n)
			continue;
		rp_summarize(m->v[BASE].v, m->v[BASE].n, &s);
		print_header(m);
		print_summary_row("results", &s, m->runs[BASE]);
	}
}

/* ------------------------------------------------------------------ */
/* KCIDB                                                               */
/* ------------------------------------------------------------------ */

/*
 * KCIDB I/O schema v4.5 (kcidb-io, kcidb_io/schema/v04_05.py): a test has
 * "id" and "build_id" ("<origin>:<unique>"), "origin" ([a-z0-9_]+), "path"
 * (dot-separated, [.a-zA-Z0-9_-]*), "status" (FAIL, ERROR, MISS, PASS,
 * DONE, SKIP), "number" {"value", "unit", "prefix": "metric"|"binary"},
 * "comment", "misc"; nothing may be null.
 */
#define KCIDB_MAJOR	4
#define KCIDB_MINOR	5

static void kcidb_sanitize(char *s)
{
	for (; *s; s++)
		if (!strchr("._-", *s) && !(*s >= 'a' && *s <= 'z') &&
		    !(*s >= 'A' && *s <= 'Z') && !(*s >= '0' && *s <= '9'))
			*s = '_';
}

/* Time units go out in seconds with a metric prefix, so they scale. */
static void kcidb_number(struct rp_jw *w, double v, const char *unit)
{
	static const struct { const char *u; double div; } tu[] = {
		{ "ns", 1e9 }, { "us", 1e6 }, { "ms", 1e3 }, { "s", 1 },
	};
	size_t i;

	if (!isfinite(v))
		return;
	rp_jw_obj_begin(w, "number");
	for (i = 0; i < ARRAY_SIZE(tu); i++)
		if (unit && !strcmp(unit, tu[i].u))
			break;
	if (i < ARRAY_SIZE(tu)) {
		rp_jw_num(w, "value", v / tu[i].div);
		rp_jw_str(w, "unit", "s");
		rp_jw_str(w, "prefix", "metric");
	} else {
		rp_jw_num(w, "value", v);
		if (unit && *unit)
			rp_jw_str(w, "unit", unit);
	}
	rp_jw_obj_end(w);
}

static void kcidb_num(struct rp_jw *w, const char *key, double v)
{
	if (isfinite(v))
		rp_jw_num(w, key, v);
}

static void kcidb_test_begin(struct rp_jw *w, const char *build_id,
			     const char *run_id, const char *idpart,
			     const char *path, const char *status)
{
	char *id, *p;

	p = xrealloc(NULL, strlen(path) + 16);
	sprintf(p, "rcu_perf.%s", path);
	kcidb_sanitize(p);
	id = xrealloc(NULL, strlen(o.origin) + strlen(run_id) +
		      strlen(idpart) + strlen(p) + 4);
	sprintf(id, "%s:%s%s%s", o.origin, run_id, idpart, p);
	rp_jw_obj_begin(w, NULL);
	rp_jw_str(w, "id", id);
	rp_jw_str(w, "build_id", build_id);
	rp_jw_str(w, "origin", o.origin);
	rp_jw_str(w, "path", p);
	rp_jw_str(w, "status", status);
	free(id);
	free(p);
}

static const char *kcidb_status_cmp(enum rp_cmp_verdict v)
{
	switch (v) {
	case RP_CMP_REGRESSED:
		return "FAIL";
	case RP_CMP_INCONCLUSIVE:
		return "DONE";	/* measured, but no verdict on the code */
	default:
		return "PASS";
	}
}

static const char *kcidb_status_check(const char *verdict)
{
	if (!strcmp(verdict, "pass"))
		return "PASS";
	if (!strcmp(verdict, "fail"))
		return "FAIL";
	if (!strcmp(verdict, "skip"))
		return "SKIP";
	return "ERROR";
}

static void write_kcidb(bool compare)
{
	char build_id[256], run_id[160], host[64] = "host", buf[512];
	const char *rel;
	struct utsname u;
	struct rp_jw w;
	FILE *f;
	size_t i;

	rel = kernel_release[compare ? CAND : BASE];
	if (!*rel && !uname(&u))
		rel = u.release;
	snprintf(build_id, sizeof(build_id), "%s:%s", o.origin, rel);
	if (o.build_id)
		snprintf(build_id, sizeof(build_id), "%s", o.build_id);
	gethostname(host, sizeof(host) - 1);
	snprintf(run_id, sizeof(run_id), "%s-%lld", host, (long long)time(NULL));
	if (o.run_id)
		snprintf(run_id, sizeof(run_id), "%s", o.run_id);

	f = strcmp(o.kcidb, "-") ? fopen(o.kcidb, "w") : stdout;
	if (!f)
		die("%s: %s", o.kcidb, strerror(errno));
	rp_jw_init(&w, f);
	rp_jw_obj_begin(&w, NULL);
	rp_jw_obj_begin(&w, "version");
	rp_jw_int(&w, "major", KCIDB_MAJOR);
	rp_jw_int(&w, "minor", KCIDB_MINOR);
	rp_jw_obj_end(&w);
	rp_jw_arr_begin(&w, "tests");
	for (i = 0; i < nr_metrics; i++) {
		const struct metric *m = &metrics[i];
		const struct rp_cmp *c = &m->cmp;
		struct rp_summary s;

		if (!selected(m->key) || !m->v[BASE].n)
			continue;
		if (compare && !m->compared)
			continue;
		if (!compare) {
			rp_summarize(m->v[BASE].v, m->v[BASE].n, &s);
			kcidb_test_begin(&w, build_id, run_id, ".", m->key,
					 "DONE");
			kcidb_number(&w, s.median, m->unit);
			snprintf(buf, sizeof(buf),
				 "median of %zu samples: %.5g %s", s.n,
				 s.median, m->unit);
			rp_jw_str(&w, "comment", buf);
			rp_jw_obj_begin(&w, "misc");
			rp_jw_str(&w, "unit", m->unit);
			rp_jw_int(&w, "samples", (long long)s.n);
			kcidb_num(&w, "mean", s.mean);
			kcidb_num(&w, "stddev", s.stddev);
			kcidb_num(&w, "min", s.min);
			kcidb_num(&w, "max", s.max);
			rp_jw_obj_end(&w);
			rp_jw_obj_end(&w);
			continue;
		}
		kcidb_test_begin(&w, build_id, run_id, ".", m->key,
				 kcidb_status_cmp(c->verdict));
		kcidb_number(&w, c->b.median, m->unit);
		snprintf(buf, sizeof(buf),
			 "median %.5g %s vs baseline %.5g %s: %+.1f %%, p %.2g: %s",
			 c->b.median, m->unit, c->a.median, m->unit,
			 c->change_pct, c->p, rp_cmp_verdict_name(c->verdict));
		rp_jw_str(&w, "comment", buf);
		rp_jw_obj_begin(&w, "misc");
		rp_jw_str(&w, "verdict", rp_cmp_verdict_name(c->verdict));
		rp_jw_str(&w, "unit", m->unit);
		rp_jw_str(&w, "better", m->higher_is_better ? "higher" : "lower");
		kcidb_num(&w, "baseline_median", c->a.median);
		kcidb_num(&w, "candidate_median", c->b.median);
		rp_jw_int(&w, "baseline_samples", (long long)c->a.n);
		rp_jw_int(&w, "candidate_samples", (long long)c->b.n);
		kcidb_num(&w, "change_pct", c->change_pct);
		kcidb_num(&w, "p_value", c->p);
		kcidb_num(&w, "mde_pct", c->mde_pct);
		kcidb_num(&w, "allowed_change_pct", m->allowed);
		kcidb_num(&w, "alpha", rp_val("alpha"));
		if (kernel_release[BASE][0])
			rp_jw_str(&w, "baseline_kernel", kernel_release[BASE]);
		rp_jw_obj_end(&w);
		rp_jw_obj_end(&w);
	}
	for (i = 0; !compare && i < nr_checks; i++) {
		const struct check *c = &checks[i];
		char part[32], *path;

		path = xrealloc(NULL, strlen(c->test) + strlen(c->name) + 2);
		sprintf(path, "%s.%s", c->test, c->name);
		if (!selected(path)) {
			free(path);
			continue;
		}
		/* The same check in several runs: one test object each. */
		snprintf(part, sizeof(part), ".%d.", c->file);
		kcidb_test_begin(&w, build_id, run_id, part, path,
				 kcidb_status_check(c->verdict));
		if (strcmp(c->verdict, "skip"))
			kcidb_number(&w, c->measured, c->unit);
		if (c->start_time)
			rp_jw_str(&w, "start_time", c->start_time);
		if (isfinite(c->duration) && c->duration >= 0)
			rp_jw_num(&w, "duration", c->duration);
		rp_jw_obj_end(&w);
		free(path);
	}
	rp_jw_arr_end(&w);
	rp_jw_obj_end(&w);
	fputc('\n', f);
	if (f != stdout ? fclose(f) : fflush(f))
		die("%s: write error", o.kcidb);
}

/* ------------------------------------------------------------------ */
/* SVG plots                                                           */
/* ------------------------------------------------------------------ */

#define SVG_W		760
#define COL_BASE	"#1f77b4"
#define COL_CAND	"#ff7f0e"

static void svg_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static __printf(6, 7) void svg_text(FILE *f, double x, double y,
				     const char *anchor, const char *extra,
				     const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s>", x, y,
		anchor, extra ? " " : "", extra ? extra : "");
	svg_esc(f, buf);
	fputs("</text>\n", f);
}

/* <line>, <rect> with extra attributes (style) */
static void svg_line(FILE *f, double x1, double y1, double x2, double y2,
		     const char *style)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n",
		x1, y1, x2, y2, style);
}

static void svg_rect(FILE *f, double x, double y, double w, double h,
		     const char *fill, const char *style)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" %s/>\n",
		x, y, w, h, fill, style ? style : "");
}

static void svg_stroke(char *buf, size_t len, const char *col, int width)
{
	snprintf(buf, len, "stroke=\"%s\" stroke-width=\"%d\"", col, width);
}

static FILE *svg_open(const char *dir, const char *name, int h,
		      const char *title)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		SVG_W, h, SVG_W, h);
	svg_text(f, SVG_W / 2, 22, "middle", "font-size=\"15\"", "%s", title);
	printf("%swrote %s\n", pfx(), path);
	return f;
}

static void svg_close(FILE *f)
{
	fputs("</svg>\n", f);
	if (fclose(f))
		die("error writing an SVG file");
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) for 0..max. */
static double nice_step(double max, int ticks)
{
	double raw = max / ticks, mag, r;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	r = raw / mag;
	return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
}

static void svg_legend(FILE *f, double x, double y, bool two)
{
	svg_rect(f, x, y - 8, 12, 8, COL_BASE, NULL);
	svg_text(f, x + 16, y, "start", NULL, "%s", two ? "baseline" : "results");
	if (!two)
		return;
	svg_rect(f, x + 90, y - 8, 12, 8, COL_CAND, NULL);
	svg_text(f, x + 106, y, "start", NULL, "candidate");
}

/*
 * The numeric part of a metric name that varies within a family, e.g. the
 * 4 of "lookup.cpus4.ops": the last dot-separated component with digits.
 * Returns the component's start (or NULL); *num is the number, *fam the
 * name with the digits replaced by "N".
 */
static const char *name_number(const char *name, double *num, char *fam,
			       size_t len)
{
	const char *comp = name, *best = NULL, *p, *d;

	for (p = name;; p++) {
		if (*p == '.' || !*p) {
			for (d = comp; d < p && !(*d >= '0' && *d <= '9'); d++)
				;
			if (d < p)
				best = comp;
			if (!*p)
				break;
			comp = p + 1;
		}
	}
	if (!best)
		return NULL;
	for (d = best; !(*d >= '0' && *d <= '9'); d++)
		;
	/* digits only: the '.' after "cpus4" separates components */
	*num = 0;
	for (p = d; *p >= '0' && *p <= '9'; p++)
		*num = *num * 10 + (*p - '0');
	snprintf(fam, len, "%.*sN%s", (int)(d - name), name, p);
	return best;
}

/* A metric's row: min-max whisker, p10-p90 box, median tick. */
static void svg_box(FILE *f, const struct rp_summary *s, double x0,
		    double xs, double y, const char *col)
{
	char st[80];

	svg_stroke(st, sizeof(st), col, 1);
	svg_line(f, x0 + s->min * xs, y, x0 + s->max * xs, y, st);
	strcat(st, " fill-opacity=\"0.45\"");
	svg_rect(f, x0 + s->p10 * xs, y - 5, (s->p90 - s->p10) * xs, 10, col,
		 st);
	svg_stroke(st, sizeof(st), "black", 2);
	svg_line(f, x0 + s->median * xs, y - 7, x0 + s->median * xs, y + 7, st);
}

static bool plotted_as_curve(const struct metric *m, int sides);

/*
 * Every metric of @test that is not part of a scaling curve: one row per
 * metric on its own axis from 0 (latencies of different load levels differ
 * by orders of magnitude), baseline above candidate.
 */
static void plot_rows(const char *dir, const char *test_name, int sides)
{
	const double x0 = 230, x1 = SVG_W - 200, row = 58;
	struct rp_summary s[NR_SIDES];
	char title[256];
	size_t i;
	int n = 0, k;
	double y;
	FILE *f;

	for (i = 0; i < nr_metrics; i++)
		if (!strcmp(metrics[i].test, test_name) &&
		    selected(metrics[i].key) && metrics[i].v[BASE].n &&
		    !plotted_as_curve(&metrics[i], sides))
			n++;
	if (!n)
		return;
	snprintf(title, sizeof(title), "%s: median (tick), p10-p90 (box), min-max (line)",
		 test_name);
	f = svg_open(dir, test_name, 60 + n * row + 30, title);
	svg_legend(f, 20, 44, sides == 2);
	y = 60;
	for (i = 0; i < nr_metrics; i++) {
		const struct metric *m = &metrics[i];
		double max = 0, step, xs, t;

		if (strcmp(m->test, test_name) || !selected(m->key) ||
		    !m->v[BASE].n || plotted_as_curve(m, sides))
			continue;
		for (k = 0; k < sides; k++) {
			rp_summarize(m->v[k].v, m->v[k].n, &s[k]);
			if (s[k].n && s[k].max > max)
				max = s[k].max;
		}
		step = nice_step(max, 4);
		max = ceil(max / step) * step;
		if (!(max > 0))
			max = 1;
		xs = (x1 - x0) / max;
		svg_rect(f, 0, y, SVG_W, row, n % 2 ? "#f8f8f8" : "white", NULL);
		n++;
		svg_text(f, 10, y + 20, "start", NULL, "%s", m->name);
		svg_text(f, 10, y + 36, "start", "fill=\"#666\"", "%s, %s is better",
			 m->unit, m->higher_is_better ? "higher" : "lower");
		for (t = 0; t <= max * 1.0001; t += step) {
			svg_line(f, x0 + t * xs, y + 6, x0 + t * xs, y + 44,
				 "stroke=\"#ddd\"");
			svg_text(f, x0 + t * xs, y + 54, "middle",
				 "font-size=\"9\" fill=\"#666\"", "%g", t);
		}
		for (k = 0; k < sides; k++)
			if (s[k].n)
				svg_box(f, &s[k], x0, xs, y + 16 + 18 * k,
					k ? COL_CAND : COL_BASE);
		for (k = 0; k < sides; k++)
			svg_text(f, x1 + 24, y + 20 + 18 * k, "start", NULL,
				 "%.4g (n %zu)", s[k].median, s[k].n);
		if (sides == 2 && m->compared)
			svg_text(f, x1 + 24, y + 54, "start",
				 m->cmp.verdict == RP_CMP_REGRESSED ?
				 "font-weight=\"bold\" fill=\"#c00\"" : "fill=\"#333\"",
				 "%+.1f %% %s", m->cmp.change_pct,
				 m->cmp.verdict == RP_CMP_SAME ? "same" :
				 rp_cmp_verdict_name(m->cmp.verdict));
		y += row;
	}
	svg_close(f);
}

/* Members of the family of @m (same test and name with N), sorted by N. */
static int family_of(const struct metric *m, int sides, size_t *idx, int max)
{
	char fam[256], f2[256];
	double x, x2;
	int n = 0, i, j;
	size_t k;

	if (!name_number(m->name, &x, fam, sizeof(fam)))
		return 0;
	for (k = 0; k < nr_metrics && n < max; k++) {
		const struct metric *o2 = &metrics[k];

		if (strcmp(o2->test, m->test) || !selected(o2->key) ||
		    !o2->v[BASE].n || strcmp(o2->unit, m->unit) ||
		    !name_number(o2->name, &x2, f2, sizeof(f2)) ||
		    strcmp(f2, fam))
			continue;
		idx[n++] = k;
	}
	/* insertion sort by N */
	for (i = 1; i < n; i++) {
		for (j = i; j > 0; j--) {
			name_number(metrics[idx[j - 1]].name, &x, fam, sizeof(fam));
			name_number(metrics[idx[j]].name, &x2, fam, sizeof(fam));
			if (x <= x2)
				break;
			k = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = k;
		}
	}
	return n;
}

static bool plotted_as_curve(const struct metric *m, int sides)
{
	size_t idx[64];

	return family_of(m, sides, idx, 64) >= 2;
}

/* A scaling curve: median and p10-p90 per N (CPUs, load level), per side. */
static void plot_curve(const char *dir, const struct metric *first, int sides)
{
	const double x0 = 80, x1 = SVG_W - 30, y0 = 360, y1 = 60;
	struct rp_summary s[64][NR_SIDES];
	double xs[64], xmin, xmax, ymax = 0, step, t, sx, sy, dummy;
	char fam[256], file[300], title[320], xlabel[64];
	const char *comp;
	size_t idx[64];
	int n, i, k;
	FILE *f;

	n = family_of(first, sides, idx, 64);
	comp = name_number(first->name, &dummy, fam, sizeof(fam));
	/* the x label: the letters of the varying component, e.g. "cpus" */
	for (i = 0; comp[i] && comp[i] != '.' && i < (int)sizeof(xlabel) - 1; i++)
		xlabel[i] = (comp[i] >= '0' && comp[i] <= '9') ? ' ' : comp[i];
	xlabel[i] = '\0';
	for (i = 0; i < n; i++) {
		name_number(metrics[idx[i]].name, &xs[i], file, sizeof(file));
		for (k = 0; k < sides; k++) {
			rp_summarize(metrics[idx[i]].v[k].v,
				     metrics[idx[i]].v[k].n, &s[i][k]);
			if (s[i][k].n && s[i][k].p90 > ymax)
				ymax = s[i][k].p90;
		}
	}
	xmin = xs[0];
	xmax = xs[n - 1] > xmin ? xs[n - 1] : xmin + 1;
	step = nice_step(ymax, 5);
	ymax = ceil(ymax / step) * step;
	if (!(ymax > 0))
		ymax = 1;
	/* 20 px inside the axes, so that the end points stay visible */
	sx = (x1 - x0 - 40) / (xmax - xmin);
	sy = (y0 - y1) / ymax;

	snprintf(file, sizeof(file), "%s.%s", first->test, fam);
	snprintf(title, sizeof(title), "%s: %s", first->test, fam);
	f = svg_open(dir, file, 410, title);
	svg_legend(f, x1 - 200, 44, sides == 2);
	for (t = 0; t <= ymax * 1.0001; t += step) {
		svg_line(f, x0, y0 - t * sy, x1, y0 - t * sy, "stroke=\"#ddd\"");
		svg_text(f, x0 - 6, y0 - t * sy + 4, "end", NULL, "%g", t);
	}
	for (i = 0; i < n; i++) {
		svg_text(f, x0 + 20 + (xs[i] - xmin) * sx, y0 + 16, "middle", NULL,
			 "%g", xs[i]);
	}
	svg_line(f, x0, y0, x1, y0, "stroke=\"black\"");
	svg_line(f, x0, y0, x0, y1, "stroke=\"black\"");
	svg_text(f, (x0 + x1) / 2, y0 + 36, "middle", NULL, "%s", xlabel);
	svg_text(f, 18, (y0 + y1) / 2, "middle",
		 "transform=\"rotate(-90 18 210)\"", "%s (median, p10-p90; %s is better)",
		 first->unit, first->higher_is_better ? "higher" : "lower");
	for (k = 0; k < sides; k++) {
		const char *col = k ? COL_CAND : COL_BASE;
		double off = sides == 2 ? (k ? 4 : -4) : 0;
		char st[64];

		svg_stroke(st, sizeof(st), col, 1);
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"", col);
		fputs(" points=\"", f);
		for (i = 0; i < n; i++)
			if (s[i][k].n)
				fprintf(f, "%.1f,%.1f ",
					x0 + 20 + (xs[i] - xmin) * sx + off,
					y0 - s[i][k].median * sy);
		fputs("\"/>\n", f);
		for (i = 0; i < n; i++) {
			double x = x0 + 20 + (xs[i] - xmin) * sx + off;

			if (!s[i][k].n)
				continue;
			svg_line(f, x, y0 - s[i][k].p10 * sy, x,
				 y0 - s[i][k].p90 * sy, st);
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n",
				x, y0 - s[i][k].median * sy, col);
		}
	}
	svg_close(f);
}

static void write_svg(int sides)
{
	bool *done = calloc(nr_metrics + 1, sizeof(*done));
	size_t i, j, idx[64];
	int n, k;

	if (!done)
		die("out of memory");
	if (mkdir(o.svg_dir, 0755) && errno != EEXIST)
		die("%s: %s", o.svg_dir, strerror(errno));
	for (i = 0; i < nr_metrics; i++) {
		const struct metric *m = &metrics[i];

		if (done[i] || !selected(m->key) || !m->v[BASE].n)
			continue;
		n = family_of(m, sides, idx, 64);
		if (n >= 2) {
			plot_curve(o.svg_dir, m, sides);
			for (k = 0; k < n; k++)
				done[idx[k]] = true;
			continue;
		}
		/* All rows of this test go into one plot. */
		for (j = i; j < nr_metrics; j++)
			if (!strcmp(metrics[j].test, m->test) &&
			    !plotted_as_curve(&metrics[j], sides))
				done[j] = true;
		plot_rows(o.svg_dir, m->test, sides);
	}
	free(done);
}

/* ------------------------------------------------------------------ */
/* --repeat: measure until the verdict is conclusive                   */
/* ------------------------------------------------------------------ */

/* Progress of --repeat: on stderr under --ktap, which must start the output. */
static __printf(1, 2) void progress(const char *fmt, ...)
{
	FILE *f = o.ktap ? stderr : stdout;
	va_list ap;

	fputs("# ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fflush(f);
}

/* Highest NN of DIR/<side>-NN.json, so that new runs append. */
static int last_run(const char *dir, int side)
{
	char **files;
	int n, i, last = 0;

	n = list_dir(dir, side_file[side], &files);
	for (i = 0; i < n; i++) {
		const char *b = strrchr(files[i], '/') + 1;
		int nn;

		if (sscanf(b + strlen(side_file[side]), "-%d.json", &nn) == 1 &&
		    nn > last)
			last = nn;
		free(files[i]);
	}
	free(files);
	return last;
}

/* Run one measurement; the command's output goes to a log beside it. */
static void run_one(int side, int nn)
{
	char json[PATH_MAX], log[PATH_MAX];
	double t0 = rp_now_ms();
	int status, rc;
	pid_t pid;

	snprintf(json, sizeof(json), "%s/%s-%02d.json", o.repeat_dir,
		 side_file[side], nn);
	snprintf(log, sizeof(log), "%s/%s-%02d.log", o.repeat_dir,
		 side_file[side], nn);
	unlink(json);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		if (!freopen(log, "w", stdout) || dup2(1, 2) < 0)
			_exit(126);
		setenv("RCU_PERF_JSON", json, 1);
		unsetenv("RCU_PERF_OUTDIR");
		execl("/bin/sh", "sh", "-c", o.cmd[side], (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	progress("%s run %02d: exit %d, %.1f s, %s\n", side_name[side], nn, rc,
		 (rp_now_ms() - t0) / 1000, log);
	if (rc == EXIT_SKIP) {
		fprintf(stderr, PROG ": %s command skipped (see %s)\n",
			side_name[side], log);
		exit(EXIT_SKIP);
	}
	/* 0 and 1 (a failed check) are measurements; anything else is not. */
	if (rc > 1 || access(json, R_OK))
		die("%s command failed (exit %d, %s): see %s", side_name[side],
		    rc, access(json, R_OK) ? "no results file" : "error", log);
	load_file(json, side, false);
}

static int repeat_until_conclusive(void)
{
	double budget = rp_val("repeat_budget") * 1000, t0 = rp_now_ms();
	int min_rounds = rp_val("repeat_min_rounds");
	int max_rounds = rp_val("repeat_max_rounds");
	int next[NR_SIDES], round, side, k, i;
	double round_ms = 0;
	struct tally t;
	char **files;

	if (mkdir(o.repeat_dir, 0755) && errno != EEXIST)
		die("%s: %s", o.repeat_dir, strerror(errno));
	/* Earlier runs in DIR count: a second invocation appends. */
	for (side = 0; side < NR_SIDES; side++) {
		next[side] = last_run(o.repeat_dir, side) + 1;
		if (!o.cmd[side])
			continue;
		k = list_dir(o.repeat_dir, side_file[side], &files);
		for (i = 0; i < k; i++) {
			load_file(files[i], side, false);
			free(files[i]);
		}
		free(files);
	}
	for (round = 1; round <= max_rounds; round++) {
		double r0 = rp_now_ms();

		if (round > 1 && rp_now_ms() - t0 + round_ms > budget) {
			progress("time budget (%g s) spent\n", budget / 1000);
			break;
		}
		/* ABBA order, so that a drift of the machine cancels out. */
		for (k = 0; k < NR_SIDES; k++) {
			side = round % 2 ? k : NR_SIDES - 1 - k;
			if (o.cmd[side])
				run_one(side, next[side]++);
		}
		round_ms = rp_now_ms() - r0;
		if (!nr_files[BASE] || !nr_files[CAND])
			die("--repeat: no %s input (give --%s or --%s-cmd)",
			    nr_files[BASE] ? "candidate" : "baseline",
			    nr_files[BASE] ? "cand" : "base",
			    nr_files[BASE] ? "cand" : "base");
		compare_all(&t);
		progress("round %d: %d regressed, %d improved, %d same, %d inconclusive\n",
			 round, t.n[RP_CMP_REGRESSED], t.n[RP_CMP_IMPROVED],
			 t.n[RP_CMP_SAME], t.n[RP_CMP_INCONCLUSIVE]);
		if (round >= min_rounds && !t.n[RP_CMP_INCONCLUSIVE] &&
		    !t.missing)
			break;
	}
	return report_compare();
}

int main(int argc, char **argv)
{
	int side, i, rc = 0;
	bool compare;

	parse_options(argc, argv);
	for (side = 0; side < NR_SIDES; side++)
		for (i = 0; i < o.nr_paths[side]; i++)
			load_path(o.paths[side][i], side);

	if (o.repeat_dir) {
		rc = repeat_until_conclusive();
		compare = true;
	} else {
		compare = o.nr_paths[CAND] > 0;
		if (compare)
			rc = report_compare();
		else if (!o.kcidb || strcmp(o.kcidb, "-"))
			report_single();
	}
	if (o.kcidb)
		write_kcidb(compare);
	if (o.svg_dir)
		write_svg(compare ? 2 : 1);
	return rc;
}
