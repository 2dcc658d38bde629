/* SPDX-License-Identifier: GPL-2.0 */
/* For the series' net/core/toeplitz.c in rsspick: see ../../Makefile */
#include_next <linux/types.h>
#include <stdbool.h>
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
