/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer harnesses: the input as a NUL-terminated string
 * (libFuzzer's data is neither terminated nor writable).
 */
#ifndef RP_FUZZ_H
#define RP_FUZZ_H

#include <stdlib.h>
#include <string.h>

/*
 * libFuzzer's entry points: their fixed names are given by the Makefile
 * (-DFUZZ_ONE_INPUT=...) to keep CamelCase out of the C files.
 */

int FUZZ_ONE_INPUT(const unsigned char *data, size_t size);
int FUZZ_INITIALIZE(int *argc, char ***argv);

static inline char *fuzz_str(const unsigned char *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
