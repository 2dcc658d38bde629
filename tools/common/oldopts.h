/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Old option spellings, accepted for one release: each argument (up to "--")
 * that is .old, alone or with its value attached ("-c5", "--source=x"), and
 * whose value passes .when (NULL: any), becomes .now (a long option), and
 * "PROG: OLD[ WHAT] is deprecated, use SAY" goes to stderr once per entry.
 */
#ifndef TOOLS_OLDOPTS_H
#define TOOLS_OLDOPTS_H

#include <stdbool.h>

struct old_opt {
	const char *old, *now, *say;	/* say: NULL = now */
	bool (*when)(const char *val);	/* val NULL when there is none */
	const char *what;		/* the old value's kind, for the line */
};
/* the common case: OLD becomes NOW, whatever its value */
#define OLD_OPT(old, now)	{ old, now, NULL, NULL, NULL }
void old_opts(const char *prog, int argc, char **argv, const struct old_opt *olds);

#endif /* TOOLS_OLDOPTS_H */
