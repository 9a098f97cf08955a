// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-count sweeps, scaling efficiency against a parallel and a serial
 * control, and GNU time reports: dcache_scaling's and kernbench's.
 * rp_time_format() averages print as the dcache_rcu evidence's did.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int rp_sweep_points(int max, int *pts, int cap)
{
	int n = 0, c;

	if (max < 1 || cap < 1)
		return 0;
	for (c = 1; c < max && n < cap - 1; c *= 2)
		pts[n++] = c;
	pts[n++] = max;
	return n;
}

void rp_sweep_plan(struct rp_sweep *s, double max_cpus, bool hotplug,
		   const char *what)
{
	int fixed;

	s->hotplug = hotplug;
	s->nr_online = rp_online_cpus(s->cpus, RP_SWEEP_CPUS);
	if (s->nr_online < 1)
		rp_exit_skip("cannot read the online CPUs");
	s->max = s->nr_online;
	if (max_cpus >= 1 && max_cpus < s->nr_online)
		s->max = (int)max_cpus;
	fixed = rp_cpus_fixed_first(s->cpus, s->nr_online);
	if (hotplug && geteuid())
		rp_exit_skip("%s needs root", what);
	if (hotplug && fixed > 1)
		rp_exit_skip("%s: %d CPUs cannot go offline", what, fixed);
	s->nr_pts = rp_sweep_points(s->max, s->pts, RP_SWEEP_POINTS);
}

/*
 * A run on one CPU takes the online CPUs in turn, and its best stands:
 * CPUs of unequal speed (vCPUs sharing host cores, hybrid cores) must not
 * make N CPUs look faster than one. With hotplug only cpus[0] is online.
 */
int rp_sweep_round(const struct rp_sweep *s, int n)
{
	return n == 1 && !s->hotplug && s->nr_online > 1 ? s->nr_online : 1;
}

int rp_sweep_pin(const struct rp_sweep *s, int first, int n)
{
	return n > 0 ? rp_pin_cpus(s->cpus + first, n) : 0;
}

void rp_sweep_online(const struct rp_sweep *s, int n)
{
	int err = rp_cpus_set_online(s->cpus, n, s->max);

	if (err)
		rp_fatal("cannot put %d of %d CPUs online: %s", n, s->max,
			 strerror(-err));
}

double rp_efficiency(double ops_n, double ops_1, int n)
{
	return n < 1 || !(ops_1 > 0) || !(ops_n >= 0) || !isfinite(ops_n) ||
	       !isfinite(ops_1) ? NAN : ops_n / (n * ops_1);
}

/*
 * Karp and Flatt's serial fraction: by Amdahl's law it gives back the
 * serialized share s at every n, where an efficiency drifts down with n,
 * so that one limit holds from 2 to many CPUs.
 */
double rp_serial_fraction(double speedup, int n)
{
	return n < 2 || !(speedup > 0) || !isfinite(speedup) ? NAN :
	       (1 / speedup - 1.0 / n) / (1 - 1.0 / n);
}

/* The serial fraction at n of the speedup relative to the parallel control */
static double rel_serial(double eff, double eff_par, int n)
{
	return !(eff_par > 0) || !isfinite(eff_par) || !isfinite(eff) ? NAN :
	       rp_serial_fraction(n * eff / eff_par, n);
}

double rp_serial_share(int n, double eff, double eff_par, double eff_ser)
{
	double e = rel_serial(eff, eff_par, n);
	double e_ser = rel_serial(eff_ser, eff_par, n);

	return isnan(e) || !(e_ser > 0) ? NAN : e / e_ser;
}

double rp_serial_share_eff(int n, double share, double eff_par,
			   double eff_ser)
{
	double e_ser = rel_serial(eff_ser, eff_par, n), e = share * e_ser;

	return n < 2 || !(e_ser > 0) || !isfinite(share) ? NAN :
	       eff_par / (n * (e * (1 - 1.0 / n) + 1.0 / n));
}

const char *rp_controls_judge(int n, double eff_par, double eff_ser,
			      double par_min, double ser_min, char *why,
			      size_t len)
{
	double e_ser;

	if (n < 2)
		return rp_why(why, len, "1 CPU: nothing to scale to");
	if (isnan(eff_par) || isnan(eff_ser))
		return rp_why(why, len, "at N=%d a control has no valid sample",
			      n);
	if (eff_par < par_min)
		return rp_why(why, len,
			      "at N=%d the parallel control reached efficiency %.2f < %.2f: this machine cannot run %d workers at once (CPU quota, overcommitted vCPUs, SMT siblings or other load)",
			      n, eff_par, par_min, n);
	e_ser = rel_serial(eff_ser, eff_par, n);
	if (!(e_ser >= ser_min))
		return rp_why(why, len,
			      "at N=%d the serial control (one global lock) came out at serial fraction %.2f < %.2f, not near 1/N: the harness is not measuring parallel work",
			      n, e_ser, ser_min);
	return NULL;
}

/* Strict number at s (no sign): the value and the first byte after it. */
static int num_at(const char *s, double *v, const char **end)
{
	char *e;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtod(s, &e);
	*end = e;
	return errno || e == s || !isfinite(*v) ? -1 : 0;
}

/*
 * Durations as GNU time and shells print them: "4.58", "0:04.58" (m:ss),
 * "1:02:03.5" (h:mm:ss), "0m4.580s" (the shell keyword). Whole string.
 */
static int parse_duration(const char *s, double *out)
{
	bool shell = strchr(s, 'm') && s[strlen(s) - 1] == 's';
	double v, acc = 0;
	int fields = 0;
	const char *e;

	for (;; s = e + 1) {
		if (num_at(s, &v, &e) || ++fields > (shell ? 2 : 3))
			return -1;
		acc = acc * 60 + v;
		if (!strcmp(e, shell ? "s" : ""))
			break;
		if (*e != (shell ? 'm' : ':'))
			return -1;
	}
	*out = acc;
	return 0;
}

/* Copy the next line of *p into buf (trimmed); false at the end. */
static bool next_line(const char **p, char *buf, size_t len)
{
	const char *s = *p;
	size_t n = strcspn(s, "\n");

	if (!*s)
		return false;
	*p = s + n + !!s[n];
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	for (; n && isspace((unsigned char)*s); n--)
		s++;
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), s);
	return true;
}

/* "3.46user 0.61system 0:04.58elapsed 89%CPU (...)": GNU's default. */
static int parse_default_line(const char *l, struct rp_time *t)
{
	const char *e, *el;
	char buf[64];

	if (num_at(l, &t->user, &e) || strncmp(e, "user ", 5) ||
	    num_at(e + 5, &t->sys, &l) || strncmp(l, "system ", 7))
		return -1;
	l += 7;
	el = strstr(l, "elapsed ");
	if (!el || el == l || el - l >= (long)sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%.*s", (int)(el - l), l);
	if (parse_duration(buf, &t->elapsed))
		return -1;
	if (!strncmp(el + 8, "?%CPU", 5))
		t->cpu_pct = NAN;
	else if (num_at(el + 8, &t->cpu_pct, &e) || strncmp(e, "%CPU", 4))
		return -1;
	return 0;
}

enum { HAVE_E = 1, HAVE_U = 2, HAVE_S = 4, STATUS, PCT };

/*
 * The lines read, the rest ignored: an exit status (128 + a signal) in the
 * default report or -v's; "real 4.58" (-p) or "real\t0m4.580s" (shell),
 * any blanks after these three words; -v's "User time (seconds): 3.46"
 * et al.
 */
static const struct {
	const char *key;
	int what;
	int max, add;	/* STATUS: its range, and what it adds */
} keys[] = {
	{ "Command exited with non-zero status ", STATUS, 255, 0 },
	{ "Command terminated by signal ", STATUS, 127, 128 },
	{ "Exit status: ", STATUS, 255, 0 },
	{ "real", HAVE_E, 0, 0 }, { "user", HAVE_U, 0, 0 },
	{ "sys", HAVE_S, 0, 0 }, { "User time (seconds): ", HAVE_U, 0, 0 },
	{ "System time (seconds): ", HAVE_S, 0, 0 },
	{ "Elapsed (wall clock) time (h:mm:ss or m:ss): ", HAVE_E, 0, 0 },
	{ "Percent of CPU this job got: ", PCT, 0, 0 },
};

/* One line of a report: the HAVE_* it gave, or -1. */
static int parse_time_line(const char *l, struct rp_time *t)
{
	double *const dst[] = {
		[HAVE_E] = &t->elapsed, [HAVE_U] = &t->user, [HAVE_S] = &t->sys,
	};
	const char *e;
	size_t i, k;
	bool word;
	double v;

	if (strstr(l, "user ") && strstr(l, "elapsed "))
		return parse_default_line(l, t) ? -1 : HAVE_E | HAVE_U | HAVE_S;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		k = strlen(keys[i].key);
		word = keys[i].key[k - 1] != ' ';
		if (!strncmp(l, keys[i].key, k) &&
		    (!word || isspace((unsigned char)l[k])))
			break;
	}
	if (i == ARRAY_SIZE(keys))
		return 0;
	for (l += k; word && isspace((unsigned char)*l); l++)
		;
	if (keys[i].what == PCT && !strcmp(l, "?%"))
		return 0;
	if (keys[i].what < STATUS)
		return parse_duration(l, dst[keys[i].what]) ? -1 : keys[i].what;
	if (num_at(l, &v, &e) || strcmp(e, keys[i].what == PCT ? "%" : ""))
		return -1;
	if (keys[i].what == PCT) {
		t->cpu_pct = v;
		return 0;
	}
	/* in range first: converting one that is not is undefined */
	if (!(v >= 0 && v <= keys[i].max) || v != floor(v))
		return -1;
	t->status = (int)v + keys[i].add;
	return 0;
}

int rp_time_parse(const char *text, struct rp_time *t, char *err,
		  size_t errlen)
{
	const char *p = text;
	char line[512];
	int have = 0, lineno, r;

	memset(t, 0, sizeof(*t));
	t->cpu_pct = NAN;
	for (lineno = 1; next_line(&p, line, sizeof(line)); lineno++) {
		r = parse_time_line(line, t);
		if (r < 0) {
			snprintf(err, errlen, "line %d: malformed GNU time line \"%.60s\"",
				 lineno, line);
			return -1;
		}
		have |= r;
	}
	if (have == (HAVE_E | HAVE_U | HAVE_S))
		return 0;
	snprintf(err, errlen, "no GNU time report (missing:%s%s%s)",
		 have & HAVE_E ? "" : " elapsed", have & HAVE_U ? "" : " user",
		 have & HAVE_S ? "" : " system");
	return -1;
}

static double cpu_pct_of(const struct rp_time *t)
{
	return !isnan(t->cpu_pct) ? t->cpu_pct : t->elapsed > 0 ?
	       100 * (t->user + t->sys) / t->elapsed : NAN;
}

void rp_time_average(const struct rp_time *runs, int n, struct rp_time *avg)
{
	double z = n < 1 ? NAN : 0;	/* no runs: all NAN, after /= n too */
	int i;

	*avg = (struct rp_time){ z, z, z, z, 0 };
	for (i = 0; i < n; i++) {
		avg->elapsed += runs[i].elapsed;
		avg->user += runs[i].user;
		avg->sys += runs[i].sys;
		avg->cpu_pct += cpu_pct_of(&runs[i]);
		if (runs[i].status)
			avg->status = runs[i].status;
	}
	avg->elapsed /= n;
	avg->user /= n;
	avg->sys /= n;
	avg->cpu_pct /= n;
}

int rp_time_format(char *buf, size_t len, const struct rp_time *avg)
{
	return snprintf(buf, len,
			"Elapsed: %.3fs User: %.3fs System: %.3fs CPU: %.1f%%",
			avg->elapsed, avg->user, avg->sys, cpu_pct_of(avg));
}

int rp_time_format_run(char *buf, size_t len, const struct rp_time *t)
{
	return snprintf(buf, len, "real %.2fs user %.2fs sys %.2fs CPU %.0f%%",
			t->elapsed, t->user, t->sys, cpu_pct_of(t));
}

double rp_time_system_share(const struct rp_time *t)
{
	double cpu = t->user + t->sys;

	return cpu > 0 ? t->sys / cpu : NAN;
}
