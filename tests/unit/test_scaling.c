// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/scaling.c and lib/sampler.c: the CPU-count sweep,
 * the efficiency arithmetic of dcache_scaling and kernbench, the GNU time
 * parser and report on recorded /usr/bin/time outputs, and the helpers of
 * the programs' loops. The seed's report line
 * ("Elapsed: 19.622s User: 193.366s System: 42.498s CPU: 1201.6%", the
 * dcache_rcu evidence on 16 CPUs) must come out of five plausible runs.
 */
#include <math.h>

#include "unit.h"

static bool near(double a, double b)
{
	return fabs(a - b) < (fabs(b) + 1) / 1e9;
}

static bool pts_are(int max, int cap, const int *want, int nwant)
{
	int pts[16], n, i;

	n = rp_sweep_points(max, pts, cap);
	if (n != nwant)
		return false;
	for (i = 0; i < n; i++)
		if (pts[i] != want[i])
			return false;
	return true;
}

FIXTURE(scaling) {
};

FIXTURE_SETUP(scaling)
{
}

FIXTURE_TEARDOWN(scaling)
{
	EXPECT_EQ(0, unit_leaks());
}

TEST_F(scaling, sweep_points_include_max)
{
	static const int one[] = { 1 }, two[] = { 1, 2 };
	static const int six[] = { 1, 2, 4, 6 }, eight[] = { 1, 2, 4, 8 };
	static const int big[] = { 1, 2, 4, 8, 16, 32, 64 };

	EXPECT_TRUE(pts_are(1, 16, one, 1));
	EXPECT_TRUE(pts_are(2, 16, two, 2));
	EXPECT_TRUE(pts_are(6, 16, six, 4));
	EXPECT_TRUE(pts_are(8, 16, eight, 4));
	EXPECT_TRUE(pts_are(64, 16, big, 7));
	EXPECT_TRUE(pts_are(0, 16, NULL, 0));
}

/* Too few slots: the maximum still ends the sweep. */
TEST_F(scaling, sweep_points_capped)
{
	static const int capped[] = { 1, 2, 64 };

	EXPECT_TRUE(pts_are(64, 3, capped, 3));
}

/* One-CPU runs take the online CPUs in turn; wider runs and hotplug start at 0. */
TEST_F(scaling, sweep_first_cpu_in_turn)
{
	struct rp_sweep s = { .nr_online = 3 };

	EXPECT_EQ(3, rp_sweep_round(&s, 1));
	EXPECT_EQ(1, rp_sweep_round(&s, 2));
	s.hotplug = true;
	EXPECT_EQ(1, rp_sweep_round(&s, 1));
}

/* Without hotplug the plan only reads: the online CPUs and their counts. */
TEST_F(scaling, sweep_plan_counts)
{
	static struct rp_sweep s;
	int n = rp_nr_online_cpus();

	rp_sweep_plan(&s, 0, false, "hotplug");
	EXPECT_EQ(n, s.nr_online);
	EXPECT_EQ(n, s.max);
	EXPECT_EQ(n, s.pts[s.nr_pts - 1]);
	EXPECT_EQ(1, s.pts[0]);
	rp_sweep_plan(&s, 1, false, "hotplug");
	EXPECT_EQ(1, s.max);
	EXPECT_EQ(1, s.nr_pts);
}

/* Every bound wholly on one side of its limit, or more samples. */
TEST_F(scaling, bounds_settled_all_or_none)
{
	struct rp_bound b[2] = {
		{ .est = { 1, 0.5, 1.5 }, .limit = 2 },
		{ .est = { 3, 2.5, 3.5 }, .limit = 2 },
	};

	EXPECT_TRUE(rp_bounds_settled(b, 2));
	EXPECT_TRUE(rp_bounds_settled(b, 0));
	b[1].est.lo = 1.5;
	EXPECT_FALSE(rp_bounds_settled(b, 2));
	EXPECT_TRUE(rp_bounds_settled(b, 1));
}

TEST_F(scaling, why_and_find_prog)
{
	char buf[16], path[4096];

	EXPECT_TRUE(rp_why(buf, sizeof(buf), "%d CPUs %s", 2,
			   "online, too long") == buf);
	EXPECT_STREQ("2 CPUs online, ", buf);
	EXPECT_TRUE(rp_find_prog("sh", path, sizeof(path)));
	EXPECT_EQ('/', path[0]);
	EXPECT_FALSE(rp_find_prog("/nonexistent/rp-no-such-prog", path,
				  sizeof(path)));
	EXPECT_FALSE(rp_find_prog("rp-no-such-prog", path, sizeof(path)));
}

TEST_F(scaling, efficiency_arithmetic)
{
	EXPECT_TRUE(near(rp_efficiency(3.6e6, 1.8e6, 2), 1.0));
	EXPECT_TRUE(near(rp_efficiency(1.8e6, 1.8e6, 2), 0.5));
	EXPECT_TRUE(near(rp_efficiency(12e6, 1e6, 16), 0.75));
	EXPECT_TRUE(near(rp_efficiency(5, 5, 1), 1.0));
	/* kernbench: speedup per CPU is the efficiency of 1/elapsed. */
	EXPECT_TRUE(near(rp_efficiency(1 / 10.0, 1 / 19.0, 2), 0.95));
	/* bad input */
	EXPECT_TRUE(isnan(rp_efficiency(1, 0, 2)));
	EXPECT_TRUE(isnan(rp_efficiency(1, 1, 0)));
	EXPECT_TRUE(isnan(rp_efficiency(NAN, 1, 2)));
	EXPECT_TRUE(isnan(rp_efficiency(-1, 1, 2)));
	EXPECT_TRUE(isnan(rp_efficiency(1, INFINITY, 2)));
}

/* Recorded outputs of GNU time 1.9 (Debian), one per format. */
static const char gnu_default[] =
	"3.46user 0.61system 0:04.58elapsed 89%CPU (0avgtext+0avgdata 59160maxresident)k\n"
	"16inputs+2504outputs (1major+238103minor)pagefaults 0swaps\n";
static const char gnu_failed[] =
	"Command exited with non-zero status 2\n"
	"0.00user 0.00system 0:00.00elapsed ?%CPU (0avgtext+0avgdata 1456maxresident)k\n"
	"0inputs+0outputs (0major+86minor)pagefaults 0swaps\n";
static const char gnu_signal[] =
	"Command terminated by signal 9\n"
	"0.00user 0.00system 0:00.01elapsed 0%CPU (0avgtext+0avgdata 1428maxresident)k\n"
	"0inputs+0outputs (0major+85minor)pagefaults 0swaps\n";
static const char gnu_hours[] =
	"7012.31user 880.02system 1:02:03.50elapsed 211%CPU (0avgtext+0avgdata 1maxresident)k\n";
static const char gnu_posix[] = "real 4.58\nuser 3.46\nsys 0.61\n";
static const char shell_kw[] = "\nreal\t1m4.580s\nuser\t0m3.460s\nsys\t0m0.610s\n";
static const char gnu_verbose[] =
	"\tCommand being timed: \"make -j2\"\n"
	"\tUser time (seconds): 3.46\n"
	"\tSystem time (seconds): 0.61\n"
	"\tPercent of CPU this job got: 89%\n"
	"\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:04.58\n"
	"\tMaximum resident set size (kbytes): 59160\n"
	"\tExit status: 0\n";

static bool parses(const char *text, double e, double u, double s,
		   double pct, int status)
{
	struct rp_time t;
	char err[128];

	if (rp_time_parse(text, &t, err, sizeof(err))) {
		fprintf(stderr, "# unexpected parse error: %s\n", err);
		return false;
	}
	return near(t.elapsed, e) && near(t.user, u) && near(t.sys, s) &&
	       (isnan(pct) ? isnan(t.cpu_pct) : near(t.cpu_pct, pct)) &&
	       t.status == status;
}

/*
 * The judgement against controls: Amdahl's law with serial share s gives
 * speedup 1 / (s + (1 - s) / n), and the serial fraction recovers s at
 * every n; one at a time is 1, linear 0.
 */
static double amdahl_eff(double s, int n)
{
	return 1 / (s + (1 - s) / n) / n;
}

TEST_F(scaling, serial_fraction_amdahl)
{
	int n;

	for (n = 2; n <= 256; n *= 2) {
		EXPECT_TRUE(near(rp_serial_fraction(n * amdahl_eff(0.1, n), n), 0.1));
		EXPECT_TRUE(near(rp_serial_fraction(1, n), 1));
		EXPECT_TRUE(near(rp_serial_fraction(n, n), 0));
	}
	EXPECT_TRUE(isnan(rp_serial_fraction(1, 1)));
	EXPECT_TRUE(isnan(rp_serial_fraction(0, 2)));
	EXPECT_TRUE(isnan(rp_serial_fraction(NAN, 2)));
}

/*
 * A perfect machine (parallel control 1, serial control 1/n): an
 * rcu-walk workload at 1 has share 0, one serialized like the control
 * has share 1, at every n.
 */
TEST_F(scaling, serial_share_perfect_machine)
{
	int n;

	for (n = 2; n <= 64; n *= 2) {
		EXPECT_TRUE(near(rp_serial_share(n, 1, 1, 1.0 / n), 0));
		EXPECT_TRUE(near(rp_serial_share(n, 1.0 / n, 1, 1.0 / n), 1));
		EXPECT_TRUE(near(rp_serial_share(n, amdahl_eff(0.3, n), 1, 1.0 / n), 0.3));
	}
}

/*
 * Relative to the controls: SMT-like siblings (parallel control 0.8)
 * slow the workload alike, which then is not blamed; a lock handoff that
 * makes the serial control slower than one at a time (0.4 at n=2) makes
 * the same workload relatively less serial.
 */
TEST_F(scaling, serial_share_relative_to_controls)
{
	EXPECT_TRUE(near(rp_serial_share(2, 0.8, 0.8, 0.4), 0));
	EXPECT_LT(rp_serial_share(2, 0.5, 1, 0.4), rp_serial_share(2, 0.5, 1, 0.5));
	EXPECT_TRUE(isnan(rp_serial_share(2, 0.5, 1, 1)));
	EXPECT_TRUE(isnan(rp_serial_share(2, 0.5, 0, 0.5)));
	EXPECT_TRUE(isnan(rp_serial_share(1, 1, 1, 1)));
}

/* The limit as an efficiency is the inverse. */
TEST_F(scaling, serial_share_limit_as_efficiency)
{
	int n;

	for (n = 2; n <= 64; n *= 2)
		EXPECT_TRUE(near(rp_serial_share(n, rp_serial_share_eff(n, 0.5, 0.9, 0.4),
						 0.9, 0.4), 0.5));
	EXPECT_TRUE(near(rp_serial_share_eff(2, 0.5, 1, 0.5), 2.0 / 3));
	EXPECT_TRUE(near(rp_serial_share_eff(4, 1, 1, 0.25), 0.25));
	EXPECT_TRUE(isnan(rp_serial_share_eff(2, 0.5, 1, 1)));
}

/* What stops a judgement, and what does not. */
TEST_F(scaling, controls_judge_reasons)
{
	char why[256];

	EXPECT_EQ(NULL, rp_controls_judge(2, 0.97, 0.45, 0.75, 0.5, why, sizeof(why)));
	EXPECT_EQ(NULL, rp_controls_judge(64, 0.9, 0.01, 0.75, 0.5, why, sizeof(why)));
	EXPECT_NE(NULL, rp_controls_judge(1, 1, 1, 0.75, 0.5, why, sizeof(why)));
	EXPECT_HAS(why, "nothing to scale");
	EXPECT_NE(NULL, rp_controls_judge(2, 0.5, 0.5, 0.75, 0.5, why, sizeof(why)));
	EXPECT_HAS(why, "parallel control");
	EXPECT_HAS(why, "cannot run 2");
	EXPECT_NE(NULL, rp_controls_judge(2, 1, 0.9, 0.75, 0.5, why, sizeof(why)));
	EXPECT_HAS(why, "serial control");
	EXPECT_NE(NULL, rp_controls_judge(4, NAN, 0.25, 0.75, 0.5, why, sizeof(why)));
	EXPECT_HAS(why, "no valid sample");
}

static bool rejects(const char *text, const char *what)
{
	struct rp_time t;
	char err[128] = "";

	if (!rp_time_parse(text, &t, err, sizeof(err)))
		return false;
	fprintf(stderr, "# rejected as expected: %s\n", err);
	return strstr(err, what);
}

/* Each format, an exit status, a signal and hours. */
TEST_F(scaling, time_parse_formats)
{
	EXPECT_TRUE(parses(gnu_default, 4.58, 3.46, 0.61, 89, 0));
	EXPECT_TRUE(parses(gnu_failed, 0, 0, 0, NAN, 2));
	EXPECT_TRUE(parses(gnu_signal, 0.01, 0, 0, 0, 128 + 9));
	EXPECT_TRUE(parses(gnu_hours, 3723.5, 7012.31, 880.02, 211, 0));
	EXPECT_TRUE(parses(gnu_posix, 4.58, 3.46, 0.61, NAN, 0));
	EXPECT_TRUE(parses(shell_kw, 64.58, 3.46, 0.61, NAN, 0));
	EXPECT_TRUE(parses(gnu_verbose, 4.58, 3.46, 0.61, 89, 0));
}

TEST_F(scaling, time_parse_rejects_malformed)
{
	EXPECT_TRUE(rejects("", "missing"));
	EXPECT_TRUE(rejects("make: *** [all] Error 2\n", "no GNU time"));
	EXPECT_TRUE(rejects("real 4.58\nuser 3.46\n", "system"));
	EXPECT_TRUE(rejects("3.46user 0.61system 0:xx.58elapsed 89%CPU\n",
			    "line 1"));
	EXPECT_TRUE(rejects("real 4.58\nuser -3\nsys 1\n", "line 2"));
	EXPECT_TRUE(rejects("1.0user 1.0system 0:01.00elapsed 9Q%CPU\n",
			    "malformed"));
}

/* Found by fuzz_time: statuses past int were converted (UB). */
TEST_F(scaling, time_parse_rejects_bad_status)
{
	EXPECT_TRUE(rejects("Command exited with non-zero status 1e300\n",
			    "line 1"));
	EXPECT_TRUE(rejects("Command terminated by signal 99999999999\n",
			    "line 1"));
	EXPECT_TRUE(rejects("real 1\nuser 1\nsys 1\nExit status: 2.5\n",
			    "line 4"));
	EXPECT_TRUE(rejects("real 1\nuser 1\nsys 1\nExit status: -1\n",
			    "line 4"));
}

/*
 * Five runs on 16 CPUs whose averages are the seed's report: GNU time's
 * two-decimal times and integer %P average to three and one decimals.
 */
static const char *const seed_runs[] = {
	"193.36user 42.49system 0:19.60elapsed 1201%CPU (0avgtext+0avgdata 0maxresident)k\n",
	"193.37user 42.50system 0:19.63elapsed 1202%CPU (0avgtext+0avgdata 0maxresident)k\n",
	"193.36user 42.50system 0:19.62elapsed 1201%CPU (0avgtext+0avgdata 0maxresident)k\n",
	"193.37user 42.50system 0:19.64elapsed 1202%CPU (0avgtext+0avgdata 0maxresident)k\n",
	"193.37user 42.50system 0:19.62elapsed 1202%CPU (0avgtext+0avgdata 0maxresident)k\n",
};

/* The five runs of the seed, parsed and averaged. */
static void seed_average(struct __test_metadata *_metadata,
			 struct rp_time *runs, struct rp_time *avg)
{
	char err[128];
	int i;

	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, rp_time_parse(seed_runs[i], &runs[i], err,
					   sizeof(err))) TH_LOG("%s", err);
	}
	rp_time_average(runs, 5, avg);
}

/* The seed's average, and one of its runs. */
TEST_F(scaling, report_seed_format)
{
	struct rp_time runs[5], avg;
	char line[128];

	seed_average(_metadata, runs, &avg);
	rp_time_format(line, sizeof(line), &avg);
	EXPECT_STREQ("Elapsed: 19.622s User: 193.366s System: 42.498s CPU: 1201.6%",
		     line);
	rp_time_format_run(line, sizeof(line), &runs[1]);
	EXPECT_STREQ("real 19.63s user 193.37s sys 42.50s CPU 1202%", line);
}

/* Without %P (the -p format) CPU% comes from the times. */
TEST_F(scaling, report_cpu_from_times)
{
	struct rp_time run, avg, none;
	char err[128], line[128];

	ASSERT_EQ(0, rp_time_parse(gnu_posix, &run, err, sizeof(err)));
	rp_time_average(&run, 1, &avg);
	rp_time_format(line, sizeof(line), &avg);
	EXPECT_STREQ("Elapsed: 4.580s User: 3.460s System: 0.610s CPU: 88.9%",
		     line);
	rp_time_average(&run, 0, &none);
	EXPECT_TRUE(isnan(none.elapsed));
}

/*
 * The seed's system share, and its -10.6% system time against the
 * 47.548 s of the kernel without dcache_rcu.
 */
TEST_F(scaling, system_share)
{
	struct rp_time runs[5], avg, none;

	seed_average(_metadata, runs, &avg);
	rp_time_average(runs, 0, &none);
	EXPECT_GT(0.0001, fabs(rp_time_system_share(&avg) - 0.1802));
	EXPECT_GT(0.01, fabs(100 * (avg.sys - 47.548) / 47.548 + 10.62));
	EXPECT_TRUE(isnan(rp_time_system_share(&none)));
}

TEST_HARNESS_MAIN
