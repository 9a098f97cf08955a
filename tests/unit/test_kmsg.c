// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/kmsg.c: the boot marker in kernel logs of several
 * architectures and kernel versions, in dmesg text, /dev/kmsg records and
 * serial console captures; the preference order; malformed and random
 * input. The excerpts are written from the printk formats of the kernel
 * sources (mark_rodata_ro(), free_reserved_area(), run_init_process()),
 * with made-up times and sizes.
 */
#include <math.h>

#include "unit.h"

#define EPS	0.000000001
#define WP	"Write protecting the kernel read-only data"
#define INITMEM	"Freeing unused kernel image (initmem) memory"
#define RUN	"Run %s as init process"

struct found_case {
	const char *desc;
	const char *log;
	int ret;		/* 0, -1 or -2 */
	const char *name;	/* when ret == 0 */
	double t;
	const char *err;	/* substring of the message when ret != 0 */
};

static const struct found_case cases[] = {
	{ "x86_64_v6_dmesg",
	  "[    0.000000] Linux version 6.12.9 (gcc 14.2.0) #1 SMP PREEMPT_DYNAMIC\n"
	  "[    0.445786] Freeing unused kernel image (initmem) memory: 3728K\n"
	  "[    0.445800] Write protecting the kernel read-only data: 32768k\n"
	  "[    0.449742] Freeing unused kernel image (text/rodata gap) memory: 2000K\n"
	  "[    0.453904] Freeing unused kernel image (rodata/data gap) memory: 2008K\n"
	  "[    0.453910] Run /sbin/init as init process\n",
	  0, WP, 0.4458, NULL },
	{ "x86_64_printk_caller",
	  "[    0.445786][    T1] Freeing unused kernel image (initmem) memory: 3728K\n"
	  "[    0.445800][    T1] Write protecting the kernel read-only data: 32768k\n"
	  "[    0.453910][    T1] Run /init as init process\n",
	  0, WP, 0.4458, NULL },
	{ "x86_64_syslog_prefix",	/* dmesg -r, syslog(2) */
	  "<6>[    1.203044] Write protecting the kernel read-only data: 24576k\n",
	  0, WP, 1.203044, NULL },
	{ "x86_64_dmesg_x",		/* dmesg -x */
	  "kern  :info  : [    1.203044] Write protecting the kernel read-only data: 24576k\n",
	  0, WP, 1.203044, NULL },
	{ "x86_64_v3_old",	/* rodata after text, "freed" suffix */
	  "[    2.101000] Freeing unused kernel memory: 1260k freed\n"
	  "[    2.102000] Write protecting the kernel text: 5276k\n"
	  "[    2.103000] Write protecting the kernel read-only data: 2100k\n"
	  "[    2.190000] Freeing unused kernel memory: 1448k freed\n",
	  0, WP, 2.103, NULL },
	{ "x86_64_very_old_text_only",
	  "[    3.500000] Freeing unused kernel memory: 1260k freed\n"
	  "[    3.500100] Write protecting the kernel text: 5276k\n",
	  0, "Write protecting the kernel text", 3.5001, NULL },
	{ "x86_32",
	  "[    0.912000] Freeing unused kernel image (initmem) memory: 1024K\n"
	  "[    0.913000] Write protecting kernel text and read-only data: 17876k\n"
	  "[    0.914000] Run /init as init process\n",
	  0, "Write protecting kernel text and read-only data", 0.913, NULL },
	{ "s390",
	  "[    0.733321] Freeing unused kernel image (initmem) memory: 4188K\n"
	  "[    0.733530] Write protected read-only-after-init data: 88k\n"
	  "[    0.733540] Run /init as init process\n",
	  0, "Write protected read-only-after-init data", 0.73353, NULL },
	{ "arm64_v6",
	  "[    1.812345] Freeing unused kernel memory: 9984K\n"
	  "[    1.812500] Run /init as init process\n",
	  0, "Freeing unused kernel memory", 1.812345, NULL },
	{ "riscv_v6",
	  "[    2.345678] Freeing unused kernel image (initmem) memory: 2184K\n"
	  "[    2.410000] Run /sbin/init as init process\n",
	  0, INITMEM, 2.345678, NULL },
	{ "powerpc_v6",
	  "[    4.100200] Freeing unused kernel image (initmem) memory: 5440K\n"
	  "[    4.101000] Kernel memory protection not selected by kernel config.\n"
	  "[    4.102000] Run /init as init process\n",
	  0, INITMEM, 4.1002, NULL },
	{ "x86_v5_image_memory",
	  "[    0.701000] Freeing unused kernel image memory: 2716K\n"
	  "[    0.702000] Run /sbin/init as init process\n",
	  0, "Freeing unused kernel image memory", 0.701, NULL },
	{ "run_init_only",
	  "[    5.000001] Kernel memory protection disabled.\n"
	  "[    5.000002] Run /bin/sh as init process\n",
	  0, RUN, 5.000002, NULL },
	{ "preference_order",	/* fallbacks first in the file, still lose */
	  "[    9.000000] Run /init as init process\n"
	  "[    8.000000] Freeing unused kernel memory: 100K\n"
	  "[    7.000000] Write protecting the kernel read-only data: 2048k\n",
	  0, WP, 7.0, NULL },
	{ "initmem_before_gaps",	/* the (text/rodata gap) lines do not match */
	  "[    0.449742] Freeing unused kernel image (text/rodata gap) memory: 2000K\n"
	  "[    0.453904] Freeing unused kernel image (rodata/data gap) memory: 2008K\n"
	  "[    0.445786] Freeing unused kernel image (initmem) memory: 3728K\n",
	  0, INITMEM, 0.445786, NULL },
	{ "kmsg_records",
	  "6,310,445700,-;Freeing unused kernel image (initmem) memory: 3728K\n"
	  "6,311,445800,-;Write protecting the kernel read-only data: 32768k\n"
	  " SUBSYSTEM=cpu\n"
	  "6,312,453910,-;Run /init as init process\n",
	  0, WP, 0.4458, NULL },
	{ "kmsg_caller_field",
	  "6,311,445800,-,caller=T1;Write protecting the kernel read-only data: 32768k\n",
	  0, WP, 0.4458, NULL },
	{ "kmsg_partial_record",
	  "6,311,1445800,-;Write protecting the kernel read-only data",
	  0, WP, 1.4458, NULL },
	{ "serial_capture",
	  "\033c\033[?7l\033[2J\033[0mSeaBIOS (version 1.16.3-debian-1.16.3-2)\r\n"
	  "Booting from ROM..\r\r\n"
	  "\033[0m[    0.000000] Linux version 6.12.9\r\n"
	  "[    0.431000] Freeing unused kernel image (initmem) memory: 3728K\r\n"
	  "\033[1;32m[    0.431200] Write protecting the kernel read-only data: 32768k\033[0m\r\n"
	  "[    0.439000] Run /init as init process\r\n"
	  "# marker: Write protecting the kernel read-only data: 9.9 s\r\n"
	  "Write protecting the kernel read-only data at 9.9 s\r\n"
	  "[    0.5",
	  0, WP, 0.4312, NULL },
	{ "dmesg_color_always",		/* dmesg --color=always > file */
	  "\033[32m[    0.431200] \033[0m\033[1mWrite protecting the kernel read-only data: 1k\033[0m\n",
	  0, WP, 0.4312, NULL },
	{ "serial_noise_before_time",
	  "garbage\x01\x7f[  0.4312] Write protecting the kernel read-only data: 1k\n",
	  0, WP, 0.4312, NULL },
	{ "serial_bare_cr_overwrites",
	  "progress 50%\r[    0.431200] Write protecting the kernel read-only data: 1k\n",
	  0, WP, 0.4312, NULL },
	{ "serial_cr_between_messages",	/* CR, no LF, then the next message */
	  "[    0.453910] Run /init as init process\r[    0.460000] random: crng init done\n",
	  0, RUN, 0.45391, NULL },
	{ "console_echo_same_time",	/* guest ran dmesg on its console */
	  "[    0.431200] Write protecting the kernel read-only data: 1k\n"
	  "[    1.000000] random: crng init done\n"
	  "[    0.431200] Write protecting the kernel read-only data: 1k\n",
	  0, WP, 0.4312, NULL },
	{ "dmesg_t_echo_ignored",	/* a timeless copy next to the real one */
	  "Write protecting the kernel read-only data: 1k\n"
	  "[    0.431200] Write protecting the kernel read-only data: 1k\n",
	  0, WP, 0.4312, NULL },
	{ "partial_last_line_marker",
	  "[    0.431000] Freeing unused kernel image (initmem) memory: 3728K\n"
	  "[    0.431200] Write protecting the kernel read-only da",
	  0, INITMEM, 0.431, NULL },
	{ "malformed_time", "[    0.44x800] Write protecting the kernel read-only data: 1k\n",
	  -2, NULL, 0, "malformed timestamp '[    0.44x800]'" },
	{ "malformed_time_no_digits",
	  "[    .445800] Write protecting the kernel read-only data: 1k\n",
	  -2, NULL, 0, "malformed timestamp" },
	{ "malformed_time_no_fraction", "[    1.] Write protecting the kernel read-only data: 1k\n",
	  -2, NULL, 0, "malformed timestamp" },
	{ "malformed_dmesg_T",
	  "[Sat Nov 30 08:12:00 2024] Write protecting the kernel read-only data: 1k\n",
	  -2, NULL, 0, "malformed timestamp '[Sat Nov 30 08:12:00 2024]'" },
	{ "malformed_dmesg_delta",
	  "[  +0.000014] Write protecting the kernel read-only data: 1k\n",
	  -2, NULL, 0, "malformed timestamp" },
	{ "malformed_unterminated", "[    0.4458 Write protecting the kernel read-only data: 1k\n",
	  -2, NULL, 0, "unterminated timestamp" },
	{ "malformed_no_time", "Write protecting the kernel read-only data: 1k\n",
	  -2, NULL, 0, "no timestamp" },
	{ "malformed_kmsg", "6,311,44z800,-;Write protecting the kernel read-only data: 1k\n",
	  -2, NULL, 0, "malformed /dev/kmsg record" },
	{ "malformed_kmsg_overflow",
	  "6,311,99999999999999999999999,-;Write protecting the kernel read-only data: 1k\n",
	  -2, NULL, 0, "malformed /dev/kmsg record" },
	{ "malformed_wins_over_fallback",	/* never silently a later marker */
	  "[    0.431000] Freeing unused kernel image (initmem) memory: 3728K\n"
	  "[    0.43x200] Write protecting the kernel read-only data: 1k\n",
	  -2, NULL, 0, "line 2: malformed timestamp" },
	{ "two_boots",
	  "[    0.431200] Write protecting the kernel read-only data: 1k\n"
	  "[    0.000000] Linux version 6.12.9\n"
	  "[    0.512000] Write protecting the kernel read-only data: 1k\n",
	  -2, NULL, 0, "several boots" },
	{ "no_marker",
	  "[    0.000000] Linux version 6.12.9\n[    0.100000] rcu: Hierarchical RCU\n",
	  -1, NULL, 0, "no boot marker" },
	{ "wrapped_log",
	  "[12345.000000] eth0: link up\n[12346.000000] eth0: link down\n",
	  -1, NULL, 0, "wrapped since boot" },
	{ "echo_only",	/* text of a marker, but not a kernel message */
	  "[    0.100000] audit: Write protecting the kernel read-only data: 1k\n"
	  "# Freeing unused kernel memory: 0.1 s\n",
	  -1, NULL, 0, "no boot marker" },
	{ "marker_text_prefix_only",	/* "...data" must end there or with ':' */
	  "[    0.1] Write protecting the kernel read-only datablock: 1k\n"
	  "[    0.2] Run  as init process\n",
	  -1, NULL, 0, "no boot marker" },
	{ "empty", "", -1, NULL, 0, "empty" },
	{ "blank_lines", "\n\r\n\n", -1, NULL, 0, "no boot marker" },
};

#define NR_CASES	ARRAY_SIZE(cases)

static bool one_line(const char *err)
{
	return !strchr(err, '\n') && !strchr(err, '\r');
}

static bool check_case(const struct found_case *c)
{
	struct rp_marker m = { 0 };
	char err[256];
	int r;

	memset(err, 'X', sizeof(err));
	r = rp_find_boot_marker(c->log, &m, err, sizeof(err));
	if (r != c->ret) {
		ksft_print_msg("%s: returned %d, want %d (%s)\n", c->desc, r,
			       c->ret, err);
		return false;
	}
	if (!r && (strcmp(m.name, c->name) || fabs(m.t - c->t) > EPS)) {
		ksft_print_msg("%s: found '%s' at %.9f, want '%s' at %.9f\n",
			       c->desc, m.name, m.t, c->name, c->t);
		return false;
	}
	if (r && (!strstr(err, c->err) || !one_line(err))) {
		ksft_print_msg("%s: message '%s' lacks '%s'\n", c->desc, err,
			       c->err);
		return false;
	}
	return true;
}

FIXTURE(kmsg) {
};

FIXTURE_SETUP(kmsg)
{
}

FIXTURE_TEARDOWN(kmsg)
{
	EXPECT_EQ(0, unit_leaks());
}

/* Each excerpt: the marker and its time, or the error it must give. */
TEST_F(kmsg, markers)
{
	size_t i;

	for (i = 0; i < NR_CASES; i++) {
		EXPECT_TRUE(check_case(&cases[i])) TH_LOG("marker_%s",
							  cases[i].desc);
	}
}

/* Every prefix of a serial capture: never a crash, never a wrong time. */
TEST_F(kmsg, truncations)
{
	const char *log = cases[0].log;
	size_t len = strlen(log), i;

	for (i = 0; i <= len; i++) {
		struct rp_marker m;
		char *p = strndup(log, i), err[128];
		int r = rp_find_boot_marker(p, &m, err, sizeof(err));

		EXPECT_NE(-2, r) TH_LOG("prefix %zu: %s", i, err);
		if (r == 0) {
			EXPECT_TRUE(m.t == 0.4458 || m.t == 0.445786 ||
				    m.t == 0.45391)
				TH_LOG("prefix %zu: %.9f", i, m.t);
		}
		free(p);
	}
}

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static unsigned int rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng >> 32;
}

/* Random bytes and random mutations of real excerpts: no crash. */
TEST_F(kmsg, garbage)
{
	static const char alphabet[] = "[] 0123456789.,;:-\r\n\033WRFrunTtiome";
	char buf[4096], err[96];
	int i, j, r;

	for (i = 0; i < 3000; i++) {
		struct rp_marker m;
		size_t n = rnd() % (sizeof(buf) - 1);

		if (i % 3 == 0) {
			for (j = 0; j < (int)n; j++)
				buf[j] = (char)(rnd() % 255 + 1);
		} else if (i % 3 == 1) {
			for (j = 0; j < (int)n; j++)
				buf[j] = alphabet[rnd() % (sizeof(alphabet) - 1)];
		} else {
			const char *src = cases[rnd() % NR_CASES].log;

			n = strlen(src);
			memcpy(buf, src, n);
			for (j = 0; j < 4 && n; j++)
				buf[rnd() % n] = (char)(rnd() % 255 + 1);
		}
		buf[n] = '\0';
		err[0] = 'X';
		r = rp_find_boot_marker(buf, &m, err, sizeof(err));
		EXPECT_TRUE(r >= -2 && r <= 0)
			TH_LOG("garbage %d: returned %d '%s'", i, r, err);
		if (r) {
			EXPECT_TRUE(err[0] && one_line(err))
				TH_LOG("garbage %d: returned %d '%s'", i, r, err);
		} else {
			EXPECT_TRUE(m.name && m.t >= 0)
				TH_LOG("garbage %d: found at %f", i, m.t);
		}
	}
	/* tiny and NULL buffers for the message */
	r = rp_find_boot_marker("[ x] Write protecting the kernel read-only data\n",
				NULL, NULL, 0);
	EXPECT_EQ(-2, r);
	r = rp_find_boot_marker("nothing", NULL, err, 1);
	EXPECT_EQ(-1, r);
	EXPECT_EQ('\0', err[0]);
}

/* rp_read_log(): NUL bytes of a serial capture do not end the text. */
TEST_F(kmsg, read_log_nul_bytes)
{
	static const char data[] = "\0\0SeaBIOS\0\r\n"
		"[    0.431200] Write protecting the kernel read-only data: 1k\r\n";
	char path[] = "/tmp/test_kmsg.XXXXXX", err[128];
	struct rp_marker m;
	char *log;
	int fd;

	fd = mkstemp(path);
	ASSERT_LE(0, fd) TH_LOG("temporary file: %m");
	ASSERT_EQ((ssize_t)sizeof(data) - 1, write(fd, data, sizeof(data) - 1));
	close(fd);
	log = rp_read_log(path);
	unlink(path);
	ASSERT_NE(NULL, log);
	EXPECT_EQ(sizeof(data) - 1, strlen(log));
	EXPECT_EQ(0, rp_find_boot_marker(log, &m, err, sizeof(err)));
	EXPECT_EQ(0.4312, m.t);
	free(log);
	errno = 0;
	EXPECT_EQ(NULL, rp_read_log("/nonexistent/log"));
	EXPECT_EQ(ENOENT, errno);
}

#define RCU_ARGS	"rcupdate.rcu_expedited=1 rcutree.jiffies_till_first_fqs=3 rcu_nocbs=1-3"

TEST_F(kmsg, cmdline_rcu_params)
{
	static const char log[] =
		"[    0.000000] Command line: BOOT_IMAGE=/vmlinuz\n"
		"[    0.000000] Kernel command line: BOOT_IMAGE=/vmlinuz ro quiet "
		RCU_ARGS " nohz_full=2 -- rcupdate.fake=1\r\n";
	char buf[256], params[256], small[24];

	ASSERT_EQ(0, rp_log_cmdline(log, buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "BOOT_IMAGE=/vmlinuz ro quiet", 28));
	EXPECT_EQ(NULL, strchr(buf, '\r'));
	EXPECT_EQ(4, rp_rcu_params(buf, params, sizeof(params)));
	EXPECT_STREQ(RCU_ARGS " nohz_full=2", params);
	/* too small a buffer: whole parameters only, still counted */
	EXPECT_EQ(4, rp_rcu_params(buf, small, sizeof(small)));
	EXPECT_STREQ("rcu_nocbs=1-3", small);
	EXPECT_EQ(0, rp_rcu_params("quiet ro", params, sizeof(params)));
	EXPECT_STREQ("", params);
	/* what decides where RCU's CPUs tick counts too */
	EXPECT_EQ(2, rp_rcu_params("isolcpus=1 quiet threadirqs",
				   params, sizeof(params)));
	EXPECT_STREQ("isolcpus=1 threadirqs", params);
	EXPECT_EQ(0, rp_log_cmdline("6,5,0,-;Kernel command line: a rcupdate.x=1\n",
				    buf, sizeof(buf)));
	EXPECT_STREQ("a rcupdate.x=1", buf);
	/* an echo is not the kernel's line */
	EXPECT_EQ(-1, rp_log_cmdline("# Kernel command line: x\n", buf, sizeof(buf)));
}

TEST_HARNESS_MAIN
