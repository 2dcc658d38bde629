// SPDX-License-Identifier: GPL-2.0
/* Old option spellings of the tools; see oldopts.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oldopts.h"

void old_opts(const char *prog, int argc, char **argv, const struct old_opt *olds)
{
	static bool said[32];

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		for (int k = 0; k < 32 && olds[k].old; k++) {
			const struct old_opt *o = &olds[k];
			size_t n = strlen(o->old);
			const char *rest = argv[i] + n;
			bool lng = o->old[1] == '-';

			if (strncmp(argv[i], o->old, n) || (lng && *rest && *rest != '='))
				continue;
			if (o->when && !o->when(*rest ? rest + lng : argv[i + 1]))
				continue;
			if (!said[k])
				fprintf(stderr, "%s: %s%s%s is deprecated, use %s\n", prog, o->old,
					o->what ? " " : "", o->what ? o->what : "",
					o->say ? o->say : o->now);
			said[k] = true;
			if (!*rest) {
				argv[i] = (char *)o->now;
			} else if (asprintf(&argv[i], "%s=%s", o->now, rest + lng) < 0) {
				fprintf(stderr, "%s: out of memory\n", prog);
				exit(1);
			}
			break;
		}
	}
}
