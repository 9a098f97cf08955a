// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/scaling.c and lib/sampler.c: the CPU-count sweep,
 * the efficiency arithmetic of dcache_scaling and kernbench, and the
 * helpers of the programs' loops.
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

/* One-CPU runs take the online CPUs in turn; wider runs start at 0. */
TEST_F(scaling, sweep_first_cpu_in_turn)
{
	struct rp_sweep s = { .nr_online = 3 };

	EXPECT_EQ(3, rp_sweep_round(&s, 1));
	EXPECT_EQ(1, rp_sweep_round(&s, 2));
	s.nr_online = 1;
	EXPECT_EQ(1, rp_sweep_round(&s, 1));
}

/* The plan only reads: the online CPUs and their counts. */
TEST_F(scaling, sweep_plan_counts)
{
	static struct rp_sweep s;
	int n = rp_nr_online_cpus();

	rp_sweep_plan(&s, 0);
	EXPECT_EQ(n, s.nr_online);
	EXPECT_EQ(n, s.max);
	EXPECT_EQ(n, s.pts[s.nr_pts - 1]);
	EXPECT_EQ(1, s.pts[0]);
	rp_sweep_plan(&s, 1);
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

TEST_HARNESS_MAIN
