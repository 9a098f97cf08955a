// SPDX-License-Identifier: GPL-2.0
/* Helpers of the whole library: a leaf that calls nothing of the suite. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../../kselftest.h"
#include "internal.h"

int rp_oom_exit = KSFT_FAIL;

const char *rp_why(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

void *rp_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		printf("# error: out of memory\n");
		exit(rp_oom_exit);
	}
	return p;
}

void *rp_xgrow(void *p, size_t n, size_t size)
{
	return n & (n - 1) ? p : rp_xrealloc(p, (n ? 2 * n : 1) * size);
}

char *rp_xstrdup(const char *s)
{
	size_t n = strlen(s ? s : "") + 1;

	return memcpy(rp_xrealloc(NULL, n), s ? s : "", n);
}

double rp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int rp_knob_read(const char *path, char *buf, size_t len)
{
	ssize_t r = 0;
	size_t n = 0;
	int fd, err;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += r;
	err = r < 0 ? -errno : 0;
	close(fd);
	n = err ? 0 : n;
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return err ?: (int)n;
}

char *rp_read_stream(FILE *f, size_t max)
{
	size_t len = 0, cap = 0, n, i;
	char *s = NULL, *p = NULL;

	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			p = realloc(s, cap);
			if (!p)
				break;
			s = p;
		}
		n = fread(s + len, 1, cap - len - 1, f);
		/* A NUL would end the text early: serial captures have some. */
		for (i = len; i < len + n; i++)
			if (!s[i])
				s[i] = ' ';
		len += n;
	} while (n > 0 && len <= max);
	if (p && len <= max && !ferror(f)) {
		s[len] = '\0';
		return s;
	}
	free(s);
	errno = !p ? ENOMEM : len > max ? EFBIG : EIO;
	return NULL;
}

int rp_knob_exists(const char *path)
{
	return path && access(path, F_OK) == 0;
}

struct rp_dirent64 {
	__u64 d_ino;
	__s64 d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

#define RP_RMTREE_DEPTH		64

static int rm_tree_at(int dfd, const char *name, int depth)
{
	char buf[4096];
	int fd, err = 0;
	bool removed;
	long n, off;

	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		if (errno != ENOTDIR && errno != ELOOP)
			return -errno;
		return unlinkat(dfd, name, 0) ? -errno : 0;
	}
	/* Entries removed while reading may hide others: rescan until empty. */
	do {
		removed = false;
		lseek(fd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
			for (off = 0; off < n;) {
				struct rp_dirent64 *d = (void *)(buf + off);
				const char *dn = d->d_name;

				off += d->d_reclen;
				if (dn[0] == '.' && (!dn[1] || (dn[1] == '.' && !dn[2])))
					continue;
				if (d->d_type == DT_DIR || (unlinkat(fd, dn, 0) && errno == EISDIR))
					err = depth < RP_RMTREE_DEPTH ?
					      rm_tree_at(fd, dn, depth + 1) : -ELOOP;
				removed = true;
			}
		}
	} while (removed && !err);
	close(fd);
	if (err < 0)
		return err;
	return unlinkat(dfd, name, AT_REMOVEDIR) ? -errno : 0;
}

int rp_rm_tree(const char *path)
{
	return rm_tree_at(AT_FDCWD, path, 0);
}

unsigned long long rp_proc_start(pid_t pid)
{
	char path[64], buf[1024], *p;
	int i, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	n = rp_knob_read(path, buf, sizeof(buf));
	if (n <= 0)
		return 0;
	p = strrchr(buf, ')');	/* comm may contain spaces */
	if (!p)
		return 0;
	/* field 22 (starttime); p points at the end of field 2 */
	for (i = 2; i < 22 && p; i++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

bool rp_has_prefix(const char *s, const char * const *pfx, size_t n)
{
	while (n--)
		if (!strncmp(s, pfx[n], strlen(pfx[n])))
			return true;
	return false;
}

/* A name without control characters: it cannot plant a state line. */
bool rp_one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}
