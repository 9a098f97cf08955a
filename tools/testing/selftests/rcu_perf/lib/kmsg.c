// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log: when the kernel handed over to user space, from dmesg
 * text, /dev/kmsg records or a noisy serial capture. A marker (the
 * kernel's printk formats, v6.12 and older) counts only at the start of a
 * kernel message, never when a program echoes it.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* The first present in the log wins; a "%s" is any text between parts. */
static const char * const markers[] = {
	/* mark_rodata_ro(): x86_64 and parisc (the report's), x86_32, s390 */
	"Write protecting the kernel read-only data",
	"Write protecting kernel text and read-only data",
	"Write protected read-only-after-init data",
	/* old x86_64: text and rodata were protected in two steps */
	"Write protecting the kernel text",
	/*
	 * free_initmem(): of x86 and free_initmem_default() (riscv, powerpc,
	 * mips, ...); older x86; arm64 and older free_initmem_default()
	 */
	"Freeing unused kernel image (initmem) memory",
	"Freeing unused kernel image memory",
	"Freeing unused kernel memory",
	/* init/main.c run_init_process(), every architecture */
	"Run %s as init process",
};

/* Times of one printk agree to the microsecond in every format. */
#define SAME_TIME	0.000001
#define NR_MARKERS	ARRAY_SIZE(markers)
#define DIGITS		"0123456789"
#define RP_LOG_MAX	(256 << 20)	/* rp_read_log(): EFBIG past it */
#define NO_MARKER	\
	"no boot marker (Write protecting..., Freeing unused kernel..., Run ... as init process)"

struct marker_seen {
	double t[2];		/* first valid occurrence's time, a different one */
	int nr;			/* times in t[] */
	char bad[160];		/* first malformed occurrence, if any */
};

enum occ { OCC_NONE, OCC_OK, OCC_BAD };

/* "what 's..e'" in bad, at most 40 bytes of s..e quoted on one line */
static enum occ malformed(char *bad, size_t len, const char *what, const char *s, const char *e)
{
	char q[41];
	size_t i = 0;

	for (; s < e && i < 40; s++)
		q[i++] = *s >= 0x20 && *s < 0x7f ? *s : '?';
	q[i] = '\0';
	snprintf(bad, len, "%s '%s%s'", what, q, s < e ? "..." : "");
	return OCC_BAD;
}

/* Without ANSI escapes, control characters (serial consoles) or end blanks */
static void clean_line(char *dst, const char *s, const char *e)
{
	size_t n = 0;

	while (s < e) {
		unsigned char c = *s++;

		if (c == 0x1b) {
			if (s < e && *s == '[') {		/* CSI */
				s++;
				while (s < e && (unsigned char)*s >= 0x20 &&
				       (unsigned char)*s < 0x40)
					s++;
			} else if (s < e && *s == ']') {	/* OSC */
				while (s < e && *s != '\a' && *s != 0x1b)
					s++;
				if (s < e && *s == 0x1b)
					s++;
			}
			if (s < e)
				s++;		/* the final byte */
			continue;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			continue;
		dst[n++] = c;
	}
	while (n && isspace((unsigned char)dst[n - 1]))
		n--;
	dst[n] = '\0';
}

/* "[  123.456789]" (s[0] '[', e[-1] ']'): seconds since boot. */
static int parse_time_bracket(const char *s, const char *e, double *t)
{
	const char *p = s + 1 + strspn(s + 1, " "), *q = p + strspn(p, DIGITS);

	if (e - s < 3 || e - s > 32)
		return -1;
	e--;
	if (q == p || q >= e || *q != '.' || q + 1 + strspn(q + 1, DIGITS) != e || e[-1] == '.')
		return -1;
	*t = strtod(p, NULL);	/* up to the ']' */
	return 0;
}

/* Is marker text m of a line the start of a kernel message, and when? */
static enum occ dmesg_time(const char *line, const char *m, double *t, char *bad, size_t badlen)
{
	const char *e = m, *b, *p;

	while (e > line && isspace((unsigned char)e[-1]))
		e--;
	if (e == line) {
		snprintf(bad, badlen, "no timestamp (printk.time=0 or dmesg -t?)");
		return OCC_BAD;
	}
	b = memrchr(line, '[', e - line);
	if (e[-1] != ']') {
		if (b && !memchr(b, ']', e - b))
			return malformed(bad, badlen, "unterminated timestamp", b, e);
		return OCC_NONE;
	}
	/* "[    T1]" or "[   C0]" of CONFIG_PRINTK_CALLER before the time */
	p = b ? b + 1 + strspn(b + 1, " ") : NULL;
	if (b && (*p == 'T' || *p == 'C') && p < e - 2 && p + 1 + strspn(p + 1, DIGITS) == e - 1) {
		e = b;
		while (e > line && e[-1] == ' ')
			e--;
		b = (e > line && e[-1] == ']') ? memrchr(line, '[', e - line) : NULL;
	}
	if (!b || parse_time_bracket(b, e, t))
		return malformed(bad, badlen, "malformed timestamp", b ? b : line, e);
	return OCC_OK;
}

/* "prio,seq,usec[,flags...]" of a /dev/kmsg record. */
static int kmsg_time(const char *s, const char *e, double *t)
{
	unsigned long long v = 0;
	const char *d;
	int i;

	for (i = 0; i < 3; i++, s++) {
		for (d = s, v = 0; s < e && isdigit((unsigned char)*s); s++) {
			if (v > (ULLONG_MAX - 9) / 10)
				return -1;
			v = v * 10 + (*s - '0');
		}
		/* prio and seq end at a ',', usec at e or a ',' */
		if (s == d || (s < e ? *s != ',' : i < 2))
			return -1;
	}
	*t = v / 1e6;
	return 0;
}

/* Does msg (the rest of the line) start with marker name? */
static bool marker_at(const char *name, const char *msg)
{
	size_t n = strcspn(name, "%"), len = strlen(msg), tn;

	if (strncmp(msg, name, n))
		return false;
	if (!name[n])	/* "...: %luk", or cut right after it in a partial line */
		return msg[n] == ':' || msg[n] == '\0';
	tn = strlen(name + n + 2);
	return len > n + tn && !strcmp(msg + len - tn, name + n + 2);
}

static void record(struct marker_seen *ms, enum occ o, double t, const char *why, size_t lineno)
{
	if (o == OCC_BAD && !ms->bad[0])
		snprintf(ms->bad, sizeof(ms->bad), "line %zu: %s", lineno, why);
	/* two times: two boots; the same line echoed later (dmesg on a console) is fine */
	else if (o != OCC_BAD && (!ms->nr || (ms->nr == 1 && fabs(t - ms->t[0]) > SAME_TIME)))
		ms->t[ms->nr++] = t;
}

static void scan_line(const char *line, struct marker_seen *seen, size_t lineno, double *first_t)
{
	const char *d = line + strspn(line, DIGITS);	/* a /dev/kmsg record? */
	const char *semi = d > line && *d == ',' ? strchr(d, ';') : NULL;
	const char *msg = semi ? semi + 1 : line, *p = strchr(line, '[');
	char why[128] = "";
	enum occ o = OCC_OK;
	double t = 0;
	size_t i, n;

	if (semi && kmsg_time(line, semi, &t))
		o = malformed(why, sizeof(why), "malformed /dev/kmsg record prefix", line, semi);
	if (*first_t < 0 && (semi ? o == OCC_OK : p && strchr(p, ']') &&
			     !parse_time_bracket(p, strchr(p, ']') + 1, &t)))
		*first_t = t;
	for (i = 0; i < NR_MARKERS; i++) {
		n = strcspn(markers[i], "%");
		for (p = msg; (p = memmem(p, strlen(p), markers[i], n)); p++) {
			/* a record's message starts with it, dmesg's has a time */
			if (!marker_at(markers[i], p) || (semi && p != msg))
				continue;
			if (!semi)
				o = dmesg_time(line, p, &t, why, sizeof(why));
			if (o == OCC_NONE)
				continue;
			record(&seen[i], o, t, why, lineno);
			return;
		}
	}
}

int rp_find_boot_marker(const char *log, struct rp_marker *m, char *err, size_t errlen)
{
	struct marker_seen seen[NR_MARKERS] = { 0 };
	const char *s, *e;
	double first_t = -1;
	size_t lineno = 0, i;
	char *line;

	if (!err)
		errlen = 0;
	rp_why(err, errlen, "%s", "");
	if (!log || !*log) {
		rp_why(err, errlen, "empty kernel log");
		return -1;
	}
	line = rp_xrealloc(NULL, strlen(log) + 1);
	/*
	 * A bare CR also ends a line: serial consoles send CRLF or CRCRLF and
	 * whatever follows a bare CR overwrote the start of the line.
	 */
	for (s = log, lineno = 1; ; s = e + 1) {
		e = s + strcspn(s, "\r\n");
		if (e > s) {
			clean_line(line, s, e);
			scan_line(line, seen, lineno, &first_t);
		}
		if (!*e)
			break;
		if (*e == '\n')
			lineno++;
	}
	free(line);

	for (i = 0; i < NR_MARKERS; i++) {
		struct marker_seen *ms = &seen[i];

		if (!ms->nr && !ms->bad[0])
			continue;
		if (!ms->nr) {
			rp_why(err, errlen, "%s for '%s'", ms->bad, markers[i]);
			return -2;
		}
		if (ms->nr > 1) {
			rp_why(err, errlen,
			       "'%s' at both %.6f s and %.6f s: several boots in one log?",
			       markers[i], ms->t[0], ms->t[1]);
			return -2;
		}
		if (m) {
			m->name = markers[i];
			m->t = ms->t[0];
		}
		return 0;
	}
	if (first_t > 1.0)
		rp_why(err, errlen, NO_MARKER "; the log starts at %.3f s: wrapped since boot?",
		       first_t);
	else
		rp_why(err, errlen, NO_MARKER " in %zu lines (a console needs loglevel>=7)",
		       lineno - (s > log && s[-1] == '\n'));
	return -1;
}

/* /dev/kmsg from its first record on (one record per read()) */
char *rp_read_kmsg(void)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	ssize_t n;
	int fd, err;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		if (cap - len <= 16384) {	/* room for a whole record */
			cap = cap ? cap * 2 : 65536;
			buf = rp_xrealloc(buf, cap);
		}
		n = read(fd, buf + len, 16384);
		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;	/* EPIPE: overwritten while reading */
		if (n <= 0)
			break;
		len += n;
	}
	err = n < 0 && errno != EAGAIN ? errno : 0;
	close(fd);
	buf[len] = '\0';
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	return buf;
}

char *rp_read_log(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *log;

	if (!f)
		return NULL;
	log = rp_read_stream(f, RP_LOG_MAX);
	if (f != stdin)
		fclose(f);
	return log;
}

int rp_log_cmdline(const char *log, char *buf, size_t len)
{
	static const char key[] = "Kernel command line: ";
	const char *p, *e;

	if (!log || !len)
		return -1;
	/* the message, not an echo of it: after "] " or the record's ';' */
	for (p = strstr(log, key); p; p = strstr(p + 1, key))
		if (p > log && (p[-1] == ';' || (p[-1] == ' ' && p - 1 > log && p[-2] == ']')))
			break;
	if (!p)
		return -1;
	p += sizeof(key) - 1;
	e = p + strcspn(p, "\r\n");
	clean_line(buf, p, (size_t)(e - p) < len ? e : p + len - 1);
	return 0;
}

int rp_rcu_params(const char *cmdline, char *buf, size_t len)
{
	/*
	 * Boot parameters that shape RCU performance: RCU's own and those
	 * that decide where and how often CPUs tick. The one list of the suite.
	 */
	static const char * const pfx[] = {
		"rcu", "srcu", "nohz", "isolcpus", "preempt=", "threadirqs",
		"irqaffinity", "skew_tick", "maxcpus", "nr_cpus",
	};
	size_t n, used = 0;
	const char *p;
	int count = 0;

	if (len)
		buf[0] = '\0';
	for (p = cmdline; p && *p; p += n) {
		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		if (!n || (n == 2 && !strncmp(p, "--", 2)))
			break;		/* "--": the rest is init's */
		if (!rp_has_prefix(p, pfx, ARRAY_SIZE(pfx)))
			continue;
		if (used + n + 2 <= len)
			used += snprintf(buf + used, len - used, "%s%.*s",
					 used ? " " : "", (int)n, p);
		count++;
	}
	return count;
}
