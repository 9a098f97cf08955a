// SPDX-License-Identifier: GPL-2.0
/*
 * Options and parameters: default (or --quick), rcu_perf.conf, RCU_PERF_<NAME>, --set, the last
 * word the one typed by hand. A typo is an error, never a default left in place.
 */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../kselftest.h"
#include "internal.h"

struct rp_options rp_opts;
const struct rp_test *rp_current_test;

#define RP_MAX_KNOBS	((int)ARRAY_SIZE(rp_opts.knobs))
#define NUM		"%.10g"	/* the shortest readable form of a value */
#define NAME_CHARS	"abcdefghijklmnopqrstuvwxyz0123456789_"
#define ENV_CHARS	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

/* Option names reserved for the environment of the common options. */
static const char * const reserved[] = {
	"quick", "verbose", "json", "outdir", "config", "state_dir", "kconfig",
	"lock_timeout", "baseline", "tracepoints",
};

static bool in(const char *s, const char * const *list, size_t n)
{
	while (s && n--)
		if (!strcmp(s, list[n]))
			return true;
	return false;
}

const char *rp_test_name(void)
{
	return rp_current_test && rp_current_test->name ? rp_current_test->name : "rcu_perf";
}

static bool is_option(const struct rp_param *p)
{
	return p->kind >= RP_FLAG;
}

int rp_verr(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", rp_test_name());
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return -1;
}

int rp_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rp_verr(fmt, ap);
	va_end(ap);
	return -1;
}

/* "baseline = DIR" of the config file, resolved; freed on the next parse */
static char *conf_baseline;

int rp_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	/* Plain decimal only: strtod() would also take "0x1p3", "inf", " 1". */
	if (!s || !*s || s[strspn(s, "0123456789.eE+-")])
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* @name (@n chars) for the config file, the environment, --set: code holds handles */
static struct rp_param *find_param(const char *name, size_t n)
{
	struct rp_param * const *pp;

	for (pp = rp_current_test->params; pp && *pp; pp++)
		if (!is_option(*pp) && !strncmp((*pp)->name, name, n) && !(*pp)->name[n])
			return *pp;
	return NULL;
}

const char *rp_kind_name(enum rp_param_kind k)
{
	return k == RP_LIMIT_MAX ? "max" : k == RP_LIMIT_MIN ? "min" : "setting";
}

/* Is @v a value of @p? NULL if so, else why not (in buf, or static). */
static const char *check_number(const struct rp_param *p, double v, char *buf, size_t len)
{
	/* Whole-number units, "bool" 0 or 1; not jiffies: fqs_slack is half a jiffy */
	static const char * const whole[] = {
		"count", "cpus", "threads", "iterations", "loops", "MiB", "bool",
	};

	if (!isfinite(v))
		return "not a finite decimal number";
	if (v < 0)
		return "must not be negative";
	/* Limits may be fractional in any unit: measurements are. */
	if (p->kind == RP_SETTING && in(p->unit, whole, ARRAY_SIZE(whole)) && v != floor(v))
		return "must be a whole number";
	if (p->kind == RP_SETTING && p->unit && !strcmp(p->unit, "bool") && v > 1)
		return "must be 0 or 1";
	if (p->has_range && !(v >= p->min && v <= p->max))
		return rp_why(buf, len, "must be in " NUM ".." NUM, p->min, p->max);
	return NULL;
}

/* [a-z0-9_]+; an option's name may have '-' too */
static bool valid_name(const char *s, size_t n, bool option)
{
	return n && strspn(s, option ? NAME_CHARS "-" : NAME_CHARS) >= n;
}

static char why_buf[PATH_MAX];	/* the reasons of set_param() and cli_knob() */
#define why_fmt(...)	rp_why(why_buf, sizeof(why_buf), __VA_ARGS__)

/* The one setter of the config file, the environment and --set: NULL, or why not */
static const char *set_param(const char *name, size_t n, const char *val, const char *source,
			     const char *where)
{
	struct rp_param *p = find_param(name, n);
	const char *why;
	char buf[100];
	double v = NAN;	/* if not a number */

	if (!valid_name(name, n, false))
		return why_fmt("bad parameter name '%.*s'", (int)n, name);
	if (!p)
		return why_fmt("unknown parameter '%.*s' (see --list)", (int)n, name);
	rp_parse_double(val, &v);
	why = check_number(p, v, buf, sizeof(buf));
	if (why)
		return why_fmt("bad value '%s' for %s: %s", val, p->name, why);
	/* --set is read first: neither the config file nor the environment overrides it */
	if (!strcmp(p->source, "cli") && strcmp(source, "cli"))
		return NULL;
	p->value = v;
	p->source = source;
	free(p->origin);
	p->origin = strdup(where);
	return NULL;
}

/* The params table is code: complain loudly about mistakes in it. */
static int check_table(const struct rp_test *t)
{
	struct rp_param * const *pp, * const *qq;
	char buf[100];

	for (pp = t->params; pp && *pp; pp++) {
		const struct rp_param *p = *pp;

		if (!p->name || !valid_name(p->name, strlen(p->name), is_option(p)))
			return rp_err("bug: bad parameter name '%s'", p->name ? p->name : "(null)");
		for (qq = t->params; qq < pp; qq++)
			if (!strcmp(p->name, (*qq)->name))
				return rp_err("bug: parameter '%s' twice", p->name);
		if (in(p->name, reserved, ARRAY_SIZE(reserved)))
			return rp_err("bug: parameter name '%s' is reserved", p->name);
		if (is_option(p))
			continue;
		if (p->has_range && !(p->min <= p->max))
			return rp_err("bug: empty range of '%s'", p->name);
		if (check_number(p, p->def, buf, sizeof(buf)))
			return rp_err("bug: bad default of '%s'", p->name);
		if (p->has_quick && check_number(p, p->quick, buf, sizeof(buf)))
			return rp_err("bug: bad --quick value of '%s'", p->name);
	}
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* One line of a config file, comment cut: NULL, or why it is wrong. */
static const char *config_line(const char *path, char *s, const char *where, bool *ours)
{
	char *eq, *key, *val;

	s = trim(s);
	if (!*s)
		return NULL;
	if (*s == '[') {
		size_t n = strlen(s);
		bool closed = s[n - 1] == ']';

		s[n - 1] = '\0';
		s = trim(s + 1);
		if (!closed || !*s || strpbrk(s, " \t[]"))
			return "malformed section header";
		*ours = !strcmp(s, rp_current_test->name);
		return NULL;
	}
	eq = strchr(s, '=');
	if (!eq)
		return "expected 'name = value'";
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	/* Another program's section: its names are checked for spelling alone */
	if (!*ours && valid_name(key, strlen(key), false))
		return NULL;
	if (*ours && !strcmp(key, "baseline")) {
		/* A relative DIR is relative to the config file's directory. */
		const char *slash = strrchr(path, '/');
		int n = slash && *val && *val != '/' && strcmp(val, "none") ? slash - path + 1 : 0;

		free(conf_baseline);
		conf_baseline = rp_xrealloc(NULL, n + strlen(val) + 1);
		sprintf(conf_baseline, "%.*s%s", n, path, val);
		return NULL;
	}
	return set_param(key, strlen(key), val, "config", where);
}

static int load_config(const char *path)
{
	char where[PATH_MAX + 32];
	bool ours = true;	/* global scope, or our own [section] */
	const char *why = NULL;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, ret;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return rp_err("config %s: %s", path, strerror(errno));
	if (rp_check_trusted(path, fileno(f), where, sizeof(where))) {
		fclose(f);
		return rp_err("config %s: %s", path, where);
	}
	while (!why && getline(&line, &cap, f) > 0) {
		snprintf(where, sizeof(where), "%s:%d", path, ++lineno);
		line[strcspn(line, "#")] = '\0';
		why = config_line(path, line, where, &ours);
	}
	ret = why ? rp_err("%s: %s", where, why) : 0;
	if (!ret && ferror(f))
		ret = rp_err("config %s: read error", path);
	free(line);
	fclose(f);
	return ret;
}

#define refuse(why, len, ...)	(rp_why(why, len, __VA_ARGS__), -1)

/* Writable by a group but root's and @gid, or by anyone? */
static bool others_write(const struct stat *st, gid_t gid)
{
	return (st->st_mode & 0002) ||
	       ((st->st_mode & 0020) && st->st_gid != 0 && st->st_gid != gid);
}

/* Root takes parameters and baselines only from files root's alone. */
int rp_check_trusted(const char *path, int fd, char *why, size_t len)
{
	char dir[PATH_MAX], *d;
	struct stat st;

	if (geteuid() != 0)
		return 0;
	if (fd >= 0 ? fstat(fd, &st) : stat(path, &st))
		return refuse(why, len, "%s", strerror(errno));
	if (st.st_uid || others_write(&st, 0))
		return refuse(why, len,
			      "writable by others (owner %d, group %d, mode %04o): refused as root",
			      (int)st.st_uid, (int)st.st_gid, (int)(st.st_mode & 07777));
	if (S_ISDIR(st.st_mode) || !strchr(path, '/'))
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	d = dirname(dir);
	if (!stat(d, &st) && !(st.st_mode & S_ISVTX) && (st.st_uid || others_write(&st, 0)))
		return refuse(why, len,
			      "its directory %s is writable by others (owner %d, mode %04o): refused as root",
			      d, (int)st.st_uid, (int)(st.st_mode & 07777));
	return 0;
}

/* Else another user could plant a symlink or swap the directory (sticky /tmp: fine unless own) */
int rp_check_dir(const char *path, bool own, char *why, size_t len)
{
	char real[PATH_MAX], *d;
	struct stat st;

	if (own && mkdir(path, 0755) && errno != EEXIST)
		return refuse(why, len, "cannot create it: %s", strerror(errno));
	if (lstat(path, &st) || !S_ISDIR(st.st_mode) || !realpath(path, real))
		return refuse(why, len, "not a directory%s", own ? " (or a symlink)" : "");
	if (own && (st.st_uid != geteuid() || others_write(&st, getegid())))
		return refuse(why, len, "not the caller's alone (owner %d, mode %04o): refused",
			      (int)st.st_uid, (int)(st.st_mode & 07777));
	for (d = real;; d = dirname(d)) {
		if (!stat(d, &st) && ((st.st_uid && st.st_uid != geteuid()) ||
				      (others_write(&st, getegid()) && !(st.st_mode & S_ISVTX))))
			return refuse(why, len,
				      "%s can be changed by others (owner %d, mode %04o): refused",
				      d, (int)st.st_uid, (int)(st.st_mode & 07777));
		if (!strcmp(d, "/"))
			return 0;
	}
}

/* rcu_perf.conf beside the executable, when there is one. */
static const char *default_config(void)
{
	static char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - sizeof("rcu_perf.conf"));
	char *slash = n > 0 ? memrchr(buf, '/', n) : NULL;

	if (!slash || n == sizeof(buf) - sizeof("rcu_perf.conf"))
		return NULL;	/* none, or perhaps cut */
	memcpy(slash + 1, "rcu_perf.conf", sizeof("rcu_perf.conf"));
	return access(buf, R_OK) ? NULL : buf;
}

/* Each RCU_PERF_<NAME> of a parameter; one line on stderr, once, for the others */
static int load_env(void)
{
	static bool warned;
	char name[64], list[256] = "", where[12 + 128];	/* "environment RCU_PERF_<NAME>" */
	struct rp_param *p;
	const char *why;
	size_t i, n, len = 0;
	char **e;

	for (e = environ; e && *e; e++) {
		n = strcspn(*e, "=");
		if (strncmp(*e, "RCU_PERF_", 9) || !(*e)[n])
			continue;
		for (i = 9; i < n && i < sizeof(name) - 1; i++)
			name[i - 9] = tolower((unsigned char)(*e)[i]);
		name[i - 9] = '\0';
		snprintf(where, sizeof(where), "environment %.*s", (int)n, *e);
		/* RCU_PERF_SAMPLES sets samples; RCU_PERF_Samples neither sets nor warns */
		p = find_param(name, i - 9);
		why = p && strspn(*e + 9, ENV_CHARS) >= n - 9 ?
		      set_param(name, i - 9, *e + n + 1, "env", where) : NULL;
		if (why)
			return rp_err("%s: %s", where, why);
		if (!p && !in(name, reserved, ARRAY_SIZE(reserved)) && len < sizeof(list))
			len += snprintf(list + len, sizeof(list) - len, " %.*s", (int)n, *e);
	}
	if (len && !warned)
		fprintf(stderr, "%s: warning: not a parameter here, ignored:%s\n",
			rp_test_name(), list);
	warned = true;
	return 0;
}

static const char *cli_set(const char *arg)
{
	const char *eq = strchr(arg, '=');

	return eq ? set_param(arg, eq - arg, eq + 1, "cli", "--set") : "expected NAME=VALUE";
}

static const char *cli_knob(const char *arg)
{
	const char *eq = strchr(arg, '=');
	char path[PATH_MAX];

	if (!eq || arg[0] != '/' || eq == arg + 1)
		return "expected /ABSOLUTE/PATH=VALUE";
	if (eq - arg >= PATH_MAX)
		return "path too long";
	snprintf(path, sizeof(path), "%.*s", (int)(eq - arg), arg);
	if (rp_knob_allowed(path))
		return rp_knob_refusal(-EPERM);
	if (rp_opts.nr_knobs >= RP_MAX_KNOBS)
		return why_fmt("at most %d knobs", RP_MAX_KNOBS);
	rp_opts.knobs[rp_opts.nr_knobs++] = arg;
	return NULL;
}

/* The common options, after the program's own in --help; rp_parse() fills rp_opts from them. */
static struct rp_param
	o_quick = RP_FLAG("quick", "shorter runs (also RCU_PERF_QUICK=1)", .letter = 'q'),
	o_verbose = RP_FLAG("verbose", "per-sample lines on stderr", .letter = 'v'),
	o_json = RP_STRING("json", "FILE", "write the JSON results to FILE (RCU_PERF_JSON)"),
	o_outdir = RP_STRING("outdir", "DIR", "write them to DIR/<test>.json (RCU_PERF_OUTDIR)"),
	o_config = RP_STRING("config", "FILE",
			     "read parameters from FILE (RCU_PERF_CONFIG; default:\n"
			     "rcu_perf.conf beside the executable; \"\" for none)"),
	o_set = RP_STRING("set", "NAME=VALUE", "set a parameter (also RCU_PERF_<NAME>=VALUE)",
			  RP_EACH(cli_set), .letter = 's'),
	o_baseline = RP_STRING("baseline", "DIR",
			       "also judge the metrics against earlier results of\n"
			       "this machine in DIR and DIR/*/ (RCU_PERF_BASELINE;\n"
			       "\"baseline = DIR\" in the config; \"none\" for none)"),
	o_knob = RP_STRING("knob", "PATH=VALUE",
			   "write a sysfs knob for the run, restored at exit\n"
			   "(repeatable, at most 16); PATH is one of\n"
			   "/sys/kernel/rcu_expedited, /sys/kernel/rcu_normal,\n"
			   "/sys/module/{rcutree,rcupdate}/parameters/*,\n"
			   "/sys/kernel/tracing/{current_tracer,tracing_on},\n"
			   "/sys/devices/system/cpu/cpuN/online", RP_EACH(cli_knob)),
	o_list = RP_FLAG("list", "list the parameters and exit"),
	o_help = RP_FLAG("help", "this help", .letter = 'h');
static struct rp_param * const common[] = {
	&o_quick, &o_verbose, &o_json, &o_outdir, &o_config, &o_set, &o_baseline, &o_knob,
	&o_list, &o_help, NULL
};

/*
 * Is argv[a] option @p as --help spells it: "--NAME" or "-L", with a value "--NAME=VALUE" or
 * "--NAME VALUE"? Not an abbreviation, "-qv" or "-sNAME=VALUE": a typo stays an error. The argv
 * entries it takes, 0 if not it, -1 if its value is missing; a flag's "=VALUE" is in *val.
 */
static int match(int argc, char **argv, int a, const struct rp_param *p, const char **val)
{
	const char *arg = argv[a];
	size_t n = strlen(p->name);

	*val = NULL;
	if (!p->letter || arg[0] != '-' || arg[1] != p->letter || arg[2]) {
		if (strncmp(arg, "--", 2) || strncmp(arg + 2, p->name, n) ||
		    (arg[n + 2] && arg[n + 2] != '='))
			return 0;
		if (arg[n + 2])
			*val = arg + n + 3;
	}
	if (p->kind == RP_FLAG || *val)
		return 1;
	if (a + 1 >= argc)
		return rp_err("option %s needs a value", arg);
	*val = argv[a + 1];
	return 2;
}

/* One value of an option (or operand) @p; NULL for a flag. */
static int set_option(struct rp_param *p, const char *val)
{
	const char *why = NULL;
	struct stat st;

	if (p->kind == RP_FLAG && val)
		return rp_err("option --%s takes no value", p->name);
	if (p->kind == RP_PATH && !*val)
		return rp_err("option --%s needs a value", p->name);
	if (p->dir && (stat(val, &st) || !S_ISDIR(st.st_mode)))
		why = "not a directory";
	else if (p->each)
		why = p->each(val);
	if (why)
		return rp_err("--%s %s: %s", p->name, val, why);
	p->str = val;
	p->value = 1;
	p->source = "cli";
	return 0;
}

/* The option at argv[a], the program's own first: argv entries taken, or -1 */
static int cli_opt(int argc, char **argv, int a)
{
	struct rp_param * const *tables[] = { rp_current_test->params, common }, * const *pp;
	const char *val;
	size_t t;
	int k;

	for (t = 0; t < ARRAY_SIZE(tables); t++) {
		for (pp = tables[t]; pp && *pp; pp++) {
			k = is_option(*pp) ? match(argc, argv, a, *pp, &val) : 0;
			if (k)
				return k < 0 || set_option(*pp, val) ? -1 : k;
		}
	}
	return rp_err("unknown option '%s' (see --help)", argv[a]);
}

/* The command line: options, operands (before and after "--"): 0, or -1 */
static int parse_argv(const struct rp_test *test, int argc, char **argv)
{
	bool dashdash = false;
	int a, k;

	for (a = 1; a < argc; a++) {
		struct rp_param *op = dashdash ? test->operands_after : test->operands;

		if (op && (dashdash || argv[a][0] != '-' || !argv[a][1])) {
			if (set_option(op, argv[a]))
				return -1;
			continue;
		}
		if (test->operands_after && !strcmp(argv[a], "--")) {
			dashdash = true;
			continue;
		}
		rp_opts.nr_given++;
		k = cli_opt(argc, argv, a);
		if (k < 0)
			return -1;
		a += k - 1;
	}
	return 0;
}

int rp_parse(const struct rp_test *test, int argc, char **argv)
{
	struct rp_param * const *tables[] = { test->params, common }, * const *pp;
	const char *quick = getenv("RCU_PERF_QUICK"), *from, *why, *s;
	size_t t;
	int r;

	rp_current_test = test;
	memset(&rp_opts, 0, sizeof(rp_opts));
	free(conf_baseline);
	conf_baseline = NULL;
	if (check_table(test))
		return -1;
	for (t = 0; t < ARRAY_SIZE(tables); t++) {
		for (pp = tables[t]; pp && *pp; pp++) {
			(*pp)->value = (*pp)->def;
			(*pp)->source = "default";
			(*pp)->str = NULL;
			free((*pp)->origin);
			(*pp)->origin = NULL;
		}
	}
	if (quick && *quick && strcmp(quick, "0") && strcmp(quick, "1"))
		return rp_err("environment RCU_PERF_QUICK='%s': expected 0 or 1", quick);

	/* The common options, the command line's else the environment's: --help even if bad */
	r = parse_argv(test, argc, argv);
	rp_opts.quick = o_quick.value || (quick && *quick == '1');
	rp_opts.verbose = o_verbose.value;
	rp_opts.help = o_help.value;
	rp_opts.list = o_list.value;
	s = getenv("RCU_PERF_JSON");
	rp_opts.json_path = o_json.str ?: (s && *s ? s : NULL);
	s = getenv("RCU_PERF_OUTDIR");
	rp_opts.outdir = o_outdir.str ?: (s && *s ? s : NULL);
	/* "": no config file at all */
	s = o_config.str ?: getenv("RCU_PERF_CONFIG") ?: default_config();
	rp_opts.config_path = s && *s ? s : NULL;
	if (r || (s && *s && load_config(s)) || load_env())
		return -1;
	/* cli > environment (set but empty: none) > config file */
	s = getenv("RCU_PERF_BASELINE");
	from = o_baseline.str ? "--baseline" : s ? "RCU_PERF_BASELINE" : rp_opts.config_path;
	s = o_baseline.str ?: s ?: conf_baseline;
	if (s) {
		rp_opts.baseline = *s && strcmp(s, "none") ? s : NULL;
		rp_opts.baseline_from = from;
	}
	/* What was not set by hand takes its --quick value. */
	for (pp = test->params; rp_opts.quick && pp && *pp; pp++) {
		if ((*pp)->has_quick && !strcmp((*pp)->source, "default")) {
			(*pp)->value = (*pp)->quick;
			(*pp)->source = "quick";
		}
	}
	why = test->check_params ? test->check_params() : NULL;
	return why ? rp_err("%s", why) : 0;
}

/* "  -L, --NAME VALUE" of each option and the reason beside it, each line of it indented. */
static void print_options(FILE *f, struct rp_param * const *pp)
{
	for (; pp && *pp; pp++) {
		const struct rp_param *p = *pp;
		const char *r = p->reason ?: "";
		int n;

		if (!is_option(p))
			continue;
		n = fprintf(f, "  ");
		if (p->letter)
			n += fprintf(f, "-%c, ", p->letter);
		n += fprintf(f, "--%s%s%s", p->name, p->unit ? " " : "", p->unit ?: "");
		do {
			size_t len = strcspn(r, "\n");

			fprintf(f, "%*s%.*s\n", n < 25 ? 25 - n : 1, "", (int)len, r);
			r += len + !!r[len];
			n = 0;
		} while (*r);
	}
}

static const struct rp_param *first(struct rp_param * const *pp, bool option)
{
	for (; pp && *pp; pp++)
		if (is_option(*pp) == option)
			return *pp;
	return NULL;
}

void rp_usage(FILE *f)
{
	const struct rp_test *t = rp_current_test;

	fprintf(f, "usage: %s [options]\n", t->name);
	if (t->summary)
		fprintf(f, "%s\n", t->summary);
	fputc('\n', f);
	if (first(t->params, true))
		fprintf(f, "Options of %s:\n", t->name);
	print_options(f, t->params);
	if (t->extra_usage) {
		fputs(t->extra_usage, f);
		if (*t->extra_usage && t->extra_usage[strlen(t->extra_usage) - 1] != '\n')
			fputc('\n', f);
	}
	fputs("Common options:\n", f);
	print_options(f, common);
	fputs("Precedence: --set > environment > config file > default.\n", f);
	/* rp_init()'s codes; rcu_perf_compare (no checks) states its own. */
	if (t->nr_checks)
		fputs("Exit: 0 pass, 1 fail or bad usage, 4 skip.\n", f);
	fputs("\nParameters:\n", f);
	rp_list_params(f);
}

/* One --list row (@p NULL: the header): widen the columns @w, or print it. */
static void list_row(FILE *f, const struct rp_param *p, int *w, bool print)
{
	char d[32] = "DEFAULT", q[32] = "QUICK", r[72] = "RANGE", v[32] = "VALUE";
	const char *cell[7] = { "NAME", "UNIT", d, q, r, v, "SOURCE" };
	size_t i;

	if (p) {
		cell[0] = p->name;
		cell[1] = p->unit ?: "";
		cell[6] = p->source ?: "default";
		snprintf(d, sizeof(d), NUM, p->def);
		snprintf(q, sizeof(q), NUM, p->quick);
		snprintf(r, sizeof(r), NUM ".." NUM, p->min, p->max);
		snprintf(v, sizeof(v), NUM, p->source ? p->value : p->def);
		cell[3] = p->has_quick ? q : "-";
		cell[4] = p->has_range ? r : "-";
	}
	for (i = 0; !print && i < ARRAY_SIZE(cell); i++)
		if ((int)strlen(cell[i]) > w[i])
			w[i] = strlen(cell[i]);
	if (print)
		fprintf(f, "%-*s %-7s %-*s %*s %*s %*s %*s %-*s %s\n", w[0], cell[0],
			p ? rp_kind_name(p->kind) : "KIND", w[1], cell[1], w[2], cell[2], w[3],
			cell[3], w[4], cell[4], w[5], cell[5], w[6], cell[6],
			p ? p->reason ?: "" : "REASON");
}

void rp_list_params(FILE *f)
{
	struct rp_param * const *params = rp_current_test ? rp_current_test->params : NULL;
	struct rp_param * const *pp;
	int w[7] = { 0 }, print;

	if (!first(params, false)) {
		fputs("(no parameters)\n", f);
		return;
	}
	for (print = 0; print < 2; print++) {
		list_row(f, NULL, w, print);
		for (pp = params; *pp; pp++)
			if (!is_option(*pp))
				list_row(f, *pp, w, print);
	}
}

int rp_opts_apply_knobs(void)
{
	char path[PATH_MAX];
	int i, r;

	for (i = 0; i < rp_opts.nr_knobs; i++) {
		const char *k = rp_opts.knobs[i], *eq = strchr(k, '=');

		/* cli_knob() checked its length. */
		snprintf(path, sizeof(path), "%.*s", (int)(eq - k), k);
		/* Mount tracefs (guarded) if the file is in it. */
		if (!strncmp(path, "/sys/kernel/tracing/", 20))
			rp_tracefs();
		r = rp_knob_write(path, eq + 1);
		if (r < 0)
			return rp_err("--knob %s: cannot write '%s': %s", path,
				      eq + 1, rp_knob_refusal(r));
	}
	return 0;
}

void rp_opts_print(void)
{
	struct rp_param * const *pp;
	int i;

	for (pp = rp_current_test->params; pp && *pp; pp++) {
		const struct rp_param *p = *pp;

		if (!strcmp(p->source, "default") || is_option(p))
			continue;
		printf("# %s = " NUM "%s%s (%s)\n", p->name, p->value,
		       p->unit && *p->unit ? " " : "", p->unit ?: "",
		       p->origin ?: !strcmp(p->source, "quick") ? "--quick" : p->source);
	}
	for (i = 0; i < rp_opts.nr_knobs; i++) {
		const char *eq = strchr(rp_opts.knobs[i], '=');

		printf("# knob %.*s = %s\n", (int)(eq - rp_opts.knobs[i]), rp_opts.knobs[i],
		       eq + 1);
	}
}
