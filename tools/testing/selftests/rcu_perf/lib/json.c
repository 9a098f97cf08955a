// SPDX-License-Identifier: GPL-2.0
/*
 * A small JSON writer and a strict RFC 8259 reader. The writer pretty-prints,
 * writes the shortest number that reads back bit-exact and never an invalid
 * document (NaN/Inf become null, invalid UTF-8 U+FFFD). The reader refuses
 * a BOM, "\u0000" (values are C strings) and numbers past a double; of a
 * repeated key, rp_json_get() finds the first. Every error is one line; out
 * of memory ends the program.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rcu_perf.h"

#define RP_JSON_MAX_DEPTH	64
#define JW_MAX_DEPTH		31

/* Length of the valid UTF-8 sequence at s (of avail bytes), 0: overlong, surrogate, > U+10FFFF */
static size_t utf8_seq(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0];
	size_t n = c < 0x80 ? 1 : c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0, i;
	/* 2nd byte: E0, F0 overlong, ED a surrogate, F4 above U+10FFFF */
	unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;

	if (n < 2)
		return n;
	if (avail < n || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

static size_t utf8_put(char *out, unsigned int cp)
{
	static const unsigned char lead[] = { 0, 0, 0xc0, 0xe0, 0xf0 };
	size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4, i;

	for (i = n - 1; i > 0; i--, cp >>= 6)
		out[i] = (char)(0x80 | (cp & 0x3f));
	out[0] = (char)(lead[n] | cp);
	return n;
}

void rp_jw_init(struct rp_jw *w, FILE *f)
{
	*w = (struct rp_jw){ .f = f, .first[0] = true };
}

/* Deeper levels share the last slot (depth is never below 0). */
static int jw_level(const struct rp_jw *w)
{
	return w->depth > JW_MAX_DEPTH ? JW_MAX_DEPTH : w->depth;
}

static void jw_string(FILE *f, const char *s)
{
	static const char esc[] = "\"\\\n\t\r\b\f", name[] = "\"\\ntrbf";
	const unsigned char *p = (const unsigned char *)s;
	const char *e;
	size_t n;

	fputc('"', f);
	while (*p) {
		e = strchr(esc, *p);
		n = utf8_seq(p, 4);	/* a NUL stops a truncated sequence */
		if (e)
			fprintf(f, "\\%c", name[e - esc]);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else if (n)
			fwrite(p, 1, n, f);
		else
			fputs("\\ufffd", f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

/* Separator, indentation and key; arrays of scalars share a line */
static void jw_prefix(struct rp_jw *w, const char *key, bool container)
{
	int d = jw_level(w);

	if (w->depth <= 0) {
		if (!w->first[0])
			fputc('\n', w->f);	/* misuse: a 2nd document */
	} else if (w->is_arr[d] && !container && !w->wrapped[d]) {
		fputs(w->first[d] ? "" : ", ", w->f);
	} else {
		fprintf(w->f, "%s\n%*s", w->first[d] ? "" : ",", 2 * w->depth, "");
		w->wrapped[d] = w->is_arr[d];
		/* a member needs a name: never write an invalid document */
		if (!w->is_arr[d]) {
			jw_string(w->f, key ? key : "");
			fputs(": ", w->f);
		}
	}
	w->first[d] = false;
}

void rp_jw_begin(struct rp_jw *w, const char *key, bool arr)
{
	int d;

	jw_prefix(w, key, true);
	fputc(arr ? '[' : '{', w->f);
	w->depth++;
	d = jw_level(w);
	w->first[d] = true;
	w->is_arr[d] = arr;
	w->wrapped[d] = false;
}

void rp_jw_end(struct rp_jw *w, bool arr)
{
	int d = jw_level(w);

	if (w->depth <= 0)
		return;		/* unbalanced: ignore rather than corrupt */
	if (!w->first[d] && (!w->is_arr[d] || w->wrapped[d]))
		fprintf(w->f, "\n%*s", 2 * (w->depth - 1), "");
	fputc(arr ? ']' : '}', w->f);
	w->depth--;
	if (!w->depth)
		fputc('\n', w->f);
}

/* The string @str, else @text as it is; at the top level, the document. */
static void jw_scalar(struct rp_jw *w, const char *key, const char *text, const char *str)
{
	jw_prefix(w, key, false);
	if (str)
		jw_string(w->f, str);
	else
		fputs(text, w->f);
	if (w->depth <= 0)
		fputc('\n', w->f);
}

void rp_jw_str(struct rp_jw *w, const char *key, const char *v)
{
	jw_scalar(w, key, "null", v);
}

/* Shortest of %.15g..%.17g that reads back exactly. */
void rp_jw_num(struct rp_jw *w, const char *key, double v)
{
	char buf[32] = "null";
	int prec;

	for (prec = 15; isfinite(v) && prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	jw_scalar(w, key, buf, NULL);
}

void rp_jw_int(struct rp_jw *w, const char *key, long long v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", v);
	jw_scalar(w, key, buf, NULL);
}

void rp_jw_bool(struct rp_jw *w, const char *key, bool v)
{
	jw_scalar(w, key, v ? "true" : "false", NULL);
}

struct jp {
	const char *s;		/* NUL-terminated after len (strtod()) */
	size_t len, pos;
	int depth;
	char *err;
	size_t errlen;
};

/* Always false: "return jp_fail(...)" fails a step of the reader. */
static bool __printf(3, 4) jp_fail(struct jp *p, size_t at, const char *fmt, ...)
{
	size_t i, line = 1, col = 1;
	char msg[128];
	va_list ap;

	for (i = 0; i < at && i < p->len; i++, col++) {
		if (p->s[i] == '\n') {
			line++;
			col = 0;
		}
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "line %zu col %zu: %s", line, col, msg);
	return false;
}

/* What is at pos instead of @expected (NULL: the end of the document). */
static bool jp_unexpected(struct jp *p, const char *expected)
{
	unsigned char c = (unsigned char)p->s[p->pos];
	char got[16];

	if (p->pos >= p->len)
		return jp_fail(p, p->pos, "unexpected end of input, expected %s", expected);
	snprintf(got, sizeof(got), c > 0x20 && c < 0x7f ? "'%c'" : "byte 0x%02x", c);
	if (!expected)
		return jp_fail(p, p->pos, "unexpected %s after the JSON value", got);
	return jp_fail(p, p->pos, "expected %s, got %s", expected, got);
}

static int jp_peek(struct jp *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

/* Steps over the byte at pos if it is one of @set (never a NUL). */
static bool jp_eat(struct jp *p, const char *set)
{
	int c = jp_peek(p);

	return c > 0 && strchr(set, c) && ++p->pos;
}

static void jp_ws(struct jp *p)
{
	p->pos += strspn(p->s + p->pos, " \t\n\r");	/* stops at s[len], a NUL */
}

/* One digit or more, else @expected is what is missing. */
static bool jp_digits(struct jp *p, const char *expected)
{
	size_t n = strspn(p->s + p->pos, "0123456789");

	p->pos += n;
	return n || jp_unexpected(p, expected);
}

static int jp_hex4(struct jp *p, size_t at)
{
	char hex[5] = "";

	if (at + 4 <= p->len)
		memcpy(hex, p->s + at, 4);
	return strspn(hex, "0123456789abcdefABCDEF") == 4 ? (int)strtol(hex, NULL, 16) : -1;
}

/* The code point of the escape after the backslash at @at; 0 on error */
static int jp_escape(struct jp *p, size_t at)
{
	static const char esc[] = "\"\\/bfnrt", val[] = "\"\\/\b\f\n\r\t";
	unsigned char c = (unsigned char)p->s[at + 1];
	const char *e = c ? strchr(esc, c) : NULL;
	int cp, lo = -1;

	p->pos = at + 2;
	if (e)
		return val[e - esc];
	if (c != 'u')
		return jp_fail(p, at, c > 0x20 && c < 0x7f ? "invalid escape '\\%c'" :
			       "invalid escape '\\' + byte 0x%02x", c);
	cp = jp_hex4(p, p->pos);
	if (cp < 0)
		return jp_fail(p, at, "invalid \\u escape: expected 4 hex digits");
	p->pos += 4;
	/* a high surrogate and a low one are one code point */
	if (cp >= 0xd800 && cp <= 0xdbff && !strncmp(p->s + p->pos, "\\u", 2))
		lo = jp_hex4(p, p->pos + 2);
	if (lo >= 0xdc00 && lo <= 0xdfff) {
		p->pos += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	} else if (cp >= 0xd800 && cp <= 0xdfff) {
		return jp_fail(p, at, "unpaired surrogate \\u%04x", cp);
	}
	if (!cp)
		return jp_fail(p, at, "\\u0000 is not supported in strings");
	return cp;
}

/* A string at p->pos (the opening quote); malloc'd, NULL on error. */
static char *jp_string(struct jp *p)
{
	size_t start = p->pos, i = start + 1, n = 0;
	char *out;
	int cp = 1;

	/* every escape shrinks, so the raw span bounds the decoded size */
	while (i < p->len && p->s[i] != '"')
		i += p->s[i] == '\\' ? 2 : 1;
	out = rp_xrealloc(NULL, (i < p->len ? i : p->len) - start + 1);
	for (p->pos++; cp && p->s[p->pos] != '"'; ) {
		size_t at = p->pos;
		unsigned char c = (unsigned char)p->s[at];	/* s[len] is a NUL */
		size_t k = utf8_seq((const unsigned char *)p->s + at, p->len - at);

		if (at >= p->len || (c == '\\' && at + 1 >= p->len)) {
			cp = jp_fail(p, start, "unterminated string");
		} else if (c < 0x20) {
			cp = jp_fail(p, at, "raw control character 0x%02x %s", c,
				     "in string (must be escaped)");
		} else if (!k) {
			cp = jp_fail(p, at, "invalid UTF-8 in string");
		} else if (c == '\\') {
			cp = jp_escape(p, at);
			n += cp ? utf8_put(out + n, (unsigned int)cp) : 0;
		} else {
			memcpy(out + n, p->s + at, k);
			n += k;
			p->pos += k;
		}
	}
	if (!cp) {
		free(out);
		return NULL;
	}
	p->pos++;
	out[n] = '\0';
	return out;
}

/* RFC 8259: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)? */
static bool jp_number(struct jp *p, double *out)
{
	size_t start = p->pos;

	jp_eat(p, "-");
	if (!jp_eat(p, "0") && !jp_digits(p, "a digit in number"))
		return false;
	if (isdigit(jp_peek(p)))	/* after a 0 */
		return jp_fail(p, p->pos - 1, "invalid number: leading zero");
	if (jp_eat(p, ".") && !jp_digits(p, "a digit after '.' in number"))
		return false;
	if (jp_eat(p, "eE")) {
		jp_eat(p, "+-");
		if (!jp_digits(p, "a digit in exponent"))
			return false;
	}
	/* strtod() reads more than checked only where the text is invalid anyway (0x1p9) */
	*out = strtod(p->s + start, NULL);
	return !isinf(*out) || jp_fail(p, start, "number out of range");
}

static struct rp_jval *jp_value(struct jp *p);

/*
 * The members of an object or the elements of an array, from its bracket.
 * An item is in @c before it is read, so that freeing @c frees what it got.
 */
static bool jp_container(struct jp *p, struct rp_jval *c)
{
	bool obj = c->type == RP_JOBJ;
	const char *close = obj ? "}" : "]";
	size_t n;

	for (p->pos++; ; ) {	/* after the bracket or a ',' */
		jp_ws(p);
		if (!c->len && jp_eat(p, close))
			return true;
		if (jp_peek(p) == *close)
			return jp_fail(p, p->pos, "expected %s, got '%s' (no trailing commas)",
				       obj ? "a string key" : "a value", close);
		if (obj && jp_peek(p) != '"')
			return jp_unexpected(p, c->len ? "a string key" : "a string key or '}'");
		n = c->len++;
		c->items = rp_xgrow(c->items, n, sizeof(*c->items));
		c->items[n] = NULL;
		if (obj) {
			c->keys = rp_xgrow(c->keys, n, sizeof(*c->keys));
			c->keys[n] = jp_string(p);
			if (!c->keys[n])
				return false;
			jp_ws(p);
			if (!jp_eat(p, ":"))
				return jp_unexpected(p, "':' after key");
		}
		c->items[n] = jp_value(p);
		if (!c->items[n])
			return false;
		jp_ws(p);
		if (jp_eat(p, close))
			return true;
		if (!jp_eat(p, ","))
			return jp_unexpected(p, obj ? "',' or '}' after object member" :
					     "',' or ']' after array element");
	}
}

/* One value with its leading whitespace; recursion bounded by depth. */
static struct rp_jval *jp_value(struct jp *p)
{
	struct rp_jval *v;
	bool ok;
	int c;

	jp_ws(p);
	c = jp_peek(p);
	if (c <= 0 || !strchr("{[\"tfn-0123456789", c)) {
		jp_unexpected(p, "a value");
		return NULL;
	}
	v = rp_xrealloc(NULL, sizeof(*v));
	memset(v, 0, sizeof(*v));
	if (c == '{' || c == '[') {
		v->type = c == '{' ? RP_JOBJ : RP_JARR;
		ok = ++p->depth <= RP_JSON_MAX_DEPTH ? jp_container(p, v) :
		     jp_fail(p, p->pos, "nesting deeper than %d levels", RP_JSON_MAX_DEPTH);
		p->depth--;
	} else if (c == '"') {
		v->type = RP_JSTR;
		v->str = jp_string(p);
		ok = v->str;
	} else if (c == '-' || isdigit(c)) {
		v->type = RP_JNUM;
		ok = jp_number(p, &v->num);
	} else {	/* the text ends in a NUL: strncmp() stops there */
		const char *word = c == 'n' ? "null" : c == 't' ? "true" : "false";

		v->type = c == 'n' ? RP_JNULL : RP_JBOOL;
		v->b = c == 't';
		ok = !strncmp(p->s + p->pos, word, strlen(word));
		p->pos += ok ? strlen(word) : 0;
		ok = ok || jp_fail(p, p->pos, "invalid literal (expected '%s')", word);
	}
	if (!ok) {
		rp_json_free(v);
		return NULL;
	}
	return v;
}

static struct rp_jval *jp_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct jp p = { .s = text, .len = len, .err = err, .errlen = errlen };
	struct rp_jval *v;

	v = jp_value(&p);
	jp_ws(&p);
	if (v && p.pos < p.len) {
		jp_unexpected(&p, NULL);
		rp_json_free(v);
		return NULL;
	}
	return v;
}

struct rp_jval *rp_json_parse(const char *text, char *err, size_t errlen)
{
	return jp_parse(text, strlen(text), err, errlen);
}

/* A results file is a few MB at most: a larger one (or an endless device) is not read in. */
#define RP_JSON_MAX_BYTES	(64 << 20)

struct rp_jval *rp_json_parse_file(const char *path, char *err, size_t errlen)
{
	char *buf = NULL, msg[256];
	size_t len = 0, cap = 0;
	struct rp_jval *v = NULL;
	FILE *f = fopen(path, "r");
	int e = errno;

	while (f && !ferror(f) && !feof(f) && len <= RP_JSON_MAX_BYTES) {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 65536;
			buf = rp_xrealloc(buf, cap);
		}
		len += fread(buf + len, 1, cap - len, f);
	}
	/* errno of the failed read(), e.g. EISDIR */
	if (f) {
		e = len > RP_JSON_MAX_BYTES ? EFBIG : ferror(f) ? errno : 0;
		fclose(f);
	}
	if (!e) {
		buf[len] = '\0';	/* room: the last read found none to fill */
		v = jp_parse(buf, len, msg, sizeof(msg));
	}
	free(buf);
	if (e)
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e));
	else if (!v)
		snprintf(err, errlen, "%s: %s", path, msg);
	return v;
}

void rp_json_free(struct rp_jval *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->len; i++) {
		rp_json_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

struct rp_jval *rp_json_get(const struct rp_jval *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != RP_JOBJ || !key)
		return NULL;
	for (i = 0; i < obj->len; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}
