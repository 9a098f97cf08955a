// SPDX-License-Identifier: GPL-2.0
/*
 * A small JSON writer and a strict RFC 8259 reader.
 *
 * The writer pretty-prints with two-space indentation, keeps arrays of
 * scalars on one line (sample lists stay readable), writes the shortest
 * number that reads back bit-exact, NaN/Inf as null, and always emits
 * valid UTF-8: invalid bytes in strings become U+FFFD. Nesting deeper than
 * 31 levels is not supported.
 *
 * The reader accepts exactly RFC 8259 JSON in UTF-8 (no comments, trailing
 * commas, leading zeros, BOM, raw control characters or invalid UTF-8),
 * plus two limits of its own: nesting is at most RP_JSON_MAX_DEPTH deep and
 * "\u0000" is refused, since values are C strings. Duplicate keys and
 * numbers that overflow a double are errors too. Every error is one line.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rcu_perf.h"

#define RP_JSON_MAX_DEPTH	64
#define JW_MAX_DEPTH		31

/* ------------------------------------------------------------------ */
/* UTF-8                                                               */
/* ------------------------------------------------------------------ */

/*
 * Length of the valid UTF-8 sequence at s (at most avail bytes), 0 if
 * invalid: no overlong forms, surrogates or code points above U+10FFFF.
 */
static size_t utf8_seq(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if (avail < n || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

static size_t utf8_put(char *out, unsigned int cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* ------------------------------------------------------------------ */
/* Writer                                                              */
/* ------------------------------------------------------------------ */

void rp_jw_init(struct rp_jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->first[0] = true;
}

static int jw_level(const struct rp_jw *w)
{
	if (w->depth < 0)
		return 0;
	return w->depth > JW_MAX_DEPTH ? JW_MAX_DEPTH : w->depth;
}

static void jw_newline(struct rp_jw *w, int depth)
{
	int i;

	fputc('\n', w->f);
	for (i = 0; i < depth; i++)
		fputs("  ", w->f);
}

static void jw_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	fputc('"', f);
	while (*p) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		default:
			if (*p < 0x20) {
				fprintf(f, "\\u%04x", *p);
				break;
			}
			/* the terminating NUL stops a truncated sequence */
			n = utf8_seq(p, 4);
			if (!n) {
				fputs("\\ufffd", f);
				break;
			}
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		p++;
	}
	fputc('"', f);
}

/*
 * Separator, indentation and key before a value. In arrays, scalars stay
 * on the line of the previous item until a container is written; objects
 * put each member on its own line.
 */
static void jw_prefix(struct rp_jw *w, const char *key, bool container)
{
	int d = jw_level(w);

	if (w->depth <= 0) {
		if (!w->first[0])
			fputc('\n', w->f);	/* misuse: a 2nd document */
	} else if (w->is_arr[d]) {
		if (container || w->wrapped[d]) {
			fputs(w->first[d] ? "" : ",", w->f);
			jw_newline(w, w->depth);
			w->wrapped[d] = true;
		} else if (!w->first[d]) {
			fputs(", ", w->f);
		}
	} else {
		fputs(w->first[d] ? "" : ",", w->f);
		jw_newline(w, w->depth);
		/* a member needs a name: never write an invalid document */
		jw_string(w->f, key ? key : "");
		fputs(": ", w->f);
	}
	w->first[d] = false;
}

/* A scalar at the top level ends the document. */
static void jw_scalar_done(struct rp_jw *w)
{
	if (w->depth <= 0)
		fputc('\n', w->f);
}

static void jw_begin(struct rp_jw *w, const char *key, bool arr)
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

static void jw_end(struct rp_jw *w, bool arr)
{
	int d = jw_level(w);

	if (w->depth <= 0)
		return;		/* unbalanced: ignore rather than corrupt */
	if (!w->first[d] && (!w->is_arr[d] || w->wrapped[d]))
		jw_newline(w, w->depth - 1);
	fputc(arr ? ']' : '}', w->f);
	w->depth--;
	if (!w->depth)
		fputc('\n', w->f);
}

void rp_jw_obj_begin(struct rp_jw *w, const char *key)
{
	jw_begin(w, key, false);
}

void rp_jw_obj_end(struct rp_jw *w)
{
	jw_end(w, false);
}

void rp_jw_arr_begin(struct rp_jw *w, const char *key)
{
	jw_begin(w, key, true);
}

void rp_jw_arr_end(struct rp_jw *w)
{
	jw_end(w, true);
}

void rp_jw_str(struct rp_jw *w, const char *key, const char *v)
{
	jw_prefix(w, key, false);
	if (v)
		jw_string(w->f, v);
	else
		fputs("null", w->f);
	jw_scalar_done(w);
}

/* Shortest of %.15g..%.17g that reads back exactly. */
void rp_jw_num(struct rp_jw *w, const char *key, double v)
{
	char buf[32];
	int prec;

	jw_prefix(w, key, false);
	if (!isfinite(v)) {
		fputs("null", w->f);
	} else {
		for (prec = 15; prec < 17; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, v);
			if (strtod(buf, NULL) == v)
				break;
		}
		if (prec == 17)
			snprintf(buf, sizeof(buf), "%.17g", v);
		fputs(buf, w->f);
	}
	jw_scalar_done(w);
}

void rp_jw_int(struct rp_jw *w, const char *key, long long v)
{
	jw_prefix(w, key, false);
	fprintf(w->f, "%lld", v);
	jw_scalar_done(w);
}

void rp_jw_bool(struct rp_jw *w, const char *key, bool v)
{
	jw_prefix(w, key, false);
	fputs(v ? "true" : "false", w->f);
	jw_scalar_done(w);
}

void rp_jw_null(struct rp_jw *w, const char *key)
{
	jw_prefix(w, key, false);
	fputs("null", w->f);
	jw_scalar_done(w);
}

/* ------------------------------------------------------------------ */
/* Reader                                                              */
/* ------------------------------------------------------------------ */

struct jp {
	const char *s;
	size_t len, pos;
	int depth;
	char *err;
	size_t errlen;
};

static void __printf(3, 4) jp_fail(struct jp *p, size_t at, const char *fmt, ...)
{
	size_t i, line = 1, col = 1, n;
	va_list ap;

	if (!p->err || !p->errlen)
		return;
	for (i = 0; i < at && i < p->len; i++) {
		if (p->s[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	n = (size_t)snprintf(p->err, p->errlen, "line %zu col %zu: ", line,
			     col);
	if (n >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
}

/* What stands at pos, for messages: "end of input", "'x'", "byte 0x01". */
static const char *jp_what(struct jp *p, size_t pos, char *buf, size_t len)
{
	unsigned char c;

	if (pos >= p->len)
		return "end of input";
	c = (unsigned char)p->s[pos];
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

static void jp_unexpected(struct jp *p, const char *expected)
{
	char buf[16];

	if (p->pos >= p->len)
		jp_fail(p, p->pos, "unexpected end of input, expected %s",
			expected);
	else
		jp_fail(p, p->pos, "expected %s, got %s", expected,
			jp_what(p, p->pos, buf, sizeof(buf)));
}

static void jp_ws(struct jp *p)
{
	while (p->pos < p->len) {
		char c = p->s[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static int jp_peek(struct jp *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static bool jp_digit(struct jp *p)
{
	return p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9';
}

static int jp_hex4(struct jp *p, size_t at)
{
	int v = 0, i;

	if (at + 4 > p->len)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p->s[at + i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* A string at p->pos (the opening quote); malloc'd, NULL on error. */
static char *jp_string(struct jp *p)
{
	size_t start = p->pos, i = start + 1, n = 0;
	char *out;

	/* every escape shrinks, so the raw span bounds the decoded size */
	while (i < p->len && p->s[i] != '"')
		i += p->s[i] == '\\' ? 2 : 1;
	out = malloc((i < p->len ? i : p->len) - start + 1);
	if (!out) {
		jp_fail(p, start, "out of memory");
		return NULL;
	}
	p->pos++;
	for (;;) {
		unsigned char c;
		size_t at = p->pos, k;
		int cp, lo;

		if (p->pos >= p->len) {
			jp_fail(p, start, "unterminated string");
			goto fail;
		}
		c = (unsigned char)p->s[p->pos];
		if (c == '"') {
			p->pos++;
			break;
		}
		if (c < 0x20) {
			jp_fail(p, at, "raw control character 0x%02x in string (must be escaped)",
				c);
			goto fail;
		}
		if (c >= 0x80) {
			k = utf8_seq((const unsigned char *)p->s + at,
				     p->len - at);
			if (!k) {
				jp_fail(p, at, "invalid UTF-8 in string");
				goto fail;
			}
			memcpy(out + n, p->s + at, k);
			n += k;
			p->pos += k;
			continue;
		}
		if (c != '\\') {
			out[n++] = (char)c;
			p->pos++;
			continue;
		}
		if (p->pos + 1 >= p->len) {
			jp_fail(p, start, "unterminated string");
			goto fail;
		}
		c = (unsigned char)p->s[p->pos + 1];
		p->pos += 2;
		switch (c) {
		case '"':
		case '\\':
		case '/':
			out[n++] = (char)c;
			continue;
		case 'b':
			out[n++] = '\b';
			continue;
		case 'f':
			out[n++] = '\f';
			continue;
		case 'n':
			out[n++] = '\n';
			continue;
		case 'r':
			out[n++] = '\r';
			continue;
		case 't':
			out[n++] = '\t';
			continue;
		case 'u':
			break;
		default:
			if (c > 0x20 && c < 0x7f)
				jp_fail(p, at, "invalid escape '\\%c'", c);
			else
				jp_fail(p, at, "invalid escape '\\' + byte 0x%02x",
					c);
			goto fail;
		}
		cp = jp_hex4(p, p->pos);
		if (cp < 0) {
			jp_fail(p, at, "invalid \\u escape: expected 4 hex digits");
			goto fail;
		}
		p->pos += 4;
		if (cp >= 0xdc00 && cp <= 0xdfff) {
			jp_fail(p, at, "unpaired low surrogate \\u%04x", cp);
			goto fail;
		}
		if (cp >= 0xd800 && cp <= 0xdbff) {
			if (p->pos + 6 > p->len || p->s[p->pos] != '\\' ||
			    p->s[p->pos + 1] != 'u') {
				jp_fail(p, at, "unpaired high surrogate \\u%04x",
					cp);
				goto fail;
			}
			lo = jp_hex4(p, p->pos + 2);
			if (lo < 0xdc00 || lo > 0xdfff) {
				jp_fail(p, at,
					"high surrogate \\u%04x not followed by a low surrogate",
					cp);
				goto fail;
			}
			p->pos += 6;
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
		if (!cp) {
			jp_fail(p, at, "\\u0000 is not supported in strings");
			goto fail;
		}
		n += utf8_put(out + n, (unsigned int)cp);
	}
	out[n] = '\0';
	return out;
fail:
	free(out);
	return NULL;
}

/* RFC 8259: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)? */
static bool jp_number(struct jp *p, double *out)
{
	size_t start = p->pos, n;
	char sbuf[64], *buf = sbuf;
	bool ok = true;

	if (jp_peek(p) == '-')
		p->pos++;
	if (jp_peek(p) == '0') {
		p->pos++;
		if (jp_digit(p)) {
			jp_fail(p, p->pos - 1, "invalid number: leading zero");
			return false;
		}
	} else if (jp_digit(p)) {
		while (jp_digit(p))
			p->pos++;
	} else {
		jp_unexpected(p, "a digit in number");
		return false;
	}
	if (jp_peek(p) == '.') {
		p->pos++;
		if (!jp_digit(p)) {
			jp_unexpected(p, "a digit after '.' in number");
			return false;
		}
		while (jp_digit(p))
			p->pos++;
	}
	if (jp_peek(p) == 'e' || jp_peek(p) == 'E') {
		p->pos++;
		if (jp_peek(p) == '+' || jp_peek(p) == '-')
			p->pos++;
		if (!jp_digit(p)) {
			jp_unexpected(p, "a digit in exponent");
			return false;
		}
		while (jp_digit(p))
			p->pos++;
	}
	/* strtod() needs a terminated copy of exactly the validated span */
	n = p->pos - start;
	if (n >= sizeof(sbuf)) {
		buf = malloc(n + 1);
		if (!buf) {
			jp_fail(p, start, "out of memory");
			return false;
		}
	}
	memcpy(buf, p->s + start, n);
	buf[n] = '\0';
	*out = strtod(buf, NULL);
	if (isinf(*out)) {
		jp_fail(p, start, "number out of range");
		ok = false;
	}
	if (buf != sbuf)
		free(buf);
	return ok;
}

static bool jp_literal(struct jp *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n)) {
		jp_fail(p, p->pos, "invalid literal (expected '%s')", word);
		return false;
	}
	p->pos += n;
	return true;
}

/* Append v (and key) to a container; cap is the allocated length. */
static bool jp_append(struct jp *p, struct rp_jval *c, size_t *cap,
		      struct rp_jval *v, char *key)
{
	if (c->len == *cap) {
		size_t ncap = *cap ? 2 * *cap : 8;
		struct rp_jval **items;
		char **keys;

		items = realloc(c->items, ncap * sizeof(*items));
		if (!items)
			goto oom;
		c->items = items;
		if (key) {
			keys = realloc(c->keys, ncap * sizeof(*keys));
			if (!keys)
				goto oom;
			c->keys = keys;
		}
		*cap = ncap;
	}
	c->items[c->len] = v;
	if (key)
		c->keys[c->len] = key;
	c->len++;
	return true;
oom:
	jp_fail(p, p->pos, "out of memory");
	return false;
}

static struct rp_jval *jp_value(struct jp *p);

/* Make a short, printable copy of a key for an error message. */
static void key_for_msg(const char *key, char *buf, size_t len)
{
	size_t i;

	for (i = 0; key[i] && i + 1 < len; i++)
		buf[i] = key[i] >= 0x20 && key[i] < 0x7f ? key[i] : '?';
	buf[i] = '\0';
}

struct jkey {
	const char *key;
	size_t at;
};

static int jkey_cmp(const void *a, const void *b)
{
	const struct jkey *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/*
 * A key twice in one object, at[i] where key i began: sorted, a key is
 * next to its twin, O(n log n) where comparing each key with all before
 * it made a large object (a hostile file) quadratic. Reports the first
 * repeat in the text.
 */
static bool jp_unique_keys(struct jp *p, struct rp_jval *o, const size_t *at)
{
	const char *name = NULL;
	size_t i, dup = 0;
	struct jkey *k;
	char kbuf[48];

	if (o->len < 2)
		return true;
	k = malloc(o->len * sizeof(*k));
	if (!k) {
		jp_fail(p, p->pos, "out of memory");
		return false;
	}
	for (i = 0; i < o->len; i++) {
		k[i].key = o->keys[i];
		k[i].at = at[i];
	}
	qsort(k, o->len, sizeof(*k), jkey_cmp);
	for (i = 1; i < o->len; i++) {
		if (!strcmp(k[i - 1].key, k[i].key) && (!name || k[i].at < dup)) {
			name = k[i].key;
			dup = k[i].at;
		}
	}
	if (name) {
		key_for_msg(name, kbuf, sizeof(kbuf));
		jp_fail(p, dup, "duplicate key \"%s\"", kbuf);
	}
	free(k);
	return !name;
}

static bool jp_object(struct jp *p, struct rp_jval *o)
{
	size_t cap = 0, *at = NULL, *nat;
	bool ok = false;
	struct rp_jval *v;
	char *key;

	p->pos++;
	jp_ws(p);
	if (jp_peek(p) == '}') {
		p->pos++;
		return true;
	}
	for (;;) {
		if (jp_peek(p) == '}' && o->len) {
			jp_fail(p, p->pos, "expected a string key, got '}' (no trailing commas)");
			goto out;
		}
		if (jp_peek(p) != '"') {
			jp_unexpected(p, o->len ? "a string key" :
				      "a string key or '}'");
			goto out;
		}
		if (o->len == cap) {
			nat = realloc(at, (cap ? 2 * cap : 8) * sizeof(*at));
			if (!nat) {
				jp_fail(p, p->pos, "out of memory");
				goto out;
			}
			at = nat;
		}
		at[o->len] = p->pos;
		key = jp_string(p);
		if (!key)
			goto out;
		jp_ws(p);
		if (jp_peek(p) != ':') {
			jp_unexpected(p, "':' after key");
			free(key);
			goto out;
		}
		p->pos++;
		v = jp_value(p);
		if (!v) {
			free(key);
			goto out;
		}
		if (!jp_append(p, o, &cap, v, key)) {
			rp_json_free(v);
			free(key);
			goto out;
		}
		jp_ws(p);
		if (jp_peek(p) == '}') {
			p->pos++;
			ok = jp_unique_keys(p, o, at);
			goto out;
		}
		if (jp_peek(p) != ',') {
			jp_unexpected(p, "',' or '}' after object member");
			goto out;
		}
		p->pos++;
		jp_ws(p);
	}
out:
	free(at);
	return ok;
}

static bool jp_array(struct jp *p, struct rp_jval *a)
{
	struct rp_jval *v;
	size_t cap = 0;

	p->pos++;
	jp_ws(p);
	if (jp_peek(p) == ']') {
		p->pos++;
		return true;
	}
	for (;;) {
		v = jp_value(p);
		if (!v)
			return false;
		if (!jp_append(p, a, &cap, v, NULL)) {
			rp_json_free(v);
			return false;
		}
		jp_ws(p);
		if (jp_peek(p) == ']') {
			p->pos++;
			return true;
		}
		if (jp_peek(p) != ',') {
			jp_unexpected(p, "',' or ']' after array element");
			return false;
		}
		p->pos++;
		jp_ws(p);
		if (jp_peek(p) == ']') {
			jp_fail(p, p->pos, "expected a value, got ']' (no trailing commas)");
			return false;
		}
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
	if (c < 0) {
		jp_unexpected(p, "a value");
		return NULL;
	}
	if (!strchr("{[\"tfn-0123456789", c) || !c) {
		jp_unexpected(p, "a value");
		return NULL;
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		jp_fail(p, p->pos, "out of memory");
		return NULL;
	}
	switch (c) {
	case '{':
	case '[':
		if (p->depth >= RP_JSON_MAX_DEPTH) {
			jp_fail(p, p->pos, "nesting deeper than %d levels",
				RP_JSON_MAX_DEPTH);
			ok = false;
			break;
		}
		p->depth++;
		v->type = c == '{' ? RP_JOBJ : RP_JARR;
		ok = c == '{' ? jp_object(p, v) : jp_array(p, v);
		p->depth--;
		break;
	case '"':
		v->type = RP_JSTR;
		v->str = jp_string(p);
		ok = v->str;
		break;
	case 't':
	case 'f':
		v->type = RP_JBOOL;
		v->b = c == 't';
		ok = jp_literal(p, v->b ? "true" : "false");
		break;
	case 'n':
		v->type = RP_JNULL;
		ok = jp_literal(p, "null");
		break;
	default:
		v->type = RP_JNUM;
		ok = jp_number(p, &v->num);
		break;
	}
	if (!ok) {
		rp_json_free(v);
		return NULL;
	}
	return v;
}

static struct rp_jval *jp_parse(const char *text, size_t len, char *err,
				size_t errlen)
{
	struct jp p = { .s = text, .len = len, .err = err, .errlen = errlen };
	struct rp_jval *v;

	if (err && errlen)
		err[0] = '\0';
	v = jp_value(&p);
	if (!v)
		return NULL;
	jp_ws(&p);
	if (p.pos < p.len) {
		char buf[16];

		jp_fail(&p, p.pos, "unexpected %s after the JSON value",
			jp_what(&p, p.pos, buf, sizeof(buf)));
		rp_json_free(v);
		return NULL;
	}
	return v;
}

struct rp_jval *rp_json_parse(const char *text, char *err, size_t errlen)
{
	if (!text) {
		if (err && errlen)
			snprintf(err, errlen, "line 1 col 1: no input");
		return NULL;
	}
	return jp_parse(text, strlen(text), err, errlen);
}

/*
 * A results or baseline file is a few MB at most: a larger one (or a
 * device without end) is not read into memory.
 */
#define RP_JSON_MAX_BYTES	(64 << 20)

struct rp_jval *rp_json_parse_file(const char *path, char *err, size_t errlen)
{
	char *buf = NULL, *nbuf, msg[256];
	size_t len = 0, cap = 0, got;
	struct rp_jval *v;
	FILE *f;
	int e;

	f = fopen(path, "r");
	if (!f)
		goto read_err;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 65536;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				errno = ENOMEM;
				goto read_err;
			}
			buf = nbuf;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (!got)
			break;
		if (len > RP_JSON_MAX_BYTES) {
			errno = EFBIG;
			goto read_err;
		}
	}
	if (ferror(f))
		goto read_err;	/* errno from the failed read(), e.g. EISDIR */
	fclose(f);
	v = jp_parse(buf, len, msg, sizeof(msg));
	free(buf);
	if (!v && err && errlen)
		snprintf(err, errlen, "%s: %s", path, msg);
	return v;

read_err:
	e = errno;
	if (f)
		fclose(f);
	free(buf);
	if (err && errlen)
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e));
	return NULL;
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
