/* SPDX-License-Identifier: GPL-2.0 */
/* For the series' net/core/toeplitz.c in rsspick: see ../../Makefile */
#include <sys/socket.h>
