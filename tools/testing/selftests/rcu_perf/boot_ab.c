// SPDX-License-Identifier: GPL-2.0
/*
 * boot_ab: does command line (or kernel) B boot slower than A?
 *
 * Expediting grace periods during boot cut the time to "Write protecting
 * the kernel read-only data" by 18%, from one boot each; the RCU
 * maintainer asked for "before-and-after measurements of actual boot
 * time". Each side boots N times, interleaved, under QEMU with a busybox
 * initramfs of ours, by default in instruction-counted virtual time (a
 * boot repeats exactly); B's time to user space is judged against A's as
 * rcu_perf_compare does.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/elf.h>

#include "rcu_perf.h"

static struct rp_param p_allowed_change =
	RP_MAX("allowed_change", "%", 2.5,
	       "boot phase jitter: stddev ~1.6%; rcu_normal=1 costs Debian's 6.12 kernel ~4.5%");
static struct rp_param p_alpha =
	RP_MIN("alpha", "p-value", 0.05,
	       "a change is significant below this (as in rcu_perf_compare)", RP_RANGE(0, 1));
static struct rp_param p_runs =
	RP_SETTING("runs", "count", 8,
		   "boots per side; 16 bound a no-change below 2.5% (rank test)",
		   RP_QUICK(4), RP_RANGE(1, 1000));
static struct rp_param p_dither =
	RP_SETTING("dither", "bool", 1,
		   "a different dummy parameter each round: samples the boot's timer phase");
static struct rp_param p_boot_timeout =
	RP_SETTING("boot_timeout", "s", 300,
		   "a TCG boot of a distro kernel takes ~10 s, several times that on a busy host",
		   RP_RANGE(0, 86400));
static struct rp_param p_memory =
	RP_SETTING("memory", "MiB", 256,
		   "guest RAM: plenty for a kernel and a busybox initramfs", RP_RANGE(64, 65536));
static struct rp_param p_cpus =
	RP_SETTING("cpus", "count", 2,
		   "vCPUs in --wall mode (icount mode has one: that is what makes it exact)",
		   RP_RANGE(1, 64));
static struct rp_param p_jobs =
	RP_SETTING("jobs", "count", 0,
		   "parallel icount boots (0: one per online CPU); --wall boots one at a time",
		   RP_RANGE(0, 64));
static struct rp_param p_kernel =
	RP_STRING("kernel", "IMAGE",
		  "kernel of both sides (default: $KERNEL, else\n/boot/vmlinuz-$(uname -r))");
static struct rp_param p_kernel_b =
	RP_STRING("kernel-b", "IMAGE", "kernel of side B (default: the same as A)");
static struct rp_param p_append_a =
	RP_STRING("append-a", "ARGS", "command line of side A (default: none)");
static struct rp_param p_append_b =
	RP_STRING("append-b", "ARGS",
		  "command line of side B (default:\nrcupdate.rcu_normal=1 unless --append-a or --kernel-b)");
static struct rp_param p_append = RP_STRING("append", "ARGS", "appended on both sides");
static struct rp_param p_wall =
	RP_FLAG("wall",
		"wall-clock time (KVM or TCG, several vCPUs) instead\nof deterministic virtual time (-icount)");
static struct rp_param p_qemu =
	RP_STRING("qemu", "PROG",
		  "QEMU system emulator (default: $QEMU, else\nqemu-system-x86_64)");
static struct rp_param p_busybox =
	RP_STRING("busybox", "FILE",
		  "static x86-64 busybox for the initramfs\n(default: busybox in $PATH, /bin/busybox)");
static struct rp_param p_logdir =
	RP_STRING("logdir", "DIR",
		  "keep the initramfs and every serial capture in DIR\n(default: a temporary directory, kept only on error)");

static struct rp_param *params[] = {
	&p_allowed_change, &p_alpha, &p_runs, &p_dither, &p_boot_timeout,
	&p_memory, &p_cpus, &p_jobs, &p_kernel, &p_kernel_b, &p_append_a,
	&p_append_b, &p_append, &p_wall, &p_qemu, &p_busybox, &p_logdir, NULL
};

/*
 * Every boot's command line starts with this: the serial console is what
 * we capture, timestamps also where CONFIG_PRINTK_TIME is off, and a panic
 * ends the boot at once (QEMU exits instead of rebooting: -no-reboot).
 */
#define BASE_CMDLINE	"console=ttyS0 printk.time=1 panic=-1"
#define CHECK		"boot_time_change"
#define TAG_BEGIN	"==rcu_perf boot_ab kernel log begin=="
#define TAG_END		"==rcu_perf boot_ab kernel log end=="
#define MAX_APPEND	1024
#define KVM_PROBE_S	30.0
#define POLL_US		20000
#define WARMUP_TRIES	2

/*
 * The guest's init: the whole kernel log (the console may be quiet), then
 * power off at once. Lines between the tags are the log, as dmesg prints it.
 */
static const char init_script[] =
	"#!/bin/busybox sh\n"
	"/bin/busybox echo '" TAG_BEGIN "'\n"
	"/bin/busybox dmesg\n"
	"/bin/busybox echo '" TAG_END "'\n"
	"/bin/busybox poweroff -f\n";

enum { A, B, NR_SIDES };
static const char * const side_name[NR_SIDES] = { "A", "B" };

enum accel { ACCEL_ICOUNT, ACCEL_KVM, ACCEL_TCG };

static const struct {
	const char *mode;
	const char *argv[8];	/* -accel's and what goes with it */
} accels[] = {
	/*
	 * icount: neither the host's time of day may change the boot path
	 * nor QEMU hand the guest random bytes of its own (an RNG seed in
	 * setup_data, in some versions): the same ones in every boot.
	 */
	[ACCEL_ICOUNT] = { "virtual time (TCG -icount shift=0,sleep=off, 1 vCPU)",
			   { "tcg", "-icount", "shift=0,sleep=off", "-rtc",
			     "base=2024-01-01T00:00:00,clock=vm", "-seed", "1" } },
	[ACCEL_KVM] = { "wall clock (KVM)", { "kvm", "-cpu", "host" } },
	[ACCEL_TCG] = { "wall clock (TCG)", { "tcg,thread=multi" } },
};

struct boot {
	int side;
	int round;		/* 1.. within its side; 0: a warm-up */
	pid_t pid;
	double t0;		/* rp_now_ms() at start */
	double wall_s;		/* QEMU's run time */
	bool timed_out;
	double t;		/* marker time, s since boot */
	const char *marker;
	char serial[PATH_MAX], qlog[PATH_MAX], err[512];
};

static const char *kernel[NR_SIDES];
static char cmdline[NR_SIDES][MAX_APPEND + 64];
static char qemu[PATH_MAX], initrd[PATH_MAX];
static char dir[PATH_MAX - 64];	/* room for the file names in it */

static bool readable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, R_OK);
}

/* NULL if @path is a static x86-64 ELF executable, else why not. */
static const char *static_x86_64(const char *path)
{
	struct elf64_hdr eh;
	struct elf64_phdr ph;
	const char *why = NULL;
	int fd, i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return "cannot be opened";
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64)
		why = "is not an x86-64 ELF executable";
	for (i = 0; !why && i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff +
			  (off_t)i * eh.e_phentsize) != sizeof(ph))
			why = "has a truncated program header";
		else if (ph.p_type == PT_INTERP)
			why = "is dynamically linked (apt install busybox-static)";
	}
	close(fd);
	return why;
}

static char bad_input[PATH_MAX + 128];
#define bad(...)	rp_why(bad_input, sizeof(bad_input), __VA_ARGS__)

/* Bad input beyond the parameters' ranges (one line, exit 1); also kernel A */
static const char *check_input(void)
{
	const char *env = getenv("KERNEL"), *why, *p;
	const struct { const char *what, *s; bool file; } in[] = {
		{ "--kernel", p_kernel.str, true },
		{ "--kernel-b", p_kernel_b.str, true },
		{ "$KERNEL", !p_kernel.str && env && *env ? env : NULL, true },
		{ "--append-a", p_append_a.str, false },
		{ "--append-b", p_append_b.str, false },
		{ "--append", p_append.str, false },
		{ "--busybox", p_busybox.str, true },
	};
	char dir_why[PATH_MAX + 96];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(in); i++) {
		if (!in[i].s)
			continue;
		if (in[i].file && !readable_file(in[i].s))
			return bad("%s '%s': not a readable file", in[i].what,
				   in[i].s);
		/* Kernel parameters: printable ASCII, a sane length. */
		if (!in[i].file && strlen(in[i].s) > MAX_APPEND)
			return bad("%s is longer than %d characters",
				   in[i].what, MAX_APPEND);
		for (p = in[i].s; !in[i].file && *p; p++)
			if (*p < 0x20 || *p > 0x7e)
				return bad("%s has a control or non-ASCII character",
					   in[i].what);
	}
	why = p_busybox.str ? static_x86_64(p_busybox.str) : NULL;
	if (why)
		return bad("--busybox '%s' %s", p_busybox.str, why);
	if (p_logdir.str && (!*p_logdir.str || strlen(p_logdir.str) >= sizeof(dir)))
		return bad("--logdir needs a directory name (shorter than %zu)",
			   sizeof(dir));
	/* As root, a symlink planted there would be written through. */
	if (p_logdir.str &&
	    rp_check_dir(p_logdir.str, true, dir_why, sizeof(dir_why)))
		return bad("--logdir %s: %s", p_logdir.str, dir_why);
	if (!(p_boot_timeout.value > 0))
		return bad("boot_timeout must be in (0, 86400] s, not %g",
			   p_boot_timeout.value);
	if (!(p_alpha.value > 0 && p_alpha.value < 1))
		return bad("alpha must be in (0, 1), not %g", p_alpha.value);
	kernel[A] = in[0].s ?: in[2].s;
	return NULL;
}

static const char * const check_names[] = { CHECK, NULL };

static const struct rp_test test = {
	.name = "boot_ab",
	.summary = "A/B boot time under QEMU: B (default rcupdate.rcu_normal=1) against A",
	.params = params,
	.nr_checks = 1,
	.checks = check_names,
	.check_params = check_input,
};

/*
 * The kernels and command lines of the sides, QEMU and the busybox (its
 * path returned); nothing to boot with: the check is skipped, with why.
 */
static const char *resolve(void)
{
	const char *app[NR_SIDES] = { p_append_a.str, p_append_b.str };
	const char *q = p_qemu.str ?: getenv("QEMU"), *why;
	static char path[PATH_MAX], bb[PATH_MAX];
	struct utsname u;
	int i;

	if (!kernel[A] && !uname(&u)) {
		snprintf(path, sizeof(path), "/boot/vmlinuz-%s", u.release);
		kernel[A] = readable_file(path) ? path : NULL;
	}
	if (!kernel[A])
		rp_exit_skip("%s",
			     "no kernel: no readable /boot/vmlinuz-$(uname -r); use --kernel or KERNEL=");
	kernel[B] = p_kernel_b.str ?: kernel[A];
	if (!p_kernel_b.str && !app[A] && !app[B])
		app[B] = "rcupdate.rcu_normal=1";
	for (i = 0; i < NR_SIDES; i++)
		snprintf(cmdline[i], sizeof(cmdline[i]), BASE_CMDLINE "%s%s%s%s",
			 p_append.str ? " " : "", p_append.str ?: "",
			 app[i] && *app[i] ? " " : "", app[i] ?: "");

	if (!q || !*q)
		q = "qemu-system-x86_64";
	if (!rp_find_prog(q, qemu, sizeof(qemu)))
		rp_exit_skip("%s not found (apt install qemu-system-x86)", q);
	if (p_busybox.str) {
		snprintf(bb, sizeof(bb), "%s", p_busybox.str);
	} else if (!rp_find_prog("busybox", bb, sizeof(bb))) {
		snprintf(bb, sizeof(bb), "/bin/busybox");
		if (!readable_file(bb))
			rp_exit_skip("no busybox (apt install busybox-static)");
	}
	why = static_x86_64(bb);
	if (why)
		rp_exit_skip("busybox %s %s", bb, why);
	return bb;
}

static void cpio_entry(FILE *f, unsigned int ino, const char *name,
		       unsigned int mode, unsigned int rdev_major,
		       unsigned int rdev_minor, const void *data, size_t size)
{
	static const char zeros[4];
	size_t nlen = strlen(name) + 1;

	/* magic, ino, mode, uid, gid, nlink, mtime, size, dev, rdev, name */
	fprintf(f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		ino, mode, 0, 0, S_ISDIR(mode) ? 2 : 1, 0, size, 0, 0,
		rdev_major, rdev_minor, nlen, 0);
	fwrite(name, 1, nlen, f);
	fwrite(zeros, 1, (4 - (110 + nlen) % 4) % 4, f);
	if (size)
		fwrite(data, 1, size, f);
	fwrite(zeros, 1, (4 - size % 4) % 4, f);
}

/* 0, or -1 with errno. */
static int write_initramfs(const char *path, const char *busybox)
{
	FILE *f = fopen(busybox, "rb");
	char *bb = NULL;
	struct stat st;
	int err = 0, fd;

	if (!f)
		return -1;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > (64 << 20))
		err = EFBIG;
	else
		bb = malloc(st.st_size + 1);
	if (!err && (!bb || fread(bb, 1, st.st_size, f) != (size_t)st.st_size))
		err = bb ? EIO : errno;
	fclose(f);
	if (err)
		goto out;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	f = fd < 0 ? NULL : fdopen(fd, "wb");
	if (!f) {
		err = errno;
		if (fd >= 0)
			close(fd);
		goto out;
	}
	cpio_entry(f, 1, "dev", S_IFDIR | 0755, 0, 0, NULL, 0);
	/* init's stdin/stdout: the console (ttyS0) */
	cpio_entry(f, 2, "dev/console", S_IFCHR | 0600, 5, 1, NULL, 0);
	cpio_entry(f, 3, "bin", S_IFDIR | 0755, 0, 0, NULL, 0);
	cpio_entry(f, 4, "bin/busybox", S_IFREG | 0755, 0, 0, bb, st.st_size);
	cpio_entry(f, 5, "init", S_IFREG | 0755, 0, 0, init_script,
		   strlen(init_script));
	cpio_entry(f, 0, "TRAILER!!!", 0, 0, 0, NULL, 0);
	err = ferror(f) ? EIO : 0;
	if (fclose(f) && !err)
		err = errno;
out:
	free(bb);
	errno = err;
	return err ? -1 : 0;
}

/*
 * An empty file of ours at path, never through a symlink there: its fd,
 * closed before the next fork() (not on exec: QEMU's stdout and stderr).
 */
static int create_log(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);

	if (fd < 0)
		rp_fatal("cannot create %s: %s", path, strerror(errno));
	return fd;
}

/*
 * Boot @b's side. With dithering, a dummy parameter of 4 to 16 hex digits
 * differs from round to round (but not from run to run: results are
 * reproducible). Unknown parameters with a dot are module parameters: the
 * kernel ignores them quietly.
 */
static void start_boot(struct boot *b, enum accel accel)
{
	char mem[16], smp[16], serial[PATH_MAX + 8], cmd[MAX_APPEND + 96], d[17];
	const char *argv[32] = {
		qemu, "-nodefaults", "-no-user-config", "-display", "none",
		"-no-reboot", "-serial", serial, "-m", mem, "-smp", smp, "-accel",
	};
	const char * const tail[] = {
		"-kernel", kernel[b->side], "-initrd", initrd, "-append", cmd, NULL
	};
	unsigned int x = 2654435761u * (unsigned int)b->round;
	const char * const *a;
	int n = 13, i, len, fd;
	pid_t parent;

	len = 4 + (x >> 16) % 13;
	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		d[i] = "0123456789abcdef"[x & 15];
	}
	d[len] = '\0';
	snprintf(cmd, sizeof(cmd), "%s%s%s", cmdline[b->side],
		 p_dither.value ? " boot_ab.dither=" : "", p_dither.value ? d : "");
	snprintf(mem, sizeof(mem), "%d", (int)p_memory.value);
	snprintf(smp, sizeof(smp), "%d",
		 accel == ACCEL_ICOUNT ? 1 : (int)p_cpus.value);
	snprintf(serial, sizeof(serial), "file:%s", b->serial);
	for (a = accels[accel].argv; *a; a++)
		argv[n++] = *a;
	for (a = tail; *a; a++)
		argv[n++] = *a;

	/*
	 * QEMU's "file:" follows a symlink: the capture is a file of ours,
	 * in a directory no one else writes (rp_check_dir()).
	 */
	close(create_log(b->serial));
	fd = create_log(b->qlog);
	b->t0 = rp_now_ms();
	parent = getpid();
	b->pid = fork();
	if (b->pid) {
		close(fd);
		return;
	}
	/*
	 * The child: QEMU dies with us, whatever way we end; also if we died
	 * before the prctl() (then we were reparented already).
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(STDIN_FILENO);
	open("/dev/null", O_RDONLY);
	execv(qemu, (char * const *)argv);
	fprintf(stderr, "exec %s: %s\n", qemu, strerror(errno));
	_exit(127);
}

/* The line of @text from the first @what on (@bol: the whole line). */
static bool grep_line(const char *text, const char *what, bool bol,
		      char *out, size_t len)
{
	const char *s = text ? strstr(text, what) : NULL;

	while (s && bol && s > text && s[-1] != '\n')
		s--;
	if (s)
		snprintf(out, len, "%.*s", (int)strcspn(s, "\r\n"), s);
	return s;
}

/* The same in QEMU's own output of boot @b. */
static bool grep_qlog(const struct boot *b, const char *what, bool bol,
		      char *out, size_t len)
{
	char *log = rp_read_log(b->qlog);
	bool hit = grep_line(log, what, bol, out, len);

	free(log);
	return hit;
}

/* The result of a boot from its exit @status and its serial capture. */
static void judge_boot(struct boot *b, int status)
{
	char line[200] = "", err[256], *log, *begin, *end;
	size_t n = sizeof(b->err);
	struct rp_marker m;
	int r;

	if (b->err[0])		/* run_boots() said why */
		return;
	if (!b->timed_out && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		grep_qlog(b, "", false, line, sizeof(line));
		snprintf(b->err, n, "QEMU %s %d: %s",
			 WIFEXITED(status) ? "exited with" : "killed by signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			 line[0] ? line : "no message");
		return;
	}
	log = rp_read_log(b->serial);
	if (!log && !b->timed_out) {
		snprintf(b->err, n, "cannot read %.300s: %s", b->serial,
			 strerror(errno));
		return;
	}
	begin = log ? strstr(log, TAG_BEGIN "\r\n") ?: strstr(log, TAG_BEGIN "\n") : NULL;
	end = begin ? strstr(begin, TAG_END) : NULL;
	if (b->timed_out || !end) {
		/* Say what the kernel said last, if it said why. */
		if (!grep_line(log, "Kernel panic", false, line, sizeof(line)) &&
		    !grep_line(log, "VFS: Unable", false, line, sizeof(line)) &&
		    log && !*log)
			snprintf(line, sizeof(line), "no output on the serial console");
		if (b->timed_out)
			snprintf(b->err, n, "timed out after %g s%s%s",
				 p_boot_timeout.value, line[0] ? ": " : "", line);
		else
			snprintf(b->err, n, "the guest's init did not print the kernel log%s%s",
				 line[0] ? ": " : "", line);
		free(log);
		return;
	}
	/* The log as dmesg printed it; the console copy as a fallback. */
	*end = '\0';
	r = rp_find_boot_marker(begin + strlen(TAG_BEGIN), &m, err,
				sizeof(err));
	*end = TAG_END[0];
	if (r)
		r = rp_find_boot_marker(log, &m, err, sizeof(err));
	if (r) {
		snprintf(b->err, n, "%s",
			 r == -1 ? "no boot marker in the kernel log" : err);
	} else {
		b->t = m.t;
		b->marker = m.name;
	}
	free(log);
}

/*
 * Run boots[0..n) with at most @jobs at a time, in order. Returns the index
 * of the first failed boot, or -1 if all succeeded.
 */
static int run_boots(struct boot *boots, int n, int jobs, enum accel accel,
		     double timeout_s, bool progress)
{
	int next = 0, running = 0, failed = -1, i, st;
	struct boot *b;
	char line[sizeof(b->err) - 6];	/* after "QEMU: " */
	pid_t pid;

	for (;;) {
		for (; failed < 0 && running < jobs && next < n; next++, running++) {
			start_boot(&boots[next], accel);
			if (boots[next].pid < 0) {
				snprintf(boots[next].err, sizeof(boots[next].err),
					 "fork: %s", strerror(errno));
				failed = next;
				break;
			}
		}
		if (!running)
			break;
		pid = waitpid(-1, &st, WNOHANG);
		for (i = 0; pid > 0 && i < next && boots[i].pid != pid; i++)
			;
		if (pid > 0 && i < next) {
			b = &boots[i];
			b->pid = 0;
			b->wall_s = (rp_now_ms() - b->t0) / 1000;
			running--;
			judge_boot(b, st);
			if (b->err[0] && (failed < 0 || i < failed))
				failed = i;
			else if (!b->err[0] && progress)
				fprintf(stderr, "boot_ab: %2d/%d %s: %.6f s (QEMU %.1f s)\n",
					i + 1, n, side_name[b->side], b->t, b->wall_s);
		}
		if (pid > 0)
			continue;
		if (pid < 0 && errno != EINTR)
			break;
		for (b = boots; b < boots + next; b++) {
			if (b->pid <= 0 || b->timed_out)
				continue;
			b->timed_out = rp_now_ms() - b->t0 >= timeout_s * 1000;
			/*
			 * QEMU keeps running, the guest stopped, after "KVM
			 * internal error" (a stock kernel under nested KVM,
			 * for one): no need to wait for the timeout.
			 */
			if (!b->timed_out &&
			    grep_qlog(b, "internal error", true, line, sizeof(line)))
				snprintf(b->err, sizeof(b->err), "QEMU: %s", line);
			if (b->timed_out || b->err[0])
				kill(b->pid, SIGKILL);
		}
		if (failed >= 0) {
			for (b = boots; b < boots + next; b++)
				if (b->pid > 0 && !kill(b->pid, SIGKILL))
					waitpid(b->pid, NULL, 0);
			break;
		}
		usleep(POLL_US);
	}
	return failed;
}

/* Boot @b's files: <what>[-<round>-<side>].serial and .qemu in the log dir */
static void set_paths(struct boot *b, const char *what)
{
	char id[16] = "";

	if (b->round)
		snprintf(id, sizeof(id), "-%02d-%s", b->round, side_name[b->side]);
	snprintf(b->serial, sizeof(b->serial), "%s/%s%s.serial", dir, what, id);
	snprintf(b->qlog, sizeof(b->qlog), "%s/%s%s.qemu", dir, what, id);
}

/*
 * --wall: one boot that is not measured (caches warm), under KVM if it
 * boots there, else under TCG. Returns the accelerator to use.
 */
static enum accel warm_up(void)
{
	double t = p_boot_timeout.value;
	struct boot b = { .side = A };
	int i;

	if (access("/dev/kvm", R_OK | W_OK)) {
		printf("# KVM: /dev/kvm is not usable: using TCG\n");
	} else {
		fprintf(stderr, "boot_ab: warm-up boot under KVM\n");
		set_paths(&b, "warmup-kvm");
		if (run_boots(&b, 1, 1, ACCEL_KVM, fmin(t, KVM_PROBE_S), false) < 0)
			return ACCEL_KVM;
		printf("# KVM: the warm-up boot failed (%s): using TCG\n", b.err);
	}
	/*
	 * Multi-threaded TCG now and then crashes a guest that patches its
	 * own code on one vCPU while another runs it (an int3 Oops, "Fatal
	 * exception in interrupt"): one failed boot says nothing yet.
	 */
	for (i = 1; i <= WARMUP_TRIES; i++) {
		b = (struct boot){ .side = A };
		set_paths(&b, i == 1 ? "warmup-tcg" : "warmup-tcg-2");
		fprintf(stderr, "boot_ab: warm-up boot under TCG (try %d)\n", i);
		if (run_boots(&b, 1, 1, ACCEL_TCG, t, false) < 0)
			return ACCEL_TCG;
		printf("# warm-up boot %d under TCG failed: %s\n", i, b.err);
	}
	rp_tmpdir_keep(dir);	/* for a look at the logs */
	rp_exit_skip("the warm-up boot failed %d times: %s (logs: %s)",
		     WARMUP_TRIES, b.err, dir);
}

/* "an 18%", "a 3%": the article as the number is read aloud. */
static const char *article(double pct)
{
	long long i = llround(floor(pct));
	char s[32];

	snprintf(s, sizeof(s), "%lld", i);
	return s[0] == '8' || i == 11 || i == 18 ? "an" : "a";
}

static void report(const struct rp_cmp *c)
{
	const struct rp_summary *sum[NR_SIDES] = { &c->a, &c->b };
	double ch = c->change_pct, alpha = p_alpha.value;
	char phrase[64] = "is no change at all";
	int s;

	for (s = 0; s < NR_SIDES; s++) {
		printf("# %s: n %zu, median %.6f s, mean %.6f s, stddev %.6f s, ",
		       side_name[s], sum[s]->n, sum[s]->median, sum[s]->mean,
		       sum[s]->stddev);
		printf("spread (MAD/median) %.3f %%, min %.6f s, max %.6f s\n",
		       100 * rp_rel_spread(sum[s]), sum[s]->min, sum[s]->max);
	}
	if (ch)
		snprintf(phrase, sizeof(phrase), "is %s %.2f%% %s",
			 article(fabs(ch)), fabs(ch),
			 ch > 0 ? "regression" : "improvement");
	printf("# B against A: %.6f s against %.6f s (medians), which, in percentage, %s\n",
	       c->b.median, c->a.median, phrase);
	rp_info("change", "%+.3f %%", ch);
	rp_info("verdict", "%s (p %.3g, min. detectable effect %.3g %%, allowed %g %%, alpha %g)",
		rp_cmp_verdict_name(c->verdict), c->p, c->mde_pct,
		p_allowed_change.value, alpha);

	/*
	 * The KTAP result follows the verdict, as in rcu_perf_compare: a
	 * significant change is judged on its size, a non-significant one
	 * on its p-value, and a test too weak to tell is a skip.
	 */
	if (c->verdict == RP_CMP_INCONCLUSIVE)
		rp_check_skip(CHECK, "inconclusive: %s",
			      isfinite(c->mde_pct) ?
			      "the minimum detectable effect exceeds the allowed change" :
			      "fewer than 2 boots on a side");
	else if (c->p < alpha)
		rp_check(CHECK, ch, &p_allowed_change);
	else
		rp_check(CHECK, c->p, &p_alpha);
}

/*
 * Boot @f's side once more, alone, after a panic in real time (KVM or
 * TCG): true if it panics again. Under -icount a boot repeats exactly, so
 * one panic is the kernel's; in real time it can be the emulator's or a
 * race, and only a panic that repeats blames the kernel.
 */
static bool panic_repeats(const struct boot *f, enum accel accel)
{
	struct boot c = { .side = f->side, .round = f->round };

	set_paths(&c, "repeat");
	fprintf(stderr, "boot_ab: booting %s once more\n", side_name[c.side]);
	if (run_boots(&c, 1, 1, accel, p_boot_timeout.value, false) < 0)
		return false;
	printf("# repeated: %s\n", c.err);
	return strstr(c.err, "Kernel panic");
}

int main(int argc, char **argv)
{
	struct rp_samples t[NR_SIDES] = { };
	enum accel accel = ACCEL_ICOUNT;
	const char *bb, *marker = NULL;
	int n, jobs, i, failed;
	struct boot *boots, *f;
	struct rp_cmp c;
	bool panic;

	rp_init(&test, argc, argv);
	bb = resolve();
	jobs = p_wall.value ? 1 : p_jobs.value;
	if (!jobs)
		jobs = rp_nr_online_cpus() > 0 ? rp_nr_online_cpus() : 1;
	if (p_logdir.str)
		snprintf(dir, sizeof(dir), "%s", p_logdir.str);	/* checked */
	else
		rp_workdir(NULL, "boot_ab", dir, sizeof(dir));
	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio", dir);
	if (write_initramfs(initrd, bb))
		rp_fatal("cannot write the initramfs %s: %s", initrd,
			 strerror(errno));

	n = 2 * p_runs.value;
	boots = calloc(n, sizeof(*boots));
	if (!boots)
		rp_fatal("out of memory");
	for (i = 0; i < n; i++) {
		/* ABAB...: slow drifts of the host hit both sides alike */
		boots[i].side = i % 2;
		boots[i].round = i / 2 + 1;
		set_paths(&boots[i], "boot");
	}

	for (i = 0; i < NR_SIDES; i++)
		rp_info(i == A ? "a" : "b", "%s, command line \"%s\"",
			kernel[i], cmdline[i]);
	if (!strcmp(kernel[A], kernel[B]) && !strcmp(cmdline[A], cmdline[B]))
		printf("# A and B are the same: this run measures the noise\n");
	rp_info("dither", "%s", p_dither.value ?
		"each round adds boot_ab.dither=<4-16 hex digits> on both sides" :
		"off: every round boots the same command lines");
	if (p_wall.value)
		accel = warm_up();
	rp_info("mode", "%s", accels[accel].mode);
	fprintf(stderr, "boot_ab: %d boots (ABAB...), %d at a time, timeout %g s, logs in %s\n",
		n, jobs, p_boot_timeout.value, dir);

	failed = run_boots(boots, n, jobs, accel, p_boot_timeout.value, true);
	if (failed >= 0) {
		f = &boots[failed];
		panic = f->side == B && strstr(f->err, "Kernel panic");
		printf("# boot %d (%s) failed: %s\n", failed + 1,
		       side_name[f->side], f->err);
		/*
		 * B is what is judged: a B that panics where A booted is a
		 * regression. Anything else (no output, a timeout, an init
		 * that did not finish) says nothing about the kernel.
		 */
		if (panic && accel != ACCEL_ICOUNT && !panic_repeats(f, accel))
			rp_check_skip(CHECK,
				      "boot %d (B) panicked once but booted when repeated: not reproducible in real time (serial log: %s)",
				      failed + 1, f->serial);
		else if (panic)
			rp_check_fail(CHECK,
				      "boot %d (B) panicked where A booted: %s (serial log: %s)",
				      failed + 1, f->err, f->serial);
		else
			rp_check_skip(CHECK, "boot %d (%s) failed: %s (serial log: %s)",
				      failed + 1, side_name[f->side], f->err,
				      f->serial);
		rp_tmpdir_keep(dir);	/* for a look at the logs */
		return rp_finish();
	}
	for (i = 0; i < n; i++) {
		f = &boots[i];
		printf("# boot %2d %s: %.6f s to user space (QEMU %.1f s)\n",
		       i + 1, side_name[f->side], f->t, f->wall_s);
		marker = marker ?: f->marker;
		if (strcmp(marker, f->marker)) {
			rp_tmpdir_keep(dir);
			rp_exit_skip("boot %d found the marker \"%s\", others \"%s\"",
				     i + 1, f->marker, marker);
		}
		rp_sample(&t[f->side], f->t);
	}
	rp_info("marker", "%s", marker);
	rp_metric_add("a.time_to_user", "s", t[A].v, t[A].n);
	rp_metric_add("b.time_to_user", "s", t[B].v, t[B].n);
	rp_compare(t[A].v, t[A].n, t[B].v, t[B].n, false,
		   p_allowed_change.value, p_alpha.value, &c);
	report(&c);
	/* Judged: the temporary directory goes (--logdir stays) */
	if (!p_logdir.str)
		rp_workdir_remove(dir);
	for (i = 0; i < NR_SIDES; i++)
		rp_samples_free(&t[i]);
	free(boots);
	return rp_finish();
}
