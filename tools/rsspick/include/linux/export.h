/* SPDX-License-Identifier: GPL-2.0 */
/* For the series' net/core/toeplitz.c in rsspick: see ../../Makefile */
#define EXPORT_SYMBOL_GPL(sym)	extern int rsspick_unused_export
