// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark: ports-for-queue queries per second, solver versus brute
 * force, on one core.  Prints figures, never asserts.
 *
 * A query is "which source ports land on queue Q" for a fresh flow
 * (random saddr each time, so nothing is cached between queries):
 *
 *   solver/set     rsspick_solve(): the kernel's elimination, and the
 *                  ports of the queue's cosets in the set's bitmap.
 *   solver/bitmap  rsspick_solve() + rsspick_set_bitmap(): the bitmap
 *                  copied out, the same output as brute force.
 *   brute/naive    rsspick_brute(): full Toeplitz hash of each of the
 *                  65536 4-tuples.
 *   brute/incr     the strongest brute force: uses linearity too, one
 *                  XOR per port along a Gray code, then the table lookup.
 *   list/all       rsspick_solve() + rsspick_set_list() of every port,
 *                  what the CLI prints (through the bitmap).
 *
 * Then "a port for queue Q" on a new flow, flows per second, once with
 * any port (1-65535) and once with the CLI's default range, Linux's
 * ephemeral ports 32768-60999:
 *
 *   plan           rsspick_plan_port() on a plan made once for the key,
 *                  table and queue (outside the timing).
 *   old plan       with "make bench OLD=DIR": the same, by DIR/rsspick.c
 *                  (another version, its symbols renamed old_*), measured
 *                  right after the plan, config by config.
 *   solve          rsspick_solve() from scratch: the set only, no port
 *                  taken yet (the conservative baseline);
 *   solve+port     the same, then its lowest port, rsspick_set_list(, 1),
 *                  which is how a caller took a port before plans.
 *   brute          hash sport lo, lo + 1, ... from scratch until one lands
 *                  on Q.
 *   brute/tab      the same early exit, with the hash split into per-byte
 *                  tables built once per key (outside the timing, as the
 *                  plan): the flow's hash with sport 0 by one lookup per
 *                  input byte, then two lookups and a XOR per sport tried.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

#include "rsspick.h"

#define BUDGET_NS	600000000ULL	/* per measurement */

static const uint8_t key40[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static uint64_t rng = 0x8badf00dULL;
static volatile uint64_t sink;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void fresh_flow(struct rsspick_tuple *t)
{
	int i;

	for (i = 0; i < 16; i++)
		t->saddr[i] = rnd();
}

static uint64_t bm[RSSPICK_BITMAP_WORDS];

static uint32_t brute_incr(const struct rsspick_rss *rss,
			   const struct rsspick_tuple *t, uint32_t q)
{
	struct rsspick_tuple x = *t;
	uint32_t col[16], h0, h, g, port = 0, n = 0;
	uint32_t mask = rss->indir_size - 1;
	bool pow2 = !(rss->indir_size & mask);
	int i;

	x.sport = 0;
	rsspick_hash(rss->key, rss->key_len, &x, true, &h0);
	for (i = 0; i < 16; i++) {
		x.sport = 1U << i;
		rsspick_hash(rss->key, rss->key_len, &x, true, &h);
		col[i] = h ^ h0;
	}
	memset(bm, 0, sizeof(bm));
	h = h0;
	for (g = 0; ; ) {
		uint32_t idx = pow2 ? h & mask : h % rss->indir_size;

		if (rss->indir[idx] == q) {
			bm[port / 64] |= 1ULL << port % 64;
			n++;
		}
		if (++g == RSSPICK_NPORTS)
			break;
		i = __builtin_ctz(g);
		port ^= 1U << i;
		h ^= col[i];
	}
	return n;
}

enum mode { SOLVE_SET, SOLVE_BITMAP, BRUTE_INCR, BRUTE_NAIVE, LIST_ALL,
	    PORT_PLAN, PORT_PLAN_OLD, PORT_SOLVE, PORT_SOLVE1, PORT_BRUTE, PORT_BRUTE_TAB,
	    NMODES };

/* The 4-tuple as the device feeds it: saddr, daddr, sport, dport */
static int flow_bytes(const struct rsspick_tuple *t, uint8_t *in)
{
	int alen = t->family == AF_INET ? 4 : 16;

	memcpy(in, t->saddr, alen);
	memcpy(in + alen, t->daddr, alen);
	in[2 * alen] = t->sport >> 8;
	in[2 * alen + 1] = t->sport;
	in[2 * alen + 2] = t->dport >> 8;
	in[2 * alen + 3] = t->dport;
	return 2 * alen + 4;
}

/* Byte tables of the key: btab[i][v] = hash of an input whose byte i is v. */
static uint32_t btab[36][256];

static void btab_init(const struct rsspick_rss *rss, int family)
{
	struct rsspick_tuple t = { .family = family };
	uint8_t in[36] = { 0 };
	int len = flow_bytes(&t, in), i, v;

	for (i = 0; i < len; i++) {
		for (v = 0; v < 256; v++) {
			in[i] = v;
			btab[i][v] = toeplitz_hash(rss->key, rss->key_len, in, len);
		}
		in[i] = 0;
	}
}

/* The source port range of the per-flow table's row */
static uint16_t range_lo = 1, range_hi = 65535;

/* First sport in the range of flow @t landing on @q, by the byte tables; 0 if none. */
static uint32_t brute_tab(const struct rsspick_rss *rss,
			  struct rsspick_tuple *t, uint32_t q)
{
	uint8_t in[36];
	uint32_t h0 = 0, h, s, mask = rss->indir_size - 1;
	bool pow2 = !(rss->indir_size & mask);
	int len, i, sp;

	t->sport = 0;
	len = flow_bytes(t, in);
	for (i = 0; i < len; i++)
		h0 ^= btab[i][in[i]];
	sp = len - 4;
	for (s = range_lo; s <= range_hi; s++) {
		h = h0 ^ btab[sp][s >> 8] ^ btab[sp + 1][s & 0xff];
		if (rss->indir[pow2 ? h & mask : h % rss->indir_size] == q)
			return s;
	}
	return 0;
}

static struct rsspick_plan *plan, *old_plan;

#ifdef BENCH_OLD
int old_rsspick_plan_new(const struct rsspick_rss *rss, int family,
			 uint32_t queue, struct rsspick_plan **out);
void old_rsspick_plan_free(struct rsspick_plan *plan);
int old_rsspick_plan_port(const struct rsspick_plan *plan,
			  const struct rsspick_tuple *t, uint16_t lo,
			  uint16_t hi, uint16_t *port);
#else
#define old_rsspick_plan_new(rss, family, q, out)	(*(out) = NULL, 0)
#define old_rsspick_plan_free(plan)			((void)(plan))
#define old_rsspick_plan_port(plan, t, lo, hi, port)	(-1)
#endif
static uint16_t ports[RSSPICK_NPORTS];

static uint32_t one_query(enum mode m, const struct rsspick_rss *rss,
			  struct rsspick_tuple *t, uint32_t q)
{
	struct rsspick_set *set;
	uint32_t n = 0;

	fresh_flow(t);
	switch (m) {
	case SOLVE_SET:
	case SOLVE_BITMAP:
		if (rsspick_solve(rss, t, q, &set))
			return 0;
		n = rsspick_set_count(set);
		if (m == SOLVE_BITMAP)
			rsspick_set_bitmap(set, bm);
		rsspick_set_free(set);
		break;
	case BRUTE_INCR:
		n = brute_incr(rss, t, q);
		break;
	case BRUTE_NAIVE:
		rsspick_brute(rss, t, q, bm, &n);
		break;
	case LIST_ALL:
		if (rsspick_solve(rss, t, q, &set))
			return 0;
		n = rsspick_set_list(set, 0, 65535, ports, RSSPICK_NPORTS);
		rsspick_set_free(set);
		break;
	case PORT_PLAN:
		if (!rsspick_plan_port(plan, t, range_lo, range_hi, ports))
			n = ports[0];
		break;
	case PORT_PLAN_OLD:
		if (!old_rsspick_plan_port(old_plan, t, range_lo, range_hi, ports))
			n = ports[0];
		break;
	case PORT_SOLVE:
	case PORT_SOLVE1:
		if (rsspick_solve(rss, t, q, &set))
			return 0;
		n = rsspick_set_count(set);
		if (m == PORT_SOLVE1 &&
		    rsspick_set_list(set, range_lo, range_hi, ports, 1))
			n = ports[0];
		rsspick_set_free(set);
		break;
	case PORT_BRUTE:
		for (n = range_lo; n <= range_hi; n++) {
			uint32_t qq;

			t->sport = n;
			if (!rsspick_queue(rss, t, NULL, &qq) && qq == q)
				return n;
		}
		n = 0;
		break;
	case PORT_BRUTE_TAB:
		n = brute_tab(rss, t, q);
		break;
	default:
		break;
	}
	return n;
}

static double measure(enum mode m, const struct rsspick_rss *rss,
		      struct rsspick_tuple *t, uint32_t q, uint64_t budget)
{
	uint64_t start = now_ns(), el, iters = 0, acc = 0;

	do {
		int k;

		for (k = 0; k < 4; k++)
			acc += one_query(m, rss, t, q);
		iters += 4;
		el = now_ns() - start;
	} while (el < budget);
	sink += acc;
	return iters * 1e9 / el;
}

struct config {
	const char *name;
	int family;
	uint32_t size;
	uint32_t nq;
	bool random_table;
};

static const struct config cfgs[] = {
	{ "ipv4, equal 8 over 128 (pow2)", AF_INET, 128, 8, false },
	{ "ipv6, equal 8 over 128 (pow2)", AF_INET6, 128, 8, false },
	{ "ipv6, 64 queues random, 2048 (pow2)", AF_INET6, 2048, 64, true },
	{ "ipv6, equal 6 over 96 (not pow2)", AF_INET6, 96, 6, false },
	{ "ipv4, equal 12 over 1000 (not pow2)", AF_INET, 1000, 12, false },
};
#define NCFG ((int)(sizeof(cfgs) / sizeof(cfgs[0])))

/* The per-flow table's ranges: any port, and the CLI's default */
static const struct { uint16_t lo, hi; const char *what; } ranges[] = {
	{ 1, 65535, "any port" },
	{ 32768, 60999, "the CLI's default --range, Linux's ephemeral ports" },
};
#define NRANGES ((int)(sizeof(ranges) / sizeof(ranges[0])))

/* The key, table and flow of config @c; the caller frees rss->indir. */
static void setup(int c, struct rsspick_rss *rss, struct rsspick_tuple *t)
{
	const struct config *cf = &cfgs[c];
	uint32_t *indir = malloc(sizeof(*indir) * cf->size), i;

	for (i = 0; i < cf->size; i++)
		indir[i] = cf->random_table ? rnd() % cf->nq : i % cf->nq;
	indir[0] = 1;	/* the queue asked for */
	*rss = (struct rsspick_rss){ .key = key40, .key_len = 40, .indir = indir, .indir_size = cf->size };
	*t = (struct rsspick_tuple){ .family = cf->family, .dport = 4789 };
	memset(t->daddr, 0x20, 16);
}

int main(void)
{
	double qps[NMODES], geo_naive = 0, geo_incr = 0, geo_set = 0;
	double geo_set_pow2 = 0, geo_ps[2] = { 0 }, geo_pb[2] = { 0 };
	double geo_pt[2] = { 0 }, geo_old = 0;
#ifdef BENCH_OLD
	bool old_plan_cols = true;
#else
	bool old_plan_cols = false;
#endif
	uint64_t t0 = now_ns();
	int npow2 = 0, c, m, k, r;

	printf("rsspick bench: ports-for-queue queries/s on one core, %.1f s per cell\n",
	       BUDGET_NS / 1e9);
	printf("%-38s %12s %14s %11s %12s %10s %10s %10s\n", "config",
	       "solver/set", "solver/bitmap", "brute/incr", "brute/naive",
	       "list/all", "bmp/naive", "bmp/incr");
	for (c = 0; c < NCFG; c++) {
		const struct config *cf = &cfgs[c];
		struct rsspick_tuple t;
		struct rsspick_rss rss;

		setup(c, &rss, &t);
		for (m = 0; m <= LIST_ALL; m++)
			qps[m] = measure(m, &rss, &t, 1, BUDGET_NS);
		printf("%-38s %12.0f %14.0f %11.0f %12.1f %10.0f %9.0fx %9.1fx\n",
		       cf->name, qps[SOLVE_SET], qps[SOLVE_BITMAP],
		       qps[BRUTE_INCR], qps[BRUTE_NAIVE], qps[LIST_ALL],
		       qps[SOLVE_BITMAP] / qps[BRUTE_NAIVE],
		       qps[SOLVE_BITMAP] / qps[BRUTE_INCR]);
		geo_naive += __builtin_log(qps[SOLVE_BITMAP] / qps[BRUTE_NAIVE]);
		geo_incr += __builtin_log(qps[SOLVE_BITMAP] / qps[BRUTE_INCR]);
		geo_set += __builtin_log(qps[SOLVE_SET] / qps[BRUTE_NAIVE]);
		if (!(cf->size & (cf->size - 1))) {
			geo_set_pow2 += __builtin_log(qps[SOLVE_SET] /
						      qps[BRUTE_INCR]);
			npow2++;
		}
		free((uint32_t *)rss.indir);
	}
	printf("geometric mean ratio, solver/bitmap vs brute/naive: %.0fx\n",
	       __builtin_exp(geo_naive / NCFG));
	printf("geometric mean ratio, solver/set    vs brute/naive: %.0fx\n",
	       __builtin_exp(geo_set / NCFG));
	printf("geometric mean ratio, solver/bitmap vs brute/incr:  %.1fx\n",
	       __builtin_exp(geo_incr / NCFG));
	printf("geometric mean ratio, solver/set    vs brute/incr (pow2 tables): %.0fx\n",
	       __builtin_exp(geo_set_pow2 / npow2));

	printf("\na port for queue 1 on a new flow, flows/s (plan made once per key, table, queue)\n");
	for (r = 0; r < NRANGES; r++) {
		range_lo = ranges[r].lo;
		range_hi = ranges[r].hi;
		memset(geo_ps, 0, sizeof(geo_ps));
		memset(geo_pb, 0, sizeof(geo_pb));
		memset(geo_pt, 0, sizeof(geo_pt));
		geo_old = 0;
		printf("%ssource ports %u-%u (%s)\n", r ? "\n" : "",
		       range_lo, range_hi, ranges[r].what);
		printf("%-38s %10s %10s %11s %10s %10s %11s %11s %11s%s\n", "config",
		       "plan", "solve", "solve+port", "brute", "brute/tab",
		       "plan/solve", "plan/brute", "plan/b.tab",
		       old_plan_cols ? "   old plan    new/old" : "");
		for (c = 0; c < NCFG; c++) {
			const struct config *cf = &cfgs[c];
			struct rsspick_tuple t;
			struct rsspick_rss rss;

			setup(c, &rss, &t);
			if (rsspick_plan_new(&rss, cf->family, 1, &plan) ||
			    old_rsspick_plan_new(&rss, cf->family, 1, &old_plan))
				return 1;
			btab_init(&rss, cf->family);
			for (m = PORT_PLAN; m <= PORT_BRUTE_TAB; m++)
				if (m != PORT_PLAN_OLD || old_plan_cols)
					qps[m] = measure(m, &rss, &t, 1, BUDGET_NS / 2);
			printf("%-38s %10.0f %10.0f %11.0f %10.0f %10.0f %10.1fx %10.1fx %10.2fx",
			       cf->name, qps[PORT_PLAN], qps[PORT_SOLVE],
			       qps[PORT_SOLVE1], qps[PORT_BRUTE], qps[PORT_BRUTE_TAB],
			       qps[PORT_PLAN] / qps[PORT_SOLVE],
			       qps[PORT_PLAN] / qps[PORT_BRUTE],
			       qps[PORT_PLAN] / qps[PORT_BRUTE_TAB]);
			if (old_plan_cols) {
				printf(" %10.0f %9.2fx", qps[PORT_PLAN_OLD],
				       qps[PORT_PLAN] / qps[PORT_PLAN_OLD]);
				geo_old += __builtin_log(qps[PORT_PLAN] / qps[PORT_PLAN_OLD]);
			}
			putchar('\n');
			k = !!(cf->size & (cf->size - 1));
			geo_ps[k] += __builtin_log(qps[PORT_PLAN] / qps[PORT_SOLVE]);
			geo_pb[k] += __builtin_log(qps[PORT_PLAN] / qps[PORT_BRUTE]);
			geo_pt[k] += __builtin_log(qps[PORT_PLAN] / qps[PORT_BRUTE_TAB]);
			rsspick_plan_free(plan);
			old_rsspick_plan_free(old_plan);
			free((uint32_t *)rss.indir);
		}
		printf("geometric mean ratio, plan vs solve from scratch: %.1fx (pow2 tables), %.1fx (others)\n",
		       __builtin_exp(geo_ps[0] / npow2),
		       __builtin_exp(geo_ps[1] / (NCFG - npow2)));
		printf("geometric mean ratio, plan vs brute force:        %.1fx (pow2 tables), %.1fx (others)\n",
		       __builtin_exp(geo_pb[0] / npow2),
		       __builtin_exp(geo_pb[1] / (NCFG - npow2)));
		printf("geometric mean ratio, plan vs brute force with byte tables: %.2fx (pow2 tables), %.2fx (others)\n",
		       __builtin_exp(geo_pt[0] / npow2),
		       __builtin_exp(geo_pt[1] / (NCFG - npow2)));
		if (old_plan_cols)
			printf("geometric mean ratio, plan vs old plan: %.2fx\n",
			       __builtin_exp(geo_old / NCFG));
	}
	printf("total %.1f s\n", (now_ns() - t0) / 1e9);
	return 0;
}
