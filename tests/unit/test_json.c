// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/json.c: the writer's exact output, writer -> reader
 * round trips, the strict reader on valid and malformed input, and
 * robustness: every truncation of a valid document and random byte flips
 * must give an error or a tree, never a crash (run it under valgrind).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

/* Write a document with fn() into a malloc'd string. */
static char *write_doc(void (*fn)(struct rp_jw *w))
{
	struct rp_jw w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	rp_jw_init(&w, f);
	fn(&w);
	fclose(f);
	return buf;
}

static bool str_is(const char *what, const char *got, const char *want)
{
	if (got && !strcmp(got, want))
		return true;
	ksft_print_msg("%s: got\n%s\n# want\n%s\n", what, got ? got : "(null)",
		       want);
	return false;
}

/* Parse must fail with a one-line "line L col C: ..." message. */
static bool parse_fails(const char *text, const char *want_msg)
{
	char err[256] = "";
	struct rp_jval *v = rp_json_parse(text, err, sizeof(err));
	unsigned int line, col;

	if (v) {
		ksft_print_msg("accepted invalid JSON: %s\n", text);
		rp_json_free(v);
		return false;
	}
	if (sscanf(err, "line %u col %u: ", &line, &col) != 2 ||
	    strchr(err, '\n') || (want_msg && !strstr(err, want_msg))) {
		ksft_print_msg("bad error for '%s': %s\n", text, err);
		return false;
	}
	return true;
}

static void doc_small(struct rp_jw *w)
{
	rp_jw_obj_begin(w, NULL);
	rp_jw_str(w, "name", "gp");
	rp_jw_int(w, "n", -3);
	rp_jw_arr_begin(w, "samples");
	rp_jw_num(w, NULL, 1.5);
	rp_jw_num(w, NULL, 2);
	rp_jw_num(w, NULL, NAN);
	rp_jw_arr_end(w);
	rp_jw_arr_begin(w, "empty");
	rp_jw_arr_end(w);
	rp_jw_obj_begin(w, "o");
	rp_jw_bool(w, "t", true);
	rp_jw_str(w, "z", NULL);
	rp_jw_obj_end(w);
	rp_jw_arr_begin(w, "list");
	rp_jw_obj_begin(w, NULL);
	rp_jw_bool(w, "f", false);
	rp_jw_obj_end(w);
	rp_jw_obj_begin(w, NULL);
	rp_jw_obj_end(w);
	rp_jw_arr_end(w);
	rp_jw_obj_end(w);
}

FIXTURE(json) {
};

FIXTURE_SETUP(json)
{
}

FIXTURE_TEARDOWN(json)
{
	EXPECT_EQ(0, unit_leaks());
}

TEST_F(json, writer_pretty_format)
{
	char *s = write_doc(doc_small);

	EXPECT_TRUE(str_is("doc", s,
			   "{\n"
			   "  \"name\": \"gp\",\n"
			   "  \"n\": -3,\n"
			   "  \"samples\": [1.5, 2, null],\n"
			   "  \"empty\": [],\n"
			   "  \"o\": {\n"
			   "    \"t\": true,\n"
			   "    \"z\": null\n"
			   "  },\n"
			   "  \"list\": [\n"
			   "    {\n"
			   "      \"f\": false\n"
			   "    },\n"
			   "    {}\n"
			   "  ]\n"
			   "}\n"));
	free(s);
}

static const char *str_in;

static void doc_str(struct rp_jw *w)
{
	rp_jw_str(w, NULL, str_in);
}

/* One string as a whole document: "<escaped>"\n */
static bool writes_as(const char *in, const char *want)
{
	char *s;
	bool ok;

	str_in = in;
	s = write_doc(doc_str);
	ok = str_is("escapes", s, want);
	free(s);
	return ok;
}

TEST_F(json, writer_escapes_strings)
{
	static const char replaced[] =
		"\"a\\ufffd b\\ufffd\\ufffd c\\ufffd\\ufffd d\\ufffd\\ufffd\\ufffd\"\n";

	EXPECT_TRUE(writes_as("q\" b\\ s/\n\t\r\b\f \x01\x1f\x7f",
			      "\"q\\\" b\\\\ s/\\n\\t\\r\\b\\f \\u0001\\u001f\x7f\"\n"));
	EXPECT_TRUE(writes_as("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
			      "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"\n"));
	/* invalid UTF-8: stray continuation, truncated, overlong, surrogate */
	EXPECT_TRUE(writes_as("a\x80 b\xe2\x82 c\xc0\xaf d\xed\xa0\x80", replaced));
	EXPECT_TRUE(writes_as(NULL, "null\n"));
}

static const double nums[] = {
	0.1, 1.0 / 3, -2.5 / 1e300, DBL_TRUE_MIN, DBL_MAX, -DBL_MIN, 1e21,
	123456789, M_PI, 100.0 / 7, 0.3, 1.2345 / 1e7, 9007199254740993.0, -0.0,
};

static void doc_nums(struct rp_jw *w)
{
	size_t i;

	rp_jw_arr_begin(w, NULL);
	for (i = 0; i < ARRAY_SIZE(nums); i++)
		rp_jw_num(w, NULL, nums[i]);
	rp_jw_num(w, NULL, INFINITY);
	rp_jw_num(w, NULL, -INFINITY);
	rp_jw_num(w, NULL, NAN);
	rp_jw_int(w, NULL, -9223372036854775807LL - 1);
	rp_jw_arr_end(w);
}

TEST_F(json, writer_numbers_round_trip_exactly)
{
	char *s = write_doc(doc_nums), err[256];
	struct rp_jval *v = rp_json_parse(s, err, sizeof(err));
	size_t i, n = ARRAY_SIZE(nums);

	ASSERT_NE(NULL, v) TH_LOG("%s", err);
	ASSERT_EQ(RP_JARR, (int)v->type);
	ASSERT_EQ(n + 4, v->len);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(RP_JNUM, (int)v->items[i]->type);
		EXPECT_EQ(0, memcmp(&v->items[i]->num, &nums[i], sizeof(double)))
			TH_LOG("%.17g came back as %.17g", nums[i],
			       v->items[i]->num);
	}
	EXPECT_TRUE(v->items[n]->type == RP_JNULL);
	EXPECT_TRUE(v->items[n + 1]->type == RP_JNULL);
	EXPECT_TRUE(v->items[n + 2]->type == RP_JNULL);
	EXPECT_TRUE(v->items[n + 3]->num == -9223372036854775807.0 - 1);
	/* shortest form: 0.1, not 0.10000000000000001 */
	EXPECT_NE(NULL, strstr(s, "[0.1, "));
	rp_json_free(v);
	free(s);
}

static void doc_top_scalar(struct rp_jw *w)
{
	rp_jw_num(w, NULL, 42);
}

TEST_F(json, writer_top_level_scalar)
{
	char *s = write_doc(doc_top_scalar);

	EXPECT_TRUE(str_is("scalar", s, "42\n"));
	free(s);
}

/* A key is required in objects: a NULL one must still give valid JSON. */
static void doc_misuse(struct rp_jw *w)
{
	rp_jw_obj_begin(w, NULL);
	rp_jw_int(w, NULL, 1);
	rp_jw_arr_begin(w, "a");
	rp_jw_int(w, "ignored", 2);
	rp_jw_arr_end(w);
	rp_jw_obj_end(w);
	rp_jw_obj_end(w);	/* unbalanced: ignored */
}

TEST_F(json, writer_misuse_stays_valid)
{
	char *s = write_doc(doc_misuse), err[256];
	struct rp_jval *v = rp_json_parse(s, err, sizeof(err));

	ASSERT_NE(NULL, v) TH_LOG("%s\n%s", err, s);
	EXPECT_NE(NULL, rp_json_get(v, ""));
	ASSERT_NE(NULL, rp_json_get(v, "a"));
	EXPECT_EQ(2, rp_json_get(v, "a")->items[0]->num);
	rp_json_free(v);
	free(s);
}

static void doc_results_like(struct rp_jw *w)
{
	int i, j;

	rp_jw_obj_begin(w, NULL);
	rp_jw_str(w, "schema", RP_RESULTS_SCHEMA);
	rp_jw_int(w, "version", RP_RESULTS_VERSION);
	rp_jw_str(w, "odd key \"\\\n\x01", "val\xe2\x82\xac\ttab");
	rp_jw_arr_begin(w, "metrics");
	for (i = 0; i < 3; i++) {
		rp_jw_obj_begin(w, NULL);
		rp_jw_str(w, "name", i ? "b" : "a");
		rp_jw_arr_begin(w, "samples");
		for (j = 0; j < 10; j++)
			rp_jw_num(w, NULL, i * 100 + j * 0.25);
		rp_jw_arr_end(w);
		rp_jw_obj_begin(w, "summary");
		rp_jw_num(w, "median", i + 0.5);
		rp_jw_num(w, "mad", NAN);
		rp_jw_obj_end(w);
		rp_jw_bool(w, "higher_is_better", i == 2);
		rp_jw_obj_end(w);
	}
	rp_jw_arr_end(w);
	rp_jw_str(w, "nothing", NULL);
	rp_jw_obj_end(w);
}

TEST_F(json, round_trip_document)
{
	char *s = write_doc(doc_results_like), err[256];
	struct rp_jval *v = rp_json_parse(s, err, sizeof(err)), *m, *x;

	free(s);
	ASSERT_NE(NULL, v) TH_LOG("%s", err);
	m = rp_json_get(v, "metrics");
	EXPECT_TRUE(v->type == RP_JOBJ);
	EXPECT_TRUE(v->len == 5);
	EXPECT_TRUE(!strcmp(rp_json_get(v, "schema")->str, RP_RESULTS_SCHEMA));
	EXPECT_TRUE(rp_json_get(v, "version")->num == RP_RESULTS_VERSION);
	EXPECT_TRUE(!strcmp(rp_json_get(v, "odd key \"\\\n\x01")->str,
			    "val\xe2\x82\xac\ttab"));
	EXPECT_TRUE(rp_json_get(v, "nothing")->type == RP_JNULL);
	ASSERT_NE(NULL, m);
	ASSERT_EQ(RP_JARR, (int)m->type);
	ASSERT_EQ(3U, m->len);
	x = m->items[2];
	EXPECT_STREQ("b", rp_json_get(x, "name")->str);
	EXPECT_EQ(10U, rp_json_get(x, "samples")->len);
	EXPECT_EQ(202.25, rp_json_get(x, "samples")->items[9]->num);
	EXPECT_EQ(2.5, rp_json_get(rp_json_get(x, "summary"), "median")->num);
	EXPECT_EQ(RP_JNULL, (int)rp_json_get(rp_json_get(x, "summary"), "mad")->type);
	EXPECT_EQ(RP_JBOOL, (int)rp_json_get(x, "higher_is_better")->type);
	EXPECT_TRUE(rp_json_get(x, "higher_is_better")->b);
	rp_json_free(v);
}

TEST_F(json, reader_valid_corpus)
{
	static const char * const docs[] = {
		"0", "-0", "1e5", "1E+5", "-1.5e-3", "12.34", "true", "false",
		"null", "\"\"", "[]", "{}", " \t\r\n[ 1 , 2 ]\n ",
		"{\"a\":{\"b\":[[],{}]},\"c\":\"\\/\"}", "[1e-400]",
		"\"\x7f\"", "{\"\":0}",
	};
	char err[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(docs); i++) {
		struct rp_jval *v = rp_json_parse(docs[i], err, sizeof(err));

		EXPECT_NE(NULL, v) TH_LOG("rejected '%s': %s", docs[i], err);
		rp_json_free(v);
	}
}

TEST_F(json, reader_unicode_escapes)
{
	char err[256];
	const char *doc =
		"[\"\\u00e9\\u20AC\\ud83d\\ude00\\u0041\", \"\\\"\\\\\\b\\f\\n\\r\\t\"]";
	struct rp_jval *v = rp_json_parse(doc, err, sizeof(err));

	ASSERT_NE(NULL, v) TH_LOG("%s", err);
	ASSERT_EQ(2U, v->len);
	EXPECT_STREQ("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x41", v->items[0]->str);
	EXPECT_STREQ("\"\\\b\f\n\r\t", v->items[1]->str);
	rp_json_free(v);
}

TEST_F(json, reader_malformed_corpus)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "", "end of input" },
		{ "   ", "end of input" },
		{ "[1,]", "trailing comma" },
		{ "{\"a\":1,}", "trailing comma" },
		{ "[1 2]", "',' or ']'" },
		{ "{\"a\" 1}", "':'" },
		{ "{a:1}", "string key" },
		{ "{'a':1}", "string key" },
		{ "{\"a\":1 \"b\":2}", "',' or '}'" },
		{ "[1,2", "end of input" },
		{ "{\"a\":", "end of input" },
		{ "// c\n1", "value" },
		{ "/* c */ 1", "value" },
		{ "[1] // c", "after the JSON value" },
		{ "01", "leading zero" },
		{ "-01", "leading zero" },
		{ "+1", "value" },
		{ ".5", "value" },
		{ "1.", "digit" },
		{ "1.e5", "digit" },
		{ "1e", "digit" },
		{ "1e+", "digit" },
		{ "--1", "digit" },
		{ "0x10", "after the JSON value" },
		{ "1.2.3", "after the JSON value" },
		{ "NaN", "value" },
		{ "Infinity", "value" },
		{ "-Infinity", "digit" },
		{ "1e999", "out of range" },
		{ "tru", "true" },
		{ "nul", "null" },
		{ "True", "value" },
		{ "\"abc", "unterminated" },
		{ "\"abc\\", "unterminated" },
		{ "\"a\tb\"", "control character" },
		{ "\"a\nb\"", "control character" },
		{ "\"\\x\"", "invalid escape" },
		{ "\"\\'\"", "invalid escape" },
		{ "\"\\u12\"", "4 hex digits" },
		{ "\"\\u12G4\"", "4 hex digits" },
		{ "\"\\ud800\"", "surrogate" },
		{ "\"\\ud800\\u0041\"", "surrogate" },
		{ "\"\\udc00\"", "surrogate" },
		{ "\"\\u0000\"", "\\u0000" },
		{ "\"\xff\"", "UTF-8" },
		{ "\"\xc3\"", "UTF-8" },
		{ "\"\xc0\xaf\"", "UTF-8" },
		{ "\"\xed\xa0\x80\"", "UTF-8" },
		{ "\"\xf4\x90\x80\x80\"", "UTF-8" },
		{ "\xef\xbb\xbf{}", "value" },
		{ "{} {}", "after the JSON value" },
		{ "[]]", "after the JSON value" },
		{ "{]", "string key or '}'" },
		{ "[}", "value" },
		{ "\x01", "value" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_TRUE(parse_fails(bad[i].text, bad[i].msg));
}

TEST_F(json, reader_error_line_col)
{
	char err[256];
	struct rp_jval *v = rp_json_parse("{\n  \"a\": 1,\n  \"b\": [1, 2,, 3]\n}",
					  err, sizeof(err));

	rp_json_free(v);
	EXPECT_TRUE(!v);
	EXPECT_TRUE(str_is("err", err,
			   "line 3 col 14: expected a value, got ','"));
}

static char *nested(int depth)
{
	char *s = malloc(2 * depth + 1);
	int i;

	for (i = 0; i < depth; i++) {
		s[i] = '[';
		s[2 * depth - 1 - i] = ']';
	}
	s[2 * depth] = '\0';
	return s;
}

TEST_F(json, reader_depth_limit)
{
	char *ok64 = nested(64), *bad65 = nested(65), *deep = nested(100000);
	char err[256];
	struct rp_jval *v = rp_json_parse(ok64, err, sizeof(err));

	EXPECT_NE(NULL, v) TH_LOG("64 levels: %s", err);
	rp_json_free(v);
	EXPECT_TRUE(parse_fails(bad65, "nesting deeper than 64"));
	EXPECT_TRUE(parse_fails(deep, "nesting deeper than 64"));
	/* unterminated deep nesting: the limit still wins */
	deep[100000] = '\0';
	EXPECT_TRUE(parse_fails(deep, "nesting deeper than 64"));
	free(ok64);
	free(bad65);
	free(deep);
}

TEST_F(json, reader_large_array)
{
	size_t n = 20000, i, len = 0;
	char *s = malloc(n * 8 + 3), err[256];
	struct rp_jval *v;

	s[len++] = '[';
	for (i = 0; i < n; i++)
		len += sprintf(s + len, "%s%zu", i ? "," : "", i);
	s[len++] = ']';
	s[len] = '\0';
	v = rp_json_parse(s, err, sizeof(err));
	ASSERT_NE(NULL, v) TH_LOG("%s", err);
	EXPECT_EQ(n, v->len);
	EXPECT_EQ((double)(n - 1), v->items[n - 1]->num);
	rp_json_free(v);
	free(s);
}

/*
 * Every strict prefix of a document whose top level is an object is
 * invalid; each prefix sits in a buffer of its exact size so that an
 * over-read shows up under valgrind.
 */
TEST_F(json, reader_every_truncation_fails_cleanly)
{
	char *doc = write_doc(doc_results_like), *buf, err[256];
	size_t len = strlen(doc), end = strrchr(doc, '}') - doc, i;

	for (i = 0; i < len; i++) {
		bool want_err = i <= end;
		struct rp_jval *v;

		buf = malloc(i + 1);
		memcpy(buf, doc, i);
		buf[i] = '\0';
		v = rp_json_parse(buf, err, sizeof(err));
		EXPECT_EQ(want_err, !v)
			TH_LOG("prefix of %zu bytes: %s", i,
			       v ? "accepted" : err);
		rp_json_free(v);
		free(buf);
	}
	free(doc);
}

static unsigned long long rng = 88172645463325252ULL;

static unsigned long long xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Random byte flips: an error or a tree, no crash; most must fail. */
TEST_F(json, reader_random_byte_flips)
{
	char *doc = write_doc(doc_results_like), *buf, err[256];
	size_t len = strlen(doc), round, nerr = 0, rounds = 20000;

	for (round = 0; round < rounds; round++) {
		struct rp_jval *v;
		int k, flips = 1 + xorshift() % 3;

		buf = malloc(len + 1);
		memcpy(buf, doc, len + 1);
		for (k = 0; k < flips; k++) {
			char c = (char)(xorshift() % 255 + 1);

			buf[xorshift() % len] = c;
		}
		err[0] = '\0';
		v = rp_json_parse(buf, err, sizeof(err));
		if (!v) {
			nerr++;
			EXPECT_TRUE(!strncmp(err, "line ", 5) &&
				    !strchr(err, '\n'))
				TH_LOG("bad message: %s", err);
		}
		rp_json_free(v);
		free(buf);
	}
	ksft_print_msg("%zu of %zu mutated documents rejected\n", nerr,
		       rounds);
	free(doc);
	EXPECT_GT(nerr, rounds / 2);
}

TEST_F(json, reader_err_buffer_edge_cases)
{
	char small[12];
	struct rp_jval *v;

	v = rp_json_parse("[1,]", NULL, 0);
	v = v ? v : rp_json_parse("[1,]", small, 0);
	v = v ? v : rp_json_parse("[1,]", small, sizeof(small));
	rp_json_free(v);
	ASSERT_EQ(NULL, v);
	rp_json_free(NULL);
	EXPECT_EQ(sizeof(small) - 1, strlen(small));
}

TEST_F(json, json_get)
{
	char err[256];
	struct rp_jval *v = rp_json_parse("{\"a\":1,\"b\":[true]}", err,
					  sizeof(err));

	ASSERT_NE(NULL, v) TH_LOG("%s", err);
	EXPECT_EQ(1, rp_json_get(v, "a")->num);
	EXPECT_EQ(NULL, rp_json_get(v, "c"));
	EXPECT_EQ(NULL, rp_json_get(v, NULL));
	EXPECT_EQ(NULL, rp_json_get(rp_json_get(v, "b"), "a"));
	EXPECT_EQ(NULL, rp_json_get(NULL, "a"));
	rp_json_free(v);
}

/* Write len bytes of text (0: all of it) to path, then parse the file. */
static struct rp_jval *parse_written(const char *path, const char *text,
				     size_t len, char *err, size_t err_len)
{
	FILE *f = fopen(path, "w");
	size_t n;

	if (!len)
		len = strlen(text);
	n = f ? fwrite(text, 1, len, f) : 0;
	if (!f || fclose(f) || n != len) {
		snprintf(err, err_len, "cannot write %s", path);
		return NULL;
	}
	return rp_json_parse_file(path, err, err_len);
}

TEST_F(json, parse_file)
{
	static const struct {
		const char *what, *text;
		size_t len;		/* 0: strlen(text) */
		const char *want;	/* after "path: " */
	} bad[] = {
		{ "syntax", "{\n  \"x\": [1, 2}\n", 0,
		  "line 2 col 13: expected ',' or ']' after array element, got '}'" },
		/* a NUL byte inside the file is an error, not the end of input */
		{ "nul", "[1]\0garbage", 11,
		  "line 1 col 4: unexpected byte 0x00 after the JSON value" },
	};
	char dir[] = "/tmp/rp_json_XXXXXX", path[64], err[512], want[512];
	struct rp_jval *v;
	size_t i;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);

	v = parse_written(path, "{\"x\": [1, 2]}\n", 0, err, sizeof(err));
	ASSERT_NE(NULL, v) TH_LOG("%s", err);
	EXPECT_EQ(2U, rp_json_get(v, "x")->len);
	rp_json_free(v);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		v = parse_written(path, bad[i].text, bad[i].len, err,
				  sizeof(err));
		snprintf(want, sizeof(want), "%s: %s", path, bad[i].want);
		EXPECT_TRUE(!v);
		EXPECT_TRUE(str_is(bad[i].what, err, want));
	}
	v = parse_written(path, "", 0, err, sizeof(err));
	EXPECT_TRUE(!v);
	EXPECT_HAS(err, "line 1 col 1: unexpected end of input");

	v = rp_json_parse_file(dir, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: cannot read: Is a directory", dir);
	EXPECT_TRUE(!v);
	EXPECT_TRUE(str_is("dir", err, want));

	unlink(path);
	v = rp_json_parse_file(path, err, sizeof(err));
	snprintf(want, sizeof(want),
		 "%s: cannot read: No such file or directory", path);
	EXPECT_TRUE(!v);
	EXPECT_TRUE(str_is("missing", err, want));

	/* no end (a device), or larger than any results file: not read */
	v = rp_json_parse_file("/dev/zero", err, sizeof(err));
	EXPECT_TRUE(!v);
	EXPECT_HAS(err, "/dev/zero: cannot read: File too large");
	rmdir(dir);
}

/* 50000 keys in well under a second; of a repeated key, the first is read. */
TEST(json_many_keys)
{
	size_t n = 50000, i, len = 0;
	char *text = malloc(n * 16 + 32), err[256];
	struct rp_jval *v;
	double t0;

	ASSERT_NE(NULL, text);
	text[len++] = '{';
	for (i = 0; i < n; i++)
		len += sprintf(text + len, "%s\"k%zu\":%zu", i ? "," : "", i, i);
	sprintf(text + len, ",\"k7\":-1,\"k3\":-1}");
	t0 = rp_now_ms();
	v = rp_json_parse(text, err, sizeof(err));
	EXPECT_GT(1000, rp_now_ms() - t0);
	ASSERT_NE(NULL, v) TH_LOG("%s", err);
	EXPECT_EQ(n + 2, v->len);
	EXPECT_EQ(7, rp_json_get(v, "k7")->num);
	EXPECT_EQ(3, rp_json_get(v, "k3")->num);
	rp_json_free(v);
	free(text);
}

TEST_HARNESS_MAIN
