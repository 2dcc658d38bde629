// SPDX-License-Identifier: GPL-2.0
/* Shared helpers of the flexl4 tools; see common.h. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"

const char *prog = "flexl4";

/* "prog: message" on stderr, then the tail */
static void vmsg(const char *fmt, va_list ap, const char *tail)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputs(tail, stderr);
}

void usage_err(const char *fmt, ...)
{
	char tail[64];
	va_list ap;

	snprintf(tail, sizeof(tail), " (%s --help)\n", prog);
	va_start(ap, fmt);
	vmsg(fmt, ap, tail);
	va_end(ap);
	exit(EXIT_USAGE);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, "\n");
	va_end(ap);
	exit(1);
}

void print_version(void)
{
	printf("%s %s\n", prog, FLEXL4_VERSION);
	exit(0);
}

void warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, "\n");
	va_end(ap);
}

bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	int base = 16;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	else
		base = 10;
	if (!isxdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || *s == ' ')
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < 0)
		return false;
	*out = v;
	return true;
}

/* Parse one "N" or "A-B" item of length len into [*lo, *hi]. */
static bool parse_item(const char *s, size_t len, uint32_t max,
		       uint32_t *lo, uint32_t *hi)
{
	char buf[64], *dash;
	uint64_t a, b;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	dash = strchr(buf, '-');
	if (dash)
		*dash = '\0';
	if (!parse_u64(buf, 0, max, &a))
		return false;
	b = a;
	if (dash && (!parse_u64(dash + 1, 0, max, &b) || b < a))
		return false;
	*lo = a;
	*hi = b;
	return true;
}

bool parse_num_list(const char *s, uint32_t max, size_t limit,
		    uint32_t **out, size_t *n)
{
	uint32_t *v = NULL, lo, hi;
	size_t cnt = 0;
	const char *p = s;

	if (!s || !*s)
		return false;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (!parse_item(p, len, max, &lo, &hi) ||
		    (uint64_t)hi - lo + 1 > limit - cnt)
			goto bad;
		v = realloc(v, (cnt + hi - lo + 1) * sizeof(*v));
		if (!v)
			die("out of memory");
		for (uint64_t x = lo; x <= hi; x++)
			v[cnt++] = x;
		if (!p[len])
			break;
		p += len + 1;
	}
	*out = v;
	*n = cnt;
	return true;
bad:
	free(v);
	return false;
}

double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
