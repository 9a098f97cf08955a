// SPDX-License-Identifier: GPL-2.0
/*
 * CPU-count sweeps and scaling efficiency against a parallel and a serial
 * control: dcache_scaling's and kernbench's.
 */
#include <math.h>

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

void rp_sweep_plan(struct rp_sweep *s, double max_cpus)
{
	s->nr_online = rp_online_cpus(s->cpus, RP_SWEEP_CPUS);
	if (s->nr_online < 1)
		rp_exit_skip("cannot read the online CPUs");
	s->max = s->nr_online;
	if (max_cpus >= 1 && max_cpus < s->nr_online)
		s->max = (int)max_cpus;
	s->nr_pts = rp_sweep_points(s->max, s->pts, RP_SWEEP_POINTS);
}

/*
 * A run on one CPU takes the online CPUs in turn, and its best stands:
 * CPUs of unequal speed (vCPUs sharing host cores, hybrid cores) must not
 * make N CPUs look faster than one.
 */
int rp_sweep_round(const struct rp_sweep *s, int n)
{
	return n == 1 ? s->nr_online : 1;
}

int rp_sweep_pin(const struct rp_sweep *s, int first, int n)
{
	return n > 0 ? rp_pin_cpus(s->cpus + first, n) : 0;
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

const char *rp_controls_judge(int n, double eff_par, double eff_ser,
			      double par_min, double ser_min, char *why, size_t len)
{
	double e_ser;

	if (n < 2)
		return rp_why(why, len, "1 CPU: nothing to scale to");
	if (isnan(eff_par) || isnan(eff_ser))
		return rp_why(why, len, "at N=%d a control has no valid sample", n);
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
