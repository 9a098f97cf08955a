// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_perf_compare --svg DIR: plots without a plotting package. A family
 * of metrics that differ by a number (lookup.cpus1.ops, lookup.cpus2.ops,
 * ...) is a scaling curve; every other metric of a test is a row of one
 * box plot per test. With a candidate, both sides in each plot.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"

#define SVG_W		760
#define ESC		"&<>\""

static const char *const col[NR_SIDES] = { "#1f77b4", "#ff7f0e" };

static __printf(6, 7) void svg_text(FILE *f, double x, double y,
				     const char *anchor, const char *extra,
				     const char *fmt, ...)
{
	static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;" };
	char buf[512], *s;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s>", x, y,
		anchor, extra ? " " : "", extra ? extra : "");
	for (s = buf; *s; s++)
		if (strchr(ESC, *s))
			fputs(ent[strchr(ESC, *s) - ESC], f);
		else
			fputc(*s, f);
	fputs("</text>\n", f);
}

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

static FILE *svg_open(const struct compare *cmp, const char *name, int h,
		      const char *title)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.svg", cmp->o.svg_dir, name);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		SVG_W, h, SVG_W, h);
	svg_text(f, SVG_W / 2, 22, "middle", "font-size=\"15\"", "%s", title);
	printf("%swrote %s\n", cmp->o.ktap ? "# " : "", path);
	return f;
}

static void svg_close(FILE *f)
{
	fputs("</svg>\n", f);
	if (fclose(f))
		die("error writing an SVG file");
}

/* An axis from 0: a tick step of 1, 2 or 5 x 10^k; *max up to a whole step */
static double nice_axis(double *max, int ticks)
{
	double raw = *max / ticks, step = 1, mag, r;

	if (raw > 0 && isfinite(raw)) {
		mag = pow(10, floor(log10(raw)));
		r = raw / mag;
		step = (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
	}
	*max = ceil(*max / step) * step;
	if (!(*max > 0))
		*max = 1;
	return step;
}

static void svg_legend(FILE *f, double x, double y, int sides)
{
	static const char *const name[NR_SIDES] = { "baseline", "candidate" };
	int k;

	for (k = 0; k < sides; k++) {
		svg_rect(f, x + 90 * k, y - 8, 12, 8, col[k], NULL);
		svg_text(f, x + 90 * k + 16, y, "start", NULL, "%s",
			 sides == 2 ? name[k] : "results");
	}
}

/*
 * The last dot-separated component of @name with digits (or NULL): "cpus4"
 * of "lookup.cpus4.ops"; *num is 4, *fam "lookup.cpusN.ops".
 */
static const char *name_number(const char *name, double *num, char *fam,
			       size_t len)
{
	const char *best = NULL, *p, *d;

	for (p = name; *p; p++)
		if (*p >= '0' && *p <= '9')
			best = p;	/* the last digit's component is best */
	if (!best)
		return NULL;
	while (best > name && best[-1] != '.')
		best--;
	d = best + strcspn(best, "0123456789");
	/* digits only: the '.' after "cpus4" separates components */
	*num = 0;
	for (p = d; *p >= '0' && *p <= '9'; p++)
		*num = *num * 10 + (*p - '0');
	snprintf(fam, len, "%.*sN%s", (int)(d - name), name, p);
	return best;
}

/* A metric's row: min-max whisker, p10-p90 box, median tick. */
static void svg_box(FILE *f, const struct rp_summary *s, double x0,
		    double xs, double y, int side)
{
	char st[80];

	snprintf(st, sizeof(st), "stroke=\"%s\" stroke-width=\"1\"", col[side]);
	svg_line(f, x0 + s->min * xs, y, x0 + s->max * xs, y, st);
	svg_rect(f, x0 + s->p10 * xs, y - 5, (s->p90 - s->p10) * xs, 10, col[side],
		 strcat(st, " fill-opacity=\"0.45\""));
	svg_line(f, x0 + s->median * xs, y - 7, x0 + s->median * xs, y + 7,
		 "stroke=\"black\" stroke-width=\"2\"");
}

/* The family of @m (same test, unit, name with N): idx[] and x[], by N */
static int family_of(const struct compare *cmp, const struct rp_rmetric *m,
		     size_t *idx, double *x, int max)
{
	char fam[256], f2[256];
	double x2;
	int n = 0, i;
	size_t k;

	if (!name_number(m->name, &x2, fam, sizeof(fam)))
		return 0;
	for (k = 0; k < cmp->r.nr_metrics && n < max; k++) {
		const struct rp_rmetric *o2 = &cmp->r.metrics[k];

		if (strcmp(o2->test, m->test) || !selected(cmp, o2->key) ||
		    !o2->v[BASE].n || strcmp(o2->unit, m->unit) ||
		    !name_number(o2->name, &x2, f2, sizeof(f2)) ||
		    strcmp(f2, fam))
			continue;
		/* insertion by N, after equal ones */
		for (i = n++; i > 0 && x[i - 1] > x2; i--) {
			idx[i] = idx[i - 1];
			x[i] = x[i - 1];
		}
		idx[i] = k;
		x[i] = x2;
	}
	return n;
}

/*
 * The @n metrics rows[] of @test_name that are not part of a scaling curve:
 * one row per metric on its own axis from 0 (latencies of different load
 * levels differ by orders of magnitude), baseline above candidate.
 */
static void plot_rows(const struct compare *cmp, const char *test_name,
		      const size_t *rows, int n, int sides)
{
	const double x0 = 230, x1 = SVG_W - 200, row = 58;
	struct rp_summary s[NR_SIDES];
	char title[256];
	int i, k;
	FILE *f;

	snprintf(title, sizeof(title), "%s: median (tick), p10-p90 (box), min-max (line)",
		 test_name);
	f = svg_open(cmp, test_name, 60 + n * row + 30, title);
	svg_legend(f, 20, 44, sides);
	for (i = 0; i < n; i++) {
		const struct rp_rmetric *m = &cmp->r.metrics[rows[i]];
		double max = 0, step, xs, t, y = 60 + i * row;

		for (k = 0; k < sides; k++) {
			rp_summarize(m->v[k].v, m->v[k].n, &s[k]);
			if (s[k].n && s[k].max > max)
				max = s[k].max;
		}
		step = nice_axis(&max, 4);
		xs = (x1 - x0) / max;
		svg_rect(f, 0, y, SVG_W, row, (n + i) % 2 ? "#f8f8f8" : "white", NULL);
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
				svg_box(f, &s[k], x0, xs, y + 16 + 18 * k, k);
		for (k = 0; k < sides; k++)
			svg_text(f, x1 + 24, y + 20 + 18 * k, "start", NULL,
				 "%.4g (n %zu)", s[k].median, s[k].n);
		if (sides == 2 && m->compared)
			svg_text(f, x1 + 24, y + 54, "start",
				 m->cmp.verdict == RP_CMP_REGRESSED && !m->report_only ?
				 "font-weight=\"bold\" fill=\"#c00\"" : "fill=\"#333\"",
				 "%+.1f %% %s", m->cmp.change_pct,
				 m->report_only ? "reported only" :
				 m->cmp.verdict == RP_CMP_SAME ? "same" :
				 rp_cmp_verdict_name(m->cmp.verdict));
	}
	svg_close(f);
}

/* A scaling curve of the metrics idx[] at N xs[]: median, p10-p90 per side */
static void plot_curve(const struct compare *cmp, const struct rp_rmetric *first,
		       const size_t *idx, const double *xs, int n, int sides)
{
	const double x0 = 80, x1 = SVG_W - 30, y0 = 360, y1 = 60;
	struct rp_summary s[64][NR_SIDES];
	double px[64], xmin = xs[0], xmax, ymax = 0, step, t, sx, sy;
	char fam[256], file[300], title[320], xlabel[64];
	const char *comp;
	int i, k;
	FILE *f;

	comp = name_number(first->name, &t, fam, sizeof(fam));
	/* the x label: the letters of the varying component, e.g. "cpus" */
	for (i = 0; comp[i] && comp[i] != '.' && i < (int)sizeof(xlabel) - 1; i++)
		xlabel[i] = (comp[i] >= '0' && comp[i] <= '9') ? ' ' : comp[i];
	xlabel[i] = '\0';
	for (i = 0; i < n; i++)
		for (k = 0; k < sides; k++) {
			rp_summarize(cmp->r.metrics[idx[i]].v[k].v,
				     cmp->r.metrics[idx[i]].v[k].n, &s[i][k]);
			if (s[i][k].n && s[i][k].p90 > ymax)
				ymax = s[i][k].p90;
		}
	xmax = xs[n - 1] > xmin ? xs[n - 1] : xmin + 1;
	step = nice_axis(&ymax, 5);
	/* 20 px inside the axes, so that the end points stay visible */
	sx = (x1 - x0 - 40) / (xmax - xmin);
	sy = (y0 - y1) / ymax;
	for (i = 0; i < n; i++)
		px[i] = x0 + 20 + (xs[i] - xmin) * sx;

	snprintf(file, sizeof(file), "%s.%s", first->test, fam);
	snprintf(title, sizeof(title), "%s: %s", first->test, fam);
	f = svg_open(cmp, file, 410, title);
	svg_legend(f, x1 - 200, 44, sides);
	for (t = 0; t <= ymax * 1.0001; t += step) {
		svg_line(f, x0, y0 - t * sy, x1, y0 - t * sy, "stroke=\"#ddd\"");
		svg_text(f, x0 - 6, y0 - t * sy + 4, "end", NULL, "%g", t);
	}
	for (i = 0; i < n; i++)
		svg_text(f, px[i], y0 + 16, "middle", NULL, "%g", xs[i]);
	svg_line(f, x0, y0, x1, y0, "stroke=\"black\"");
	svg_line(f, x0, y0, x0, y1, "stroke=\"black\"");
	svg_text(f, (x0 + x1) / 2, y0 + 36, "middle", NULL, "%s", xlabel);
	svg_text(f, 18, (y0 + y1) / 2, "middle",
		 "transform=\"rotate(-90 18 210)\"", "%s (median, p10-p90; %s is better)",
		 first->unit, first->higher_is_better ? "higher" : "lower");
	for (k = 0; k < sides; k++) {
		double off = sides == 2 ? (k ? 4 : -4) : 0;
		char st[64];

		snprintf(st, sizeof(st), "stroke=\"%s\" stroke-width=\"1\"", col[k]);
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
			col[k]);
		for (i = 0; i < n; i++)
			if (s[i][k].n)
				fprintf(f, "%.1f,%.1f ", px[i] + off,
					y0 - s[i][k].median * sy);
		fputs("\"/>\n", f);
		for (i = 0; i < n; i++) {
			if (!s[i][k].n)
				continue;
			svg_line(f, px[i] + off, y0 - s[i][k].p10 * sy, px[i] + off,
				 y0 - s[i][k].p90 * sy, st);
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n",
				px[i] + off, y0 - s[i][k].median * sy, col[k]);
		}
	}
	svg_close(f);
}

void write_svg(const struct compare *cmp, int sides)
{
	size_t nr = cmp->r.nr_metrics, i, j, idx[64];
	size_t *rows = rp_xrealloc(NULL, (nr + 1) * sizeof(*rows));
	bool *done = rp_xrealloc(NULL, (nr + 1) * sizeof(*done));
	const struct rp_rmetric *m = cmp->r.metrics;
	double x[64];
	int n, k;

	memset(done, 0, (nr + 1) * sizeof(*done));
	if (mkdir(cmp->o.svg_dir, 0755) && errno != EEXIST)
		die("%s: %s", cmp->o.svg_dir, strerror(errno));
	for (i = 0; i < nr; i++) {
		if (done[i] || !selected(cmp, m[i].key) || !m[i].v[BASE].n)
			continue;
		n = family_of(cmp, &m[i], rows, x, 64);
		if (n >= 2) {
			plot_curve(cmp, &m[i], rows, x, n, sides);
		} else {
			/* All rows of this test (metrics of no curve): one plot */
			for (j = i, n = 0; j < nr; j++)
				if (!strcmp(m[j].test, m[i].test) && selected(cmp, m[j].key) &&
				    m[j].v[BASE].n && family_of(cmp, &m[j], idx, x, 64) < 2)
					rows[n++] = j;
			plot_rows(cmp, m[i].test, rows, n, sides);
		}
		for (k = 0; k < n; k++)
			done[rows[k]] = true;
	}
	free(rows);
	free(done);
}
