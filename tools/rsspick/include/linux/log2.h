/* SPDX-License-Identifier: GPL-2.0 */
/* For the series' net/core/toeplitz.c in rsspick: see ../../Makefile */
#define is_power_of_2(n)	((n) && !((n) & ((n) - 1)))
