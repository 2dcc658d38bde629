/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the flexl4 operator tools: argument parsing
 * and the "one clear line on stderr" error convention.
 */
#ifndef FLEXL4_COMMON_H
#define FLEXL4_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXIT_USAGE	2

/* Name used in messages; each tool sets it first thing in main(). */
extern const char *prog;

/* Print "prog: message (prog --help)" and exit 2. */
void __attribute__((noreturn, format(printf, 1, 2))) usage_err(const char *fmt, ...);
/* Print "prog: message" and exit 1. */
void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...);
/* Print "prog VERSION" on stdout and exit 0. */
void __attribute__((noreturn)) print_version(void);
/* Print "prog: message" and return. */
void __attribute__((format(printf, 1, 2))) warnx(const char *fmt, ...);

/* Decimal or 0x-hex unsigned integer in [min, max]; false if not. */
bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* Non-negative finite decimal number; false if not. */
bool parse_double(const char *s, double *out);

/*
 * List of numbers and inclusive ranges: "3", "1,5,9", "0-7", "1,4-6".
 * Each number lies in [0, max]; a range must not run downwards.
 * On success *out is a malloc'd array of *n entries (at most limit).
 */
bool parse_num_list(const char *s, uint32_t max, size_t limit,
		    uint32_t **out, size_t *n);

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
double now_mono(void);

#endif /* FLEXL4_COMMON_H */
