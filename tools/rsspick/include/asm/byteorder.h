/* SPDX-License-Identifier: GPL-2.0 */
/* For the series' net/core/toeplitz.c in rsspick: see ../../Makefile */
#include <endian.h>
#define be16_to_cpu(x)	be16toh(x)
#define cpu_to_be16(x)	htobe16(x)
