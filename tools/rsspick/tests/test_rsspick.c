// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for the rsspick library, sources and CLI.
 *
 *	test_rsspick RSSPICK_BINARY DATA_DIR
 *
 * Prints one line per check ("ok", "FAIL" or "skip") and ends with
 * "rsspick: N passed, N failed, N skipped"; exits non-zero if any check failed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "rsspick.h"
#include "rsssrc.h"

static int npass, nfail, nskip;
static const char *bin, *datadir;
/* run_cli() runs cli_bin (default: bin) with cli_env added */
static const char *cli_bin;
static char *cli_env[4];

static void check(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (ok)
		npass++;
	else
		nfail++;
}

static void skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void skip(const char *fmt, ...)
{
	va_list ap;

	printf("skip - ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	nskip++;
}

/* ---- Microsoft "Verifying the RSS Hash Calculation" vectors ---- */

static const uint8_t msft_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

#define MSFT_KEY_STR "6d:5a:56:da:25:5b:0e:c2:41:67:25:3d:43:a3:8f:b0:" \
	"d0:ca:2b:cb:ae:7b:30:b4:77:cb:2d:a3:80:30:f2:0c:6a:42:b7:3b:be:ac:01:fa"

struct msft_vec {
	const char *dst;
	uint16_t dport;
	const char *src;
	uint16_t sport;
	uint32_t h2;	/* addresses only */
	uint32_t h4;	/* with ports */
};

/* Destination, source, "IPv4/IPv6 only" and "with TCP" columns. */
static const struct msft_vec msft[] = {
	{ "161.142.100.80", 1766, "66.9.149.187", 2794,
	  0x323e8fc2, 0x51ccc178 },
	{ "65.69.140.83", 4739, "199.92.111.2", 14230,
	  0xd718262a, 0xc626b0ea },
	{ "12.22.207.184", 38024, "24.19.198.95", 12898,
	  0xd2d0a5de, 0x5c2b394a },
	{ "209.142.163.6", 2217, "38.27.205.30", 48228,
	  0x82989176, 0xafc7327f },
	{ "202.188.127.2", 1303, "153.39.163.191", 44251,
	  0x5d1809c5, 0x10e828a2 },
	{ "3ffe:2501:200:3::1", 1766, "3ffe:2501:200:1fff::7", 2794,
	  0x2cc18cd5, 0x40207d3d },
	{ "ff02::1", 4739, "3ffe:501:8::260:97ff:fe40:efab", 14230,
	  0x0f0c461c, 0xdde51bbf },
	{ "fe80::200:f8ff:fe21:67cf", 38024,
	  "3ffe:1900:4545:3:200:f8ff:fe21:67cf", 44251,
	  0x4b61e985, 0x02d1feef },
};

static void make_tuple(struct rsspick_tuple *t, const char *src,
		       const char *dst, uint16_t sport, uint16_t dport)
{
	memset(t, 0, sizeof(*t));
	t->family = strchr(src, ':') ? AF_INET6 : AF_INET;
	inet_pton(t->family, src, t->saddr);
	inet_pton(t->family, dst, t->daddr);
	t->sport = sport;
	t->dport = dport;
}

/*
 * A Toeplitz hash of this suite's own, written from the definition
 * (Microsoft, "RSS hashing functions"): for each set bit i of the input,
 * XOR in the 32 key bits that start at key bit i, key bits past the key's
 * end being 0.  It shares no code with the kernel's toeplitz.c that rsspick
 * compiles, and the published vectors check it, so the CLI's answers are
 * checked against it.  ref_windows() makes the 32-bit windows once per key.
 */
#define REF_MAX_BITS	(36 * 8)

static void ref_windows(const uint8_t *key, size_t klen,
			uint32_t win[REF_MAX_BITS])
{
	size_t i, b, k;

	for (i = 0; i < REF_MAX_BITS; i++)
		for (win[i] = 0, b = 0; b < 32; b++) {
			k = i + b;
			win[i] = win[i] << 1 |
				 (k / 8 < klen ? key[k / 8] >> (7 - k % 8) & 1 : 0);
		}
}

static uint32_t ref_toeplitz(const uint32_t win[REF_MAX_BITS],
			     const uint8_t *in, size_t len)
{
	uint32_t h = 0;
	size_t i;

	for (i = 0; i < len * 8; i++)
		if (in[i / 8] >> (7 - i % 8) & 1)
			h ^= win[i];
	return h;
}

/*
 * The flow's hash input as the receiver lays it out: source address,
 * destination address, then with @l4 source and destination port, in
 * network order.  With an input transformation (<linux/ethtool.h>)
 * each source field is replaced by src ^ dst (symmetric-xor) or
 * src | dst (symmetric-or-xor), each destination field by src ^ dst.
 */
#define REF_XOR		1	/* RXH_XFRM_SYM_XOR */
#define REF_OR_XOR	2	/* RXH_XFRM_SYM_OR_XOR */

static uint32_t ref_flow_hash(const uint32_t win[REF_MAX_BITS],
			      const struct rsspick_tuple *t, bool l4,
			      unsigned int xfrm)
{
	size_t alen = t->family == AF_INET6 ? 16 : 4, n = alen + 2, i;
	uint8_t s[18], d[18], in[36];

	memcpy(s, t->saddr, alen);
	memcpy(d, t->daddr, alen);
	s[alen] = t->sport >> 8;
	s[alen + 1] = t->sport;
	d[alen] = t->dport >> 8;
	d[alen + 1] = t->dport;
	for (i = 0; i < n; i++) {
		uint8_t a = s[i], b = d[i];

		s[i] = xfrm == REF_XOR ? a ^ b : xfrm == REF_OR_XOR ? a | b : a;
		d[i] = xfrm ? a ^ b : b;
	}
	memcpy(in, s, alen);
	memcpy(in + alen, d, alen);
	memcpy(in + 2 * alen, s + alen, 2);
	memcpy(in + 2 * alen + 2, d + alen, 2);
	return ref_toeplitz(win, in, 2 * alen + (l4 ? 4 : 0));
}

static void test_msft_vectors(void)
{
	uint32_t win[REF_MAX_BITS];
	size_t i;

	ref_windows(msft_key, sizeof(msft_key), win);

	for (i = 0; i < sizeof(msft) / sizeof(msft[0]); i++) {
		const struct msft_vec *v = &msft[i];
		struct rsspick_tuple t;
		uint32_t h2 = 0, h4 = 0;
		int e2, e4;

		make_tuple(&t, v->src, v->dst, v->sport, v->dport);
		e2 = rsspick_hash(msft_key, sizeof(msft_key), &t, false, &h2);
		e4 = rsspick_hash(msft_key, sizeof(msft_key), &t, true, &h4);
		check(!e2 && h2 == v->h2,
		      "msft vector %s -> %s 2-tuple: 0x%08x (want 0x%08x)",
		      v->src, v->dst, h2, v->h2);
		check(!e4 && h4 == v->h4,
		      "msft vector %s:%u -> %s:%u 4-tuple: 0x%08x (want 0x%08x)",
		      v->src, v->sport, v->dst, v->dport, h4, v->h4);
		check(ref_flow_hash(win, &t, false, 0) == v->h2 &&
		      ref_flow_hash(win, &t, true, 0) == v->h4,
		      "msft vector %s:%u -> %s:%u: the suite's own Toeplitz gives 0x%08x and 0x%08x too",
		      v->src, v->sport, v->dst, v->dport, v->h2, v->h4);
	}
}

/* ---- library error cases ---- */

static void test_lib_errors(void)
{
	uint32_t indir[4] = { 0, 1, 2, 3 }, h, q;
	struct rsspick_rss rss = { .key = msft_key, .key_len = 40, .indir = indir, .indir_size = 4 };
	uint64_t bm[RSSPICK_BITMAP_WORDS];
	struct rsspick_tuple t4, t6;
	struct rsspick_set *set = (void *)1;
	struct rsspick_plan *plan = (void *)1;
	uint8_t in[36] = { 0 };
	uint16_t port;
	int e;

	make_tuple(&t4, "10.0.0.1", "10.0.0.2", 1, 2);
	make_tuple(&t6, "2001:db8::1", "2001:db8::2", 1, 2);

	check(rsspick_hash(msft_key, 15, &t4, true, &h) == -RSSPICK_EKEYLEN,
	      "hash: 15-byte key for the 12-byte IPv4 4-tuple is EKEYLEN");
	e = rsspick_hash(msft_key, 16, &t4, true, &h);
	check(!e && h == 0xc0c18b8c,
	      "hash: 16-byte key for the 12-byte IPv4 4-tuple: 0x%08x", h);
	e = rsspick_hash(msft_key, 11, &t4, false, &h) == -RSSPICK_EKEYLEN;
	e = e && !rsspick_hash(msft_key, 12, &t4, false, &h);
	check(e && h == 0x02b7c9b1,
	      "hash: the 8-byte IPv4 2-tuple needs 12 key bytes: 0x%08x", h);
	check(rsspick_hash(NULL, 40, &t4, true, &h) == -RSSPICK_EINVAL,
	      "hash: NULL key is EINVAL");
	in[0] = 0x80;
	check(toeplitz_hash(msft_key, 40, in, 0) == 0 &&
	      toeplitz_hash(msft_key, 40, in, 1) == 0x6d5a56da &&
	      toeplitz_hash(msft_key, 2, in, 1) == 0x6d5a0000,
	      "toeplitz_hash: empty input is 0, bit 0 the key's first word, key bits past the end zero");

	rss.key_len = 39;
	check(rsspick_check(&rss, AF_INET6) == -RSSPICK_EKEYLEN,
	      "check: 39-byte key with IPv6 is EKEYLEN");
	rss.key_len = 15;
	check(rsspick_check(&rss, AF_INET) == -RSSPICK_EKEYLEN,
	      "check: 15-byte key with IPv4 is EKEYLEN");
	rss.key_len = 16;
	check(rsspick_check(&rss, AF_INET) == 0,
	      "check: 16-byte key with IPv4 is accepted");
	rss.key_len = RSSPICK_MAX_KEY + 1;
	check(rsspick_check(&rss, AF_INET) == -RSSPICK_EKEYLEN,
	      "check: oversized key is EKEYLEN");
	rss.key_len = 40;
	check(rsspick_check(&rss, AF_UNIX) == -RSSPICK_EFAMILY,
	      "check: AF_UNIX is EFAMILY");
	rss.indir_size = 0;
	check(rsspick_check(&rss, AF_INET) == -RSSPICK_EINDIR,
	      "check: empty table is EINDIR");
	e = rsspick_solve(&rss, &t4, 0, &set);
	check(e == -RSSPICK_EINDIR && !set,
	      "solve: empty table is EINDIR and clears *out");
	rss.indir_size = RSSPICK_MAX_INDIR + 1;
	check(rsspick_check(&rss, AF_INET) == -RSSPICK_EINDIR,
	      "check: table above RSSPICK_MAX_INDIR is EINDIR");
	rss.indir_size = 4;
	rss.indir = NULL;
	check(rsspick_check(&rss, AF_INET) == -RSSPICK_EINDIR,
	      "check: NULL table is EINDIR");
	rss.indir = indir;

	check(rsspick_solve(&rss, &t4, 9, &set) == -RSSPICK_ENOQUEUE,
	      "solve: queue 9 not in table is ENOQUEUE");
	check(rsspick_plan_new(&rss, AF_INET, 9, &plan) == -RSSPICK_ENOQUEUE &&
	      !plan, "plan_new: queue 9 not in table is ENOQUEUE");
	check(rsspick_plan_new(&rss, AF_UNIX, 0, &plan) == -RSSPICK_EFAMILY,
	      "plan_new: AF_UNIX is EFAMILY");
	check(rsspick_plan_new(&rss, AF_INET, 0, &plan) == 0 &&
	      rsspick_plan_solve(plan, &t6, &set) == -RSSPICK_EFAMILY &&
	      rsspick_plan_port(plan, &t6, 1, 65535, &port) == -RSSPICK_EFAMILY &&
	      rsspick_plan_port(plan, &t4, 9, 3, &port) == -RSSPICK_EINVAL,
	      "plan: an IPv6 flow on an IPv4 plan is EFAMILY, range 9-3 EINVAL");
	rsspick_plan_free(plan);
	rss.key_len = 39;
	check(rsspick_plan_new(&rss, AF_INET6, 0, &plan) == -RSSPICK_EKEYLEN,
	      "plan_new: IPv6 with 39-byte key is EKEYLEN");
	rss.key_len = 40;
	check(rsspick_brute(&rss, &t4, 9, bm, NULL) == -RSSPICK_ENOQUEUE,
	      "brute: queue 9 not in table is ENOQUEUE");
	rss.key_len = 39;
	check(rsspick_solve(&rss, &t6, 0, &set) == -RSSPICK_EKEYLEN,
	      "solve: IPv6 with 39-byte key is EKEYLEN");
	rss.key_len = 40;
	t4.family = 12345;
	check(rsspick_solve(&rss, &t4, 0, &set) == -RSSPICK_EFAMILY,
	      "solve: bad address family is EFAMILY");
	check(rsspick_queue(&rss, &t4, &h, &q) == -RSSPICK_EFAMILY,
	      "queue: bad address family is EFAMILY");
	t4.family = AF_INET;
	check(rsspick_solve(&rss, NULL, 0, &set) == -RSSPICK_EINVAL,
	      "solve: NULL tuple is EINVAL");
	check(rsspick_solve(NULL, &t4, 0, &set) == -RSSPICK_EINVAL,
	      "solve: NULL config is EINVAL");

	check(rsspick_solve(&rss, &t4, 2, &set) == 0 &&
	      rsspick_set_nearest(set, 5, 10, 9, &port) == -RSSPICK_EINVAL &&
	      rsspick_set_list(set, 10, 9, &port, 1) == 0 &&
	      rsspick_set_count_range(set, 10, 9) == 0,
	      "set queries: empty range lo > hi is rejected or empty");
	rsspick_set_free(set);
	rsspick_set_free(NULL);

	check(!strcmp(rsspick_strerror(-RSSPICK_ENOQUEUE),
		      "queue does not appear in the indirection table") &&
	      !strcmp(rsspick_strerror(999), "unknown error") &&
	      !strcmp(rsspick_strerror(0), "success"),
	      "strerror: known, unknown and success codes");
}

/* ---- randomized comparison with brute force ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static bool bm_get(const uint64_t *bm, uint32_t p)
{
	return bm[p / 64] >> (p % 64) & 1;
}

/* Compare every query of the solver against the brute-force bitmap. */
static int compare_set(const struct rsspick_set *set, const uint64_t *ref,
		       uint32_t ref_count, char *why, size_t wlen)
{
	static uint64_t got[RSSPICK_BITMAP_WORDS];
	static uint16_t list[RSSPICK_NPORTS];
	uint32_t p, lo, hi, n, i, want;
	int k;

	if (rsspick_set_count(set) != ref_count) {
		snprintf(why, wlen, "count %u, brute %u",
			 rsspick_set_count(set), ref_count);
		return 0;
	}
	rsspick_set_bitmap(set, got);
	if (memcmp(got, ref, sizeof(got))) {
		snprintf(why, wlen, "bitmap differs");
		return 0;
	}
	/* full list, then random ranges with and without a limit */
	for (k = 0; k < 6; k++) {
		size_t max;

		if (k == 0) {
			lo = 0;
			hi = 65535;
		} else {
			lo = rnd() & 0xffff;
			hi = rnd() & 0xffff;
			if (lo > hi) {
				uint32_t x = lo;

				lo = hi;
				hi = x;
			}
		}
		max = k < 3 ? RSSPICK_NPORTS : 1 + rnd() % 50;
		n = rsspick_set_list(set, lo, hi, list, max);
		want = 0;
		for (p = lo, i = 0; p <= hi; p++) {
			if (!bm_get(ref, p))
				continue;
			want++;
			if (i < n && i < max && list[i] != p) {
				snprintf(why, wlen,
					 "list[%u] = %u, want %u (range %u-%u)",
					 i, list[i], p, lo, hi);
				return 0;
			}
			i++;
		}
		if (n != (want < max ? want : max)) {
			snprintf(why, wlen, "list %u-%u returned %u, want %u",
				 lo, hi, n, want);
			return 0;
		}
		if (rsspick_set_count_range(set, lo, hi) != want) {
			snprintf(why, wlen, "count_range %u-%u wrong", lo, hi);
			return 0;
		}
	}
	for (k = 0; k < 8; k++) {
		uint16_t pref = rnd() & 0xffff, got_p = 0;
		int32_t best = -1;
		uint32_t d;
		int r;

		lo = k & 1 ? rnd() & 0x7fff : 0;
		hi = k & 2 ? 0x8000 + (rnd() & 0x7fff) : 65535;
		for (d = 0; d < 65536 && best < 0; d++) {
			if (pref >= d && pref - d >= lo && pref - d <= hi &&
			    bm_get(ref, pref - d))
				best = pref - d;
			else if (pref + d <= hi && pref + d >= lo &&
				 bm_get(ref, pref + d))
				best = pref + d;
		}
		r = rsspick_set_nearest(set, pref, lo, hi, &got_p);
		if (best < 0 ? r != -RSSPICK_ENOENT :
		    (r || got_p != (uint32_t)best)) {
			snprintf(why, wlen,
				 "nearest(%u, %u-%u) = %d/%u, want %d", pref,
				 lo, hi, r, got_p, best);
			return 0;
		}
	}
	return 1;
}

/*
 * A plan made once for the key, table and queue answers like the solver:
 * every query on the brute-forced flow, then on four new flows the same
 * bitmap as rsspick_solve() and a port in range whenever there is one.
 */
static int plan_check(const struct rsspick_rss *rss, struct rsspick_tuple t,
		      uint32_t q, const uint64_t *ref, uint32_t ref_count,
		      char *why, size_t wlen)
{
	static uint64_t bma[RSSPICK_BITMAP_WORDS], bmb[RSSPICK_BITMAP_WORDS];
	struct rsspick_set *a = NULL, *b = NULL;
	struct rsspick_plan *pl;
	int k, ok, r;

	if (rsspick_plan_new(rss, t.family, q, &pl)) {
		snprintf(why, wlen, "plan_new failed");
		return 0;
	}
	ok = !rsspick_plan_solve(pl, &t, &a) &&
	     compare_set(a, ref, ref_count, why, wlen);
	rsspick_set_free(a);
	for (k = 0; ok && k < 4; k++) {
		uint16_t lo = rnd(), hi = rnd(), port = 0;
		uint32_t want;

		if (lo > hi) {
			uint16_t x = lo;

			lo = hi;
			hi = x;
		}
		t.saddr[rnd() % 16] ^= 1 + rnd() % 255;
		t.dport = rnd();
		if (rsspick_solve(rss, &t, q, &b) ||
		    rsspick_plan_solve(pl, &t, &a)) {
			snprintf(why, wlen, "plan flow %d: solve failed", k);
			ok = 0;
			break;
		}
		rsspick_set_bitmap(a, bma);
		rsspick_set_bitmap(b, bmb);
		want = rsspick_set_count_range(b, lo, hi);
		r = rsspick_plan_port(pl, &t, lo, hi, &port);
		if (memcmp(bma, bmb, sizeof(bma)) ||
		    rsspick_set_count(a) != rsspick_set_count(b)) {
			snprintf(why, wlen, "plan flow %d: set differs", k);
			ok = 0;
		} else if (want ? r || port < lo || port > hi ||
			   !bm_get(bmb, port) : r != -RSSPICK_ENOENT) {
			snprintf(why, wlen, "plan_port(%u-%u) = %d/%u, %u in range",
				 lo, hi, r, port, want);
			ok = 0;
		}
		rsspick_set_free(a);
		rsspick_set_free(b);
	}
	rsspick_plan_free(pl);
	return ok;
}

struct rand_case {
	uint32_t size;
	uint32_t nqueues;
	int key_kind;	/* 0 random, 1 sparse (rank-deficient), 2 zero */
};

static void test_random(void)
{
	static const uint32_t sizes[] = {
		1, 2, 4, 8, 16, 64, 128, 256, 512, 2048, 1U << 17,
		3, 5, 6, 7, 12, 96, 100, 255, 1000, 3 << 10,
	};
	static uint64_t ref[RSSPICK_BITMAP_WORDS];
	uint8_t key[64];
	uint32_t *indir;
	int c, ncases = 0;

	rng_state = 0x5eed2025c0ffeeULL;
	indir = malloc(sizeof(*indir) * (1U << 17));
	if (!indir) {
		check(0, "random: out of memory");
		return;
	}
	for (c = 0; c < 168; c++) {
		uint32_t size = sizes[c % (sizeof(sizes) / sizeof(sizes[0]))];
		int key_kind = c % 12 == 5 ? 1 : c % 12 == 11 ? 2 : 0;
		struct rsspick_rss rss;
		struct rsspick_set_info info;
		struct rsspick_set *set;
		struct rsspick_tuple t;
		uint32_t nq, i, q, ref_count;
		size_t klen;
		char why[128] = "";
		int e, ok;

		memset(&t, 0, sizeof(t));
		t.family = rnd() & 1 ? AF_INET6 : AF_INET;
		for (i = 0; i < 16; i++) {
			t.saddr[i] = rnd();
			t.daddr[i] = rnd();
		}
		t.dport = rnd();
		klen = (t.family == AF_INET ? 16 : 40) + rnd() % 13;
		for (i = 0; i < klen; i++) {
			key[i] = rnd();
			if (key_kind == 1)
				key[i] &= rnd() & rnd() & rnd();
			if (key_kind == 2)
				key[i] = 0;
		}
		nq = 1 + rnd() % 16;
		for (i = 0; i < size; i++)
			indir[i] = c % 3 ? (uint32_t)(rnd() % nq) : i % nq;
		q = indir[rnd() % size];
		rss = (struct rsspick_rss){ .key = key, .key_len = klen, .indir = indir, .indir_size = size };

		e = rsspick_brute(&rss, &t, q, ref, &ref_count);
		if (e) {
			check(0, "random #%d: brute force failed: %s", c,
			      rsspick_strerror(e));
			continue;
		}
		e = rsspick_solve(&rss, &t, q, &set);
		if (e) {
			check(0, "random #%d: solve failed: %s", c,
			      rsspick_strerror(e));
			continue;
		}
		rsspick_set_info(set, &info);
		ok = compare_set(set, ref, ref_count, why, sizeof(why)) &&
		     plan_check(&rss, t, q, ref, ref_count, why, sizeof(why));
		check(ok,
		      "random #%d %s key %zu%s table %u (%s, rank %u) queue %u: %u ports match brute force, also planned%s%s",
		      c, t.family == AF_INET ? "ipv4" : "ipv6", klen,
		      key_kind == 1 ? " sparse" : key_kind == 2 ? " zero" : "",
		      size, info.method == RSSPICK_AFFINE ? "affine" : "scan",
		      info.rank, q, ref_count, ok ? "" : ": ", why);
		rsspick_set_free(set);
		ncases++;
	}
	free(indir);
}

/* ---- sources: key, table, ethtool -x text ---- */

static void test_parse_key(void)
{
	static const struct {
		const char *s;
		size_t len;	/* 0: must fail */
		const char *msg;
	} cases[] = {
		{ "6d:5a:56", 3, NULL },
		{ " 6d:5A:5 \t", 3, NULL },
		{ "6d5a56da", 4, NULL },
		{ "", 0, "empty" },
		{ "6d:5a:", 0, "trailing ':'" },
		{ "6d::5a", 0, "empty byte" },
		{ "6d:5ag", 0, "unexpected 'g'" },
		{ "6d:5a5:56", 0, "unexpected '5'" },
		{ "6d5a5", 0, "odd number" },
		{ "zz", 0, "unexpected 'z'" },
	};
	char err[256], *big;
	uint8_t *key;
	size_t i, len;
	int r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		r = rss_parse_key(cases[i].s, &key, &len, err, sizeof(err));
		if (cases[i].len)
			check(!r && len == cases[i].len,
			      "parse key \"%s\": %zu bytes", cases[i].s,
			      cases[i].len);
		else
			check(r && strstr(err, cases[i].msg) &&
			      !strchr(err, '\n'),
			      "parse key \"%s\" fails: %s", cases[i].s, err);
		if (!r)
			free(key);
	}
	big = malloc(3 * (RSSPICK_MAX_KEY + 1) + 1);
	for (i = 0; i <= RSSPICK_MAX_KEY; i++)
		memcpy(big + 3 * i, "ab:", 3);
	big[3 * (RSSPICK_MAX_KEY + 1) - 1] = '\0';
	r = rss_parse_key(big, &key, &len, err, sizeof(err));
	check(r && strstr(err, "longer than"), "parse key: oversized fails: %s",
	      err);
	free(big);
}

static void test_parse_indir(void)
{
	static const struct {
		const char *s;
		uint32_t size;	/* 0: must fail */
		uint32_t last;
		const char *msg;
	} cases[] = {
		{ "0 1 2 3", 4, 3, NULL },
		{ "3,2, 1 ,0", 4, 0, NULL },
		{ "equal 6", 128, 127 % 6, NULL },
		{ "", 0, 0, "empty" },
		{ "   ", 0, 0, "empty" },
		{ "0 1 x", 0, 0, "bad entry" },
		{ "0,1,", 0, 0, "trailing ','" },
		{ "0 -1", 0, 0, "bad entry" },
		{ "0 99999999999", 0, 0, "bad entry" },
		{ "equal 0", 0, 0, "queue count" },
		{ "equal", 0, 0, "queue count" },
		{ "equal 4 5", 0, 0, "junk" },
	};
	uint32_t *t, n;
	char err[256];
	size_t i;
	int r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		r = rss_parse_indir(cases[i].s, 128, &t, &n, err, sizeof(err));
		if (cases[i].size)
			check(!r && n == cases[i].size &&
			      t[n - 1] == cases[i].last,
			      "parse table \"%s\": %u entries", cases[i].s,
			      cases[i].size);
		else
			check(r && strstr(err, cases[i].msg),
			      "parse table \"%s\" fails: %s", cases[i].s, err);
		if (!r)
			free(t);
	}
	r = rss_parse_indir("equal 4", 0, &t, &n, err, sizeof(err));
	check(r && strstr(err, "size"), "parse table \"equal 4\" size 0 fails: %s",
	      err);
}

static char *read_data(const char *name)
{
	char path[1024], err[256], *text = NULL;

	snprintf(path, sizeof(path), "%s/%s", datadir, name);
	if (rss_read_file(path, &text, err, sizeof(err)))
		return NULL;
	return text;
}

static int ethtool_conf(const char *name, struct rss_conf *c, char *err,
			size_t errlen)
{
	char *text = read_data(name);
	int r;

	if (!text) {
		snprintf(err, errlen, "cannot read %s", name);
		return -2;
	}
	r = rss_parse_ethtool_x(text, c, err, errlen);
	free(text);
	return r;
}

static void test_ethtool_x(void)
{
	static const struct {
		const char *file;
		const char *parse_err;	/* expected parse failure */
		const char *check_err;	/* expected precondition failure */
	} cases[] = {
		{ "hfunc-xor.txt", NULL, "hash function is xor, not toeplitz" },
		{ "hfunc-crc32.txt", NULL, "hash function is crc32, not toeplitz" },
		{ "xfrm-both.txt", NULL, "input transformation symmetric-xor+symmetric-or-xor is on; rsspick models none, symmetric-xor or symmetric-or-xor" },
		{ "malformed-gap.txt", "starts at slot 24, expected 16", NULL },
		{ "malformed-entry.txt", "malformed ethtool -x output at line 2", NULL },
		{ "malformed-key.txt", "unexpected 'z'", NULL },
		{ "not-ethtool.txt", "no \"RX flow hash indirection table\"", NULL },
	};
	char err[512], warn[256];
	struct rss_conf c;
	size_t i;
	int r;

	r = ethtool_conf("toeplitz-128.txt", &c, err, sizeof(err));
	check(!r && c.indir_size == 128 && c.indir[127] == 7 &&
	      c.key_len == 40 && !memcmp(c.key, msft_key, 40) &&
	      c.rings == 8 && c.hfunc_known && c.hfunc == RSS_HFUNC_TOP &&
	      c.xfrm_known && !c.input_xfrm &&
	      !rss_check_conf(&c, "eth0", AF_INET, err, sizeof(err), warn,
			      sizeof(warn)),
	      "ethtool -x toeplitz-128.txt: 128 slots, 40-byte key, toeplitz, no xfrm");
	if (!r)
		rss_conf_free(&c);

	r = ethtool_conf("xfrm-symxor.txt", &c, err, sizeof(err));
	check(!r && c.xfrm_known && c.input_xfrm == RSSPICK_XFRM_SYM_XOR &&
	      !strcmp(c.xfrm_name, "symmetric-xor") &&
	      !rss_check_conf(&c, "eth0", AF_INET, err, sizeof(err), warn, sizeof(warn)),
	      "ethtool -x xfrm-symxor.txt: symmetric-xor, taken");
	if (!r)
		rss_conf_free(&c);
	r = ethtool_conf("xfrm-symorxor.txt", &c, err, sizeof(err));
	check(!r && c.xfrm_known && c.input_xfrm == RSSPICK_XFRM_SYM_OR_XOR &&
	      !strcmp(c.xfrm_name, "symmetric-or-xor") &&
	      !rss_check_conf(&c, "eth0", AF_INET, err, sizeof(err), warn, sizeof(warn)),
	      "ethtool -x xfrm-symorxor.txt: symmetric-or-xor, taken");
	if (!r)
		rss_conf_free(&c);

	r = ethtool_conf("toeplitz-96-6.1.txt", &c, err, sizeof(err));
	check(!r && c.indir_size == 96 && c.indir[95] == 5 &&
	      c.key_len == 40 && c.hfunc == RSS_HFUNC_TOP && !c.xfrm_known,
	      "ethtool -x toeplitz-96-6.1.txt (ethtool 6.1 layout): 96 slots, xfrm not reported");
	if (!r)
		rss_conf_free(&c);

	r = ethtool_conf("nokey.txt", &c, err, sizeof(err));
	check(!r && c.indir_size == 128 && !c.key,
	      "ethtool -x nokey.txt: table parsed, key absent");
	if (!r)
		rss_conf_free(&c);

	r = ethtool_conf("virtio-norss.txt", &c, err, sizeof(err));
	check(!r && c.indir_size == 0 && !c.key && c.rings == 1 &&
	      c.hfunc == RSS_HFUNC_TOP,
	      "ethtool -x virtio-norss.txt (recorded): no table, no key");
	if (!r)
		rss_conf_free(&c);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		r = ethtool_conf(cases[i].file, &c, err, sizeof(err));
		if (cases[i].parse_err) {
			check(r == -1 && strstr(err, cases[i].parse_err),
			      "ethtool -x %s fails to parse: %s",
			      cases[i].file, err);
			continue;
		}
		if (r) {
			check(0, "ethtool -x %s: %s", cases[i].file, err);
			continue;
		}
		r = rss_check_conf(&c, "eth0", AF_INET, err, sizeof(err),
				   warn, sizeof(warn));
		check(r && strstr(err, cases[i].check_err) &&
		      !strchr(err, '\n'),
		      "ethtool -x %s is refused: %s", cases[i].file, err);
		rss_conf_free(&c);
	}

	memset(&c, 0, sizeof(c));
	c.fields_known = true;
	c.fields = RXH_IP_SRC | RXH_IP_DST;
	r = rss_check_conf(&c, "eth0", AF_INET6, err, sizeof(err), warn,
			   sizeof(warn));
	check(r && strstr(err, "rx-flow-hash udp6"),
	      "rx-flow-hash udp6 sd (no ports) is refused: %s", err);
	c.fields |= RXH_L4_B_0_1 | RXH_L4_B_2_3;
	r = rss_check_conf(&c, "eth0", AF_INET6, err, sizeof(err), warn,
			   sizeof(warn));
	check(!r && strstr(warn, "hash function not reported"),
	      "rx-flow-hash sdfn with unreported hfunc passes with a warning");
}

/* ---- CLI ---- */

struct run {
	int status;
	char out[262144];
	char err[4096];
};

static int drain(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t r;

	while ((r = read(fd, buf + n, cap - 1 - n)) > 0) {
		n += r;
		if (n == cap - 1)
			break;
	}
	buf[n] = '\0';
	return 0;
}

/* Run the CLI; stdout and stderr go to temp files to avoid deadlock. */
static int run_argv(struct run *r, const char *stdin_file, char **argv)
{
	char ofile[] = "/tmp/rsspick-test-XXXXXX";
	char efile[] = "/tmp/rsspick-test-XXXXXX";
	int ofd, efd, st;
	pid_t pid;

	argv[0] = (char *)(cli_bin ? cli_bin : bin);
	ofd = mkstemp(ofile);
	efd = mkstemp(efile);
	if (ofd < 0 || efd < 0)
		return -1;
	unlink(ofile);
	unlink(efile);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int in = open(stdin_file ? stdin_file : "/dev/null",
			      O_RDONLY);

		dup2(in, 0);
		dup2(ofd, 1);
		dup2(efd, 2);
		for (int i = 0; i < 4 && cli_env[i]; i++)
			putenv(cli_env[i]);
		alarm(5);	/* any run takes milliseconds */
		execv(argv[0], argv);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	lseek(ofd, 0, SEEK_SET);
	lseek(efd, 0, SEEK_SET);
	drain(ofd, r->out, sizeof(r->out));
	drain(efd, r->err, sizeof(r->err));
	close(ofd);
	close(efd);
	return 0;
}

static int run_cli(struct run *r, const char *stdin_file, ...)
{
	char *argv[64];
	int argc = 1;
	va_list ap;

	va_start(ap, stdin_file);
	while (argc < 63 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	return run_argv(r, stdin_file, argv);
}

static int one_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl && !nl[1] && !strncmp(s, "rsspick: ", 9);
}

/* Every port printed (one per line) lands on @q; returns the count. */
static int verify_ports(const char *out, const struct rsspick_rss *rss,
			struct rsspick_tuple t, uint32_t q, uint32_t *first)
{
	const char *p = out;
	int n = 0;
	long prev = -1;

	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);
		uint32_t got;

		if (end == p || *end != '\n' || v <= prev || v > 65535)
			return -1;
		t.sport = v;
		if (rsspick_queue(rss, &t, NULL, &got) || got != q)
			return -1;
		if (!n && first)
			*first = v;
		prev = v;
		n++;
		p = end + 1;
	}
	return n;
}

static void cli_error(const char *what, const char *needle, int status,
		      const char *stdin_file, ...)
{
	static struct run r;
	char *argv[32];
	int argc = 0;
	va_list ap;

	va_start(ap, stdin_file);
	while (argc < 31 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	while (argc < 31)
		argv[argc++] = NULL;
	if (run_cli(&r, stdin_file, argv[0], argv[1], argv[2], argv[3],
		    argv[4], argv[5], argv[6], argv[7], argv[8], argv[9],
		    argv[10], argv[11], argv[12], argv[13], argv[14],
		    argv[15], argv[16], NULL)) {
		check(0, "cli %s: cannot run", what);
		return;
	}
	check(r.status == status && one_line(r.err) && strstr(r.err, needle) &&
	      !r.out[0],
	      "cli %s: exit %d, one line: %.*s", what, r.status,
	      (int)strcspn(r.err, "\n"), r.err);
}

/*
 * The installed man page renders without a groff warning and names every
 * long option of --help: the check every tool's tests use, man.sh check.
 */
static void test_man(const char *man)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd),
		 "%s --help >%s.help && sh %s/../../../common/man.sh check %s %s.help; r=$?; rm -f %s.help; exit $r",
		 bin, man, datadir, man, man, man);
	fflush(stdout);
	check(!system(cmd), "man page %s: renders without groff warnings, names every long option of --help (man.sh check)",
	      man);
}

/* "a|b|c" into argv[1..], after @from is replaced by @to */
static char **split_args(const char *base, const char *from, const char *to,
			 char *buf, size_t len, char **argv)
{
	const char *at = strstr(base, from);
	int argc = 1;
	char *p;

	snprintf(buf, len, "%.*s%s%s", (int)(at - base), base, to,
		 at + strlen(from));
	for (p = strtok(buf, "|"); p && argc < 31; p = strtok(NULL, "|"))
		argv[argc++] = p;
	argv[argc] = NULL;
	return argv;
}

/*
 * The CLI on the published vectors: --hash prints each flow's hash, with
 * and without ports, and the ports it picks for the queue that the
 * vector's own source port lands on are exactly those the suite's own
 * Toeplitz sends there, in a table of 128 slots (solved) and one of 96
 * (scanned).
 */
static void test_cli_vectors(void)
{
	static struct run r;
	static char want[262144];
	uint32_t win[REF_MAX_BITS];
	size_t i;

	ref_windows(msft_key, sizeof(msft_key), win);
	for (i = 0; i < sizeof(msft) / sizeof(msft[0]); i++) {
		const struct msft_vec *v = &msft[i];
		uint32_t size = i % 2 ? 96 : 128, nq = i % 2 ? 6 : 8, h, q, p;
		char sp[8], dp[8], eq[16], sz[8], qs[12];
		struct rsspick_tuple t;
		size_t n = 0, cnt = 0;

		make_tuple(&t, v->src, v->dst, v->sport, v->dport);
		snprintf(sp, sizeof(sp), "%u", v->sport);
		snprintf(dp, sizeof(dp), "%u", v->dport);
		snprintf(eq, sizeof(eq), "equal %u", nq);
		snprintf(sz, sizeof(sz), "%u", size);

		h = v->h2;
		snprintf(want, sizeof(want), "hash 0x%08x index %u queue %u\n",
			 h, h % size, h % size % nq);
		run_cli(&r, NULL, "--hash", "--key", MSFT_KEY_STR, "--indir", eq,
			"--indir-size", sz, "-s", v->src, "-d", v->dst,
			"--no-ports", NULL);
		check(r.status == 0 && !strcmp(r.out, want) && !r.err[0],
		      "cli --hash --no-ports, msft vector %s -> %s: %.*s",
		      v->src, v->dst, (int)strcspn(want, "\n"), want);
		h = v->h4;
		snprintf(want, sizeof(want), "hash 0x%08x index %u queue %u\n",
			 h, h % size, h % size % nq);
		run_cli(&r, NULL, "--hash", "--key", MSFT_KEY_STR, "--indir", eq,
			"--indir-size", sz, "-s", v->src, "-d", v->dst, "-S", sp,
			"-D", dp, NULL);
		check(r.status == 0 && !strcmp(r.out, want) && !r.err[0],
		      "cli --hash, msft vector %s sport %u -> %s dport %u: %.*s",
		      v->src, v->sport, v->dst, v->dport,
		      (int)strcspn(want, "\n"), want);

		q = v->h4 % size % nq;
		for (p = 1; p <= 65535; p++) {
			t.sport = p;
			if (ref_flow_hash(win, &t, true, 0) % size % nq == q) {
				n += snprintf(want + n, sizeof(want) - n, "%u\n", p);
				cnt++;
			}
		}
		snprintf(qs, sizeof(qs), "%u", q);
		run_cli(&r, NULL, "--key", MSFT_KEY_STR, "--indir", eq,
			"--indir-size", sz, "-s", v->src, "-d", v->dst, "-D", dp,
			"-q", qs, "--range", "1-65535", NULL);
		check(r.status == 0 && !strcmp(r.out, want) && !r.err[0],
		      "cli, msft flow %s -> %s dport %u, queue %u of '%s' in %u slots: the %zu ports of 1-65535 the suite's Toeplitz sends there, %u among them",
		      v->src, v->dst, v->dport, q, eq, size, cnt, v->sport);
	}
}

/*
 * Each port printed (one per line, ascending) lands on @q of @indir by the
 * suite's own Toeplitz with input transformation @xfrm; returns the count.
 */
static int ref_ports(const char *out, const uint32_t win[REF_MAX_BITS],
		     struct rsspick_tuple t, const uint32_t *indir,
		     uint32_t size, uint32_t q, unsigned int xfrm)
{
	const char *p = out;
	long prev = -1;
	int n = 0;

	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || *end != '\n' || v <= prev || v > 65535)
			return -1;
		t.sport = v;
		if (indir[ref_flow_hash(win, &t, true, xfrm) % size] != q)
			return -1;
		prev = v;
		n++;
		p = end + 1;
	}
	return n;
}

/*
 * Symmetric input transformations, as the receiver reports them in
 * recorded 'ethtool -x' text (table 'equal 8' of 128 slots, the Microsoft
 * key): the ports rsspick prints are exactly those the suite's own
 * Toeplitz, transformation applied, sends to the queue; --hash gives the
 * same hash both ways of a flow, the suite's; both at once are refused.
 */
static void test_cli_xfrm(void)
{
	static const struct {
		const char *file, *name;
		unsigned int xfrm;
	} x[] = {
		{ "xfrm-symxor.txt", "symmetric-xor", REF_XOR },
		{ "xfrm-symorxor.txt", "symmetric-or-xor", REF_OR_XOR },
	};
	static struct run r, rr;
	static char want[262144], wh[64];
	uint32_t win[REF_MAX_BITS], indir[128], q, p, h;
	struct rsspick_rss rss = { .key = msft_key, .key_len = 40, .indir = indir, .indir_size = 128 };
	struct rsspick_set *s1, *s2;
	struct rsspick_plan *plan;
	uint64_t b1[RSSPICK_BITMAP_WORDS], b2[RSSPICK_BITMAP_WORDS];
	char path[1024], qs[12], dp[8], sp[8], warn[160];
	size_t i, v, n, cnt;

	ref_windows(msft_key, sizeof(msft_key), win);
	for (i = 0; i < 128; i++)
		indir[i] = i % 8;
	for (i = 0; i < sizeof(x) / sizeof(x[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", datadir, x[i].file);
		for (v = 0; v < sizeof(msft) / sizeof(msft[0]); v += 5) {
			const struct msft_vec *m = &msft[v];
			const char *fam = strchr(m->src, ':') ? "udp6" : "udp4";
			struct rsspick_tuple t;

			make_tuple(&t, m->src, m->dst, m->sport, m->dport);
			snprintf(warn, sizeof(warn),
				 "rsspick: warning: eth0: ethtool -x does not show rx-flow-hash; assuming %s sdfn (check: ethtool -n eth0 rx-flow-hash %s)\n",
				 fam, fam);
			q = indir[ref_flow_hash(win, &t, true, x[i].xfrm) % 128];
			for (p = 1, n = 0, cnt = 0; p <= 65535; p++) {
				t.sport = p;
				if (indir[ref_flow_hash(win, &t, true, x[i].xfrm) % 128] != q)
					continue;
				n += snprintf(want + n, sizeof(want) - n, "%u\n", p);
				cnt++;
			}
			snprintf(qs, sizeof(qs), "%u", q);
			snprintf(dp, sizeof(dp), "%u", m->dport);
			snprintf(sp, sizeof(sp), "%u", m->sport);
			run_cli(&r, NULL, "--ethtool-x", path, "-s", m->src, "-d", m->dst,
				"-D", dp, "-q", qs, "--range", "1-65535", NULL);
			check(r.status == 0 && !strcmp(r.out, want) && !strcmp(r.err, warn),
			      "cli, %s, flow %s -> %s dport %u, queue %u: the %zu ports the suite's Toeplitz sends there",
			      x[i].name, m->src, m->dst, m->dport, q, cnt);

			t.sport = m->sport;
			h = ref_flow_hash(win, &t, true, x[i].xfrm);
			snprintf(wh, sizeof(wh), "hash 0x%08x index %u queue %u\n",
				 h, h % 128, indir[h % 128]);
			run_cli(&r, NULL, "--hash", "--ethtool-x", path, "-s", m->src,
				"-d", m->dst, "-S", sp, "-D", dp, NULL);
			run_cli(&rr, NULL, "--hash", "--ethtool-x", path, "-s", m->dst,
				"-d", m->src, "-S", dp, "-D", sp, NULL);
			check(r.status == 0 && rr.status == 0 && !strcmp(r.out, wh) &&
			      !strcmp(rr.out, wh),
			      "cli --hash, %s, flow %s sport %u <-> %s dport %u: the same hash both ways, the suite's: %.*s",
			      x[i].name, m->src, m->sport, m->dst, m->dport,
			      (int)strcspn(wh, "\n"), wh);

			/* the library's plan: symmetric-xor answers as the solver does */
			rss.input_xfrm = x[i].xfrm;
			t.sport = 0;
			s1 = s2 = NULL;
			if (x[i].xfrm == REF_OR_XOR) {
				check(rsspick_plan_new(&rss, t.family, q, &plan) == -RSSPICK_EINVAL,
				      "plan, %s, %s: EINVAL (the port bits' flips depend on dport)",
				      x[i].name, fam);
				continue;
			}
			h = ref_flow_hash(win, &t, true, x[i].xfrm);	/* port 0 */
			check(!rsspick_plan_new(&rss, t.family, q, &plan) &&
			      !rsspick_plan_solve(plan, &t, &s1) &&
			      !rsspick_solve(&rss, &t, q, &s2) &&
			      (rsspick_set_bitmap(s1, b1), rsspick_set_bitmap(s2, b2),
			       !memcmp(b1, b2, sizeof(b1))) &&
			      rsspick_set_count(s1) == cnt + (indir[h % 128] == q),
			      "plan, %s, %s: the solver's ports, port 0 included",
			      x[i].name, fam);
			rsspick_set_free(s1);
			rsspick_set_free(s2);
			rsspick_plan_free(plan);
		}
	}
	rss.input_xfrm = REF_XOR | REF_OR_XOR;
	check(rsspick_check(&rss, AF_INET) == -RSSPICK_EINVAL,
	      "check: both transformations at once are EINVAL");

	snprintf(path, sizeof(path), "%s/xfrm-both.txt", datadir);
	cli_error("recorded ethtool -x with both symmetric transformations",
		  "eth0: RSS input transformation symmetric-xor+symmetric-or-xor is on; rsspick models none, symmetric-xor or symmetric-or-xor (ethtool -X eth0 xfrm none)",
		  1, NULL, "--ethtool-x", path, "-s", "1.1.1.1", "-d", "2.2.2.2", "-D", "1",
		  "-q", "0", NULL);
}

/* Two spellings of one option answer alike: the same output, stderr and exit status. */
static void test_spellings(void)
{
	static struct run ra, rb;
	static char base[2][1400], ba[1500], bb[1500];
	char *aa[32], *ab[32];
	static const struct {
		int base;
		const char *from, *a, *b;	/* "|" between arguments */
	} c[] = {
		{ 0, "-n|", "-n|", "--count|" },
		{ 0, "-q|", "--queues|", "--queue|" },
		{ 0, "-q|", "-q|", "-p|udp|-q|" },
		{ 0, "-q|", "-q|", "-p|17|-q|" },
		{ 0, "-q|", "--proto|udp|-j|-q|", "--proto|17|--json|-q|" },
		{ 0, "-s|", "-s|", "--src|" },
		{ 0, "-d|", "-d|", "--dst|" },
		{ 0, "-D|", "-D|", "--dport|" },
		{ 1, "-i|", "-i|", "--dev|" },
		{ 1, "-q|0", "-q|0|-C|7", "-q|0|--context|7" },
	};
	size_t i;

	snprintf(base[0], sizeof(base[0]),
		 "--key|%s|--indir|equal 8|--indir-size|128|-s|10.0.0.1|-d|10.0.0.2|-D|443|-q|2|-n|3|--range|1-65535",
		 MSFT_KEY_STR);
	snprintf(base[1], sizeof(base[1]),
		 "-i|nosuchdev0|-s|1.1.1.1|-d|2.2.2.2|-D|1|-q|0");
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		split_args(base[c[i].base], c[i].from, c[i].a, ba, sizeof(ba), aa);
		split_args(base[c[i].base], c[i].from, c[i].b, bb, sizeof(bb), ab);
		run_argv(&ra, NULL, aa);
		run_argv(&rb, NULL, ab);
		check(ra.status == rb.status && !strcmp(ra.out, rb.out) &&
		      !strcmp(ra.err, rb.err) &&
		      (c[i].base != 0 || (ra.status == 0 && ra.out[0])),
		      "spelling %.*s: exit %d, output as %.*s's",
		      (int)strlen(c[i].b) - 1, c[i].b, rb.status,
		      (int)strlen(c[i].a) - 1, c[i].a);
	}

	cli_error("--proto tcp",
		  "rsspick: bad --proto 'tcp': rsspick picks UDP source ports, want udp (rsspick --help)\n",
		  2, NULL, "--proto", "tcp", NULL);
	cli_error("--queues with two queues",
		  "rsspick: bad --queues '1,2': want one queue number (rsspick --help)\n",
		  2, NULL, "-q", "1,2", NULL);
	cli_error("--dst with a device name",
		  "rsspick: bad --dst 'eth0': want an IPv4 or IPv6 address (rsspick --help)\n",
		  2, NULL, "--indir", "0", "--key", MSFT_KEY_STR, "-s", "1.1.1.1",
		  "--dst", "eth0", "-D", "1", "-q", "0", NULL);
	cli_error("a long option without its argument",
		  "rsspick: option '--dport' needs an argument (rsspick --help)\n",
		  2, NULL, "--dport", NULL);
	cli_error("a short option without its argument",
		  "rsspick: option '-q' needs an argument (rsspick --help)\n",
		  2, NULL, "-q", NULL);
	cli_error("an unknown short option",
		  "rsspick: unknown option '-z' (rsspick --help)\n", 2, NULL, "-z",
		  NULL);
}

static void test_cli(void)
{
	static struct run r;
	uint32_t indir[128], i, first = 0;
	struct rsspick_rss rss = { .key = msft_key, .key_len = 40, .indir = indir, .indir_size = 128 };
	struct rsspick_tuple t;
	char x128[1024], x96[1024], xxor[1024], xnokey[1024];
	char xgap[1024], xvirtio[1024], keyfile[1024], xnot[1024];
	uint16_t near, lowest = 0;
	uint32_t want;
	struct rsspick_set *set;
	int n;

	for (i = 0; i < 128; i++)
		indir[i] = i % 8;
	snprintf(x128, sizeof(x128), "%s/toeplitz-128.txt", datadir);
	snprintf(x96, sizeof(x96), "%s/toeplitz-96-6.1.txt", datadir);
	snprintf(xxor, sizeof(xxor), "%s/hfunc-xor.txt", datadir);
	snprintf(xnokey, sizeof(xnokey), "%s/nokey.txt", datadir);
	snprintf(xgap, sizeof(xgap), "%s/malformed-gap.txt", datadir);
	snprintf(xvirtio, sizeof(xvirtio), "%s/virtio-norss.txt", datadir);
	snprintf(xnot, sizeof(xnot), "%s/not-ethtool.txt", datadir);
	snprintf(keyfile, sizeof(keyfile), "%s/msft-key.txt", datadir);

	run_cli(&r, NULL, "--help", NULL);
	check(r.status == 0 && strstr(r.out, "SYNOPSIS") &&
	      strstr(r.out, "RECEIVER PRECONDITIONS") &&
	      strstr(r.out, "EXIT STATUS"),
	      "cli --help: man-page sections, exit 0");

	{
		char dir[] = "/tmp/rsspick-install.XXXXXX", cmd[1024], bin[300];
		char man[300];
		int rc = -1, there = 0;

		if (mkdtemp(dir)) {
			snprintf(cmd, sizeof(cmd),
				 "make -s install DESTDIR=%s PREFIX=/usr >/dev/null 2>&1", dir);
			rc = system(cmd);
			snprintf(bin, sizeof(bin), "%s/usr/bin/rsspick", dir);
			there = !access(bin, X_OK);
			snprintf(man, sizeof(man),
				 "%s/usr/share/man/man8/rsspick.8", dir);
			there = there && !access(man, R_OK);
			if (there)
				test_man(man);
			snprintf(cmd, sizeof(cmd),
				 "make -s uninstall DESTDIR=%s PREFIX=/usr >/dev/null 2>&1 && ! test -e %s && ! test -e %s && rm -r %s",
				 dir, bin, man, dir);
			rc = rc || system(cmd);
		}
		check(rc == 0 && there,
		      "make install/uninstall with DESTDIR and PREFIX: %s/usr/bin/rsspick and share/man/man8/rsspick.8, then none",
		      dir);
	}

	{
		char vfile[1100], *v, want[512], *p;

		/* tools/VERSION as make's $(shell cat) reads it */
		snprintf(vfile, sizeof(vfile), "%s/../../../VERSION", datadir);
		v = NULL;
		rss_read_file(vfile, &v, want, sizeof(want));
		for (p = v; p && *p; p++)
			if (*p == '\n')
				*p = p[1] ? ' ' : '\0';
		snprintf(want, sizeof(want), "rsspick %s\n", v ? v : "?");
		free(v);
		run_cli(&r, NULL, "--version", NULL);
		check(r.status == 0 && !strcmp(r.out, want) && !r.err[0],
		      "cli --version: %.*s", (int)strcspn(r.out, "\n"), r.out);
	}

	run_cli(&r, NULL, "--hash", "--no-ports", "--key", MSFT_KEY_STR, "--indir",
		"0", "-s", "3ffe:2501:200:1fff::7", "-d", "3ffe:2501:200:3::1",
		"--json", NULL);
	check(r.status == 0 && strstr(r.out, "\"hash\":\"0x2cc18cd5\""),
	      "cli --hash --no-ports --json msft IPv6 vector");

	make_tuple(&t, "192.0.2.1", "192.0.2.2", 0, 4789);
	run_cli(&r, NULL, "--ethtool-x", x128, "-s", "192.0.2.1", "-d", "192.0.2.2",
		"-D", "4789", "-q", "3", "--range", "1-65535", NULL);
	n = verify_ports(r.out, &rss, t, 3, NULL);
	check(r.status == 0 && n == 8192,
	      "cli -x toeplitz-128.txt queue 3 -r 1-65535: %d ports, all verified by hashing",
	      n);

	/* the default range: Linux's ephemeral ports, no privileged port */
	rsspick_solve(&rss, &t, 3, &set);
	want = rsspick_set_count_range(set, 32768, 60999);
	rsspick_set_list(set, 32768, 60999, &lowest, 1);
	rsspick_set_free(set);
	run_cli(&r, NULL, "--ethtool-x", x128, "-s", "192.0.2.1", "-d", "192.0.2.2",
		"-D", "4789", "-q", "3", NULL);
	n = verify_ports(r.out, &rss, t, 3, &first);
	check(r.status == 0 && (uint32_t)n == want && first == lowest,
	      "cli default range 32768-60999: %d ports (want %u) from %u (want %u)",
	      n, want, first, lowest);

	run_cli(&r, NULL, "--ethtool-x", x128, "-s", "192.0.2.1", "-d", "192.0.2.2",
		"-D", "4789", "-q", "3", "-n", "5", "--range", "32768-60999",
		NULL);
	n = verify_ports(r.out, &rss, t, 3, &first);
	check(r.status == 0 && n == 5 && first >= 32768,
	      "cli --count 5 --range 32768-60999: 5 verified ports from %u",
	      first);

	rsspick_solve(&rss, &t, 3, &set);
	rsspick_set_nearest(set, 40000, 1, 65535, &near);
	rsspick_set_free(set);
	run_cli(&r, NULL, "--ethtool-x", x128, "-s", "192.0.2.1", "-d", "192.0.2.2",
		"-D", "4789", "-q", "3", "--near", "40000", "--range", "1-65535", NULL);
	check(r.status == 0 && (uint32_t)atoi(r.out) == near &&
	      verify_ports(r.out, &rss, t, 3, NULL) == 1,
	      "cli --near 40000: %u", near);

	run_cli(&r, NULL, "--ethtool-x", x128, "-s", "192.0.2.1", "-d", "192.0.2.2",
		"-D", "4789", "-q", "3", "-n", "3", "--json", "--range", "1-65535", NULL);
	check(r.status == 0 && strstr(r.out, "\"method\":\"affine\"") &&
	      strstr(r.out, "\"total\":8192") &&
	      strstr(r.out, "\"count\":3,\"ports\":["),
	      "cli --json: method, total in 1-65535, count and ports");

	/* non-power-of-two table from stdin, key given by file */
	for (i = 0; i < 96; i++)
		indir[i] = i % 6;
	rss.indir_size = 96;
	make_tuple(&t, "2001:db8::1", "2001:db8::2", 0, 1000);
	run_cli(&r, x96, "--ethtool-x", "-", "--key-file", keyfile, "-s",
		"2001:db8::1", "-d", "2001:db8::2", "-D", "1000", "-q", "5",
		"-n", "100", NULL);
	n = verify_ports(r.out, &rss, t, 5, NULL);
	check(r.status == 0 && n == 100,
	      "cli -x - (stdin, 96 slots) --key-file, IPv6: 100 verified ports");

	for (i = 0; i < 128; i++)
		indir[i] = i % 8;
	rss.indir_size = 128;
	make_tuple(&t, "10.0.0.1", "10.0.0.2", 0, 1);
	run_cli(&r, NULL, "--ethtool-x", xxor, "--force", "-s", "10.0.0.1", "-d",
		"10.0.0.2", "-D", "1", "-q", "0", "-n", "1", NULL);
	check(r.status == 0 && verify_ports(r.out, &rss, t, 0, NULL) == 1 &&
	      strstr(r.err, "warning: eth0: RSS hash function is xor") &&
	      strstr(r.err, "(--force)"),
	      "cli --force turns the hfunc error into a warning");

	/* error cases: each is one line on stderr, nothing on stdout */
	cli_error("IPv6 with 16-byte key", "RSS key is 16 bytes; an IPv6 4-tuple needs at least 40",
		  1, NULL, "--key", "00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff",
		  "--indir", "0 1", "-s", "::1", "-d", "::2", "-D", "1", "-q", "0",
		  NULL);
	cli_error("IPv4 with 15-byte key", "an IPv4 4-tuple needs at least 16",
		  1, NULL, "--key", "00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee",
		  "--indir", "0 1", "-s", "1.1.1.1", "-d", "2.2.2.2", "-D", "1",
		  "-q", "0", NULL);
	cli_error("empty table", "indirection table is empty", 2, NULL, "--key",
		  MSFT_KEY_STR, "--indir", "", "-s", "1.1.1.1", "-d", "2.2.2.2",
		  "-D", "1", "-q", "0", NULL);
	cli_error("queue not in table",
		  "queue 9 does not appear in the indirection table (queues present: 0 1 2 3 4 5 6 7)",
		  1, NULL, "--ethtool-x", x128, "-s", "1.1.1.1", "-d", "2.2.2.2", "-D",
		  "1", "-q", "9", NULL);
	cli_error("malformed key", "malformed RSS key", 2, NULL, "--key",
		  "6d:5a:zz", "--indir", "0", "-s", "1.1.1.1", "-d", "2.2.2.2",
		  "-D", "1", "-q", "0", NULL);
	cli_error("malformed table", "malformed indirection table", 2, NULL,
		  "--key", MSFT_KEY_STR, "--indir", "0 1 two", "-s", "1.1.1.1", "-d",
		  "2.2.2.2", "-D", "1", "-q", "0", NULL);
	cli_error("recorded ethtool -x with hfunc xor",
		  "eth0: RSS hash function is xor, not toeplitz (ethtool -X", 1,
		  NULL, "--ethtool-x", xxor, "-s", "1.1.1.1", "-d", "2.2.2.2", "-D",
		  "1", "-q", "0", NULL);
	cli_error("recorded ethtool -x without key", "no RSS key", 1, NULL,
		  "--ethtool-x", xnokey, "-s", "1.1.1.1", "-d", "2.2.2.2", "-D", "1",
		  "-q", "0", NULL);
	cli_error("malformed ethtool -x", "starts at slot 24", 1, NULL, "--ethtool-x",
		  xgap, "-s", "1.1.1.1", "-d", "2.2.2.2", "-D", "1", "-q", "0",
		  NULL);
	cli_error("not ethtool -x output", "no \"RX flow hash", 1, NULL,
		  "--ethtool-x", xnot, "-s", "1.1.1.1", "-d", "2.2.2.2", "-D", "1",
		  "-q", "0", NULL);
	cli_error("recorded virtio ethtool -x (no RSS)", "no indirection table",
		  1, NULL, "--ethtool-x", xvirtio, "--key", MSFT_KEY_STR, "-s", "1.1.1.1",
		  "-d", "2.2.2.2", "-D", "1", "-q", "0", NULL);
	cli_error("missing ethtool -x file", "No such file", 1, NULL, "--ethtool-x",
		  "/nonexistent/x.txt", "-s", "1.1.1.1", "-d", "2.2.2.2", "-D",
		  "1", "-q", "0", NULL);
	cli_error("range without matching port", "no source port in 5-5", 1,
		  NULL, "--key", MSFT_KEY_STR, "--indir", "0 1", "-s", "1.1.1.1", "-d",
		  "2.2.2.2", "-D", "1", "-q", "0", "--range", "5-5", "--near", "5",
		  NULL);
	cli_error("mixed address families", "both be IPv4 or both IPv6", 2,
		  NULL, "--key", MSFT_KEY_STR, "--indir", "0", "-s", "1.1.1.1", "-d",
		  "::2", "-D", "1", "-q", "0", NULL);
	cli_error("bad address", "bad --src", 2, NULL, "--key", MSFT_KEY_STR,
		  "--indir", "0", "-s", "1.1.1", "-d", "2.2.2.2", "-D", "1", "-q",
		  "0", NULL);
	cli_error("bad port", "bad --dport '65536'", 2, NULL, "--key",
		  MSFT_KEY_STR, "--indir", "0", "-s", "1.1.1.1", "-d", "2.2.2.2",
		  "-D", "65536", "-q", "0", NULL);
	cli_error("bad range", "bad --range", 2, NULL, "--key", MSFT_KEY_STR,
		  "--indir", "0", "-s", "1.1.1.1", "-d", "2.2.2.2", "-D", "1",
		  "-q", "0", "--range", "9-3", NULL);
	cli_error("missing queue", "--dport and --queue are required", 2,
		  NULL, "--key", MSFT_KEY_STR, "--indir", "0", "-s", "1.1.1.1", "-d",
		  "2.2.2.2", "-D", "1", NULL);
	cli_error("no configuration", "no RSS configuration", 2, NULL, "-s",
		  "1.1.1.1", "-d", "2.2.2.2", "-D", "1", "-q", "0", NULL);
	cli_error("unknown option", "unknown option '--bogus' (rsspick --help)", 2,
		  NULL, "--bogus", NULL);
	cli_error("--count with --near", "mutually exclusive", 2, NULL, "--key",
		  MSFT_KEY_STR, "--indir", "0", "-s", "1.1.1.1", "-d", "2.2.2.2",
		  "-D", "1", "-q", "0", "-n", "2", "--near", "3", NULL);
	cli_error("--hash without ports", "--hash needs --sport and --dport",
		  2, NULL, "--hash", "--key", MSFT_KEY_STR, "--indir", "0", "-s",
		  "1.1.1.1", "-d", "2.2.2.2", NULL);
	cli_error("device that does not exist", "nosuchdev0: no such network device",
		  1, NULL, "--dev", "nosuchdev0", "-s", "1.1.1.1", "-d",
		  "2.2.2.2", "-D", "1", "-q", "0", NULL);
	cli_error("loopback device (no RSS)", "rsspick: lo: ", 1, NULL,
		  "--dev", "lo", "-s", "1.1.1.1", "-d", "2.2.2.2", "-D", "1",
		  "-q", "0", NULL);
}

/* ---- review findings F1-F8 (2026-11-30 rsspick verification) ---- */

/* Data file @name, @from replaced by @to, @copies times, in a temp file. */
static const char *tmp_data(const char *name, const char *from,
			    const char *to, int copies)
{
	static char path[] = "/tmp/rsspick-test-XXXXXX";
	char *t = read_data(name), *at = strstr(t, from);
	int fd;

	strcpy(path + strlen(path) - 6, "XXXXXX");
	fd = mkstemp(path);
	while (copies-- > 0) {
		if (write(fd, t, at - t) < 0 || write(fd, to, strlen(to)) < 0 ||
		    write(fd, at + strlen(from), strlen(at + strlen(from))) < 0)
			break;
	}
	close(fd);
	free(t);
	return path;
}

static void test_findings(void)
{
	static struct run r, r4;
	char err[512], warn[512], x96[1024], keyfile[1024], shim[1024];
	char bin68[1024];
	const char *bins[2] = { bin, bin68 }, *f;
	uint32_t indir[128], i;
	struct rsspick_rss rss = { .key = msft_key, .key_len = 40, .indir = indir, .indir_size = 128 };
	uint32_t win[REF_MAX_BITS];
	struct rsspick_tuple t;
	struct rss_conf c;
	int b;

	ref_windows(msft_key, sizeof(msft_key), win);
	for (i = 0; i < 128; i++)
		indir[i] = i % 8;
	snprintf(x96, sizeof(x96), "%s/toeplitz-96-6.1.txt", datadir);
	snprintf(keyfile, sizeof(keyfile), "%s/msft-key.txt", datadir);
	snprintf(shim, sizeof(shim), "%s/../ethtool-shim.so", datadir);
	snprintf(bin68, sizeof(bin68), "%s/../rsspick-uapi68", datadir);

	/* F1: ethtool < 6.8 prints no input transformation: say so */
	ethtool_conf("toeplitz-96-6.1.txt", &c, err, sizeof(err));
	check(!rss_check_conf(&c, "eth0", AF_INET, err, sizeof(err), warn,
			      sizeof(warn)) &&
	      !strcmp(warn, "eth0: input transformation not reported (ethtool before 6.8 omits it); assuming none; ethtool -x does not show rx-flow-hash; assuming udp4 sdfn (check: ethtool -n eth0 rx-flow-hash udp4)"),
	      "F1: ethtool 6.1 -x text: the assumed xfrm and rx-flow-hash are named: %s",
	      warn);
	rss_conf_free(&c);
	run_cli(&r, NULL, "--ethtool-x", x96, "--key-file", keyfile, "-s", "10.0.0.1",
		"-d", "10.0.0.2", "-D", "443", "-q", "3", "-n", "1", NULL);
	check(r.status == 0 && atoi(r.out) > 0 &&
	      strstr(r.err, "rsspick: warning: eth1: input transformation not reported"),
	      "F1: cli -x ethtool-6.1 text answers with a warning: %.*s",
	      (int)strcspn(r.err, "\n"), r.err);

	/* F2: the ioctl (on lo, through the shim), also built as on 6.8+ */
	for (b = 0; b < 2; b++) {
		static char pre[1100], xf[16];

		if (access(bins[b], X_OK) || access(shim, R_OK)) {
			skip("F2: %s or %s not built", bins[b], shim);
			continue;
		}
		snprintf(pre, sizeof(pre), "LD_PRELOAD=%s", shim);
		cli_bin = bins[b];
		cli_env[0] = pre;
		make_tuple(&t, "10.0.0.1", "10.0.0.2", 0, 443);
		run_cli(&r, NULL, "--dev", "lo", "-s", "10.0.0.1", "-d",
			"10.0.0.2", "-D", "443", "-q", "3", "-n", "4", NULL);
		check(r.status == 0 && verify_ports(r.out, &rss, t, 3, NULL) == 4 &&
		      !r.err[0],
		      "F2: %s --dev via the ioctl: 4 verified ports, no warning",
		      bins[b]);
		/* the transformation is read from the byte after hfunc */
		for (i = 1; i <= 2; i++) {
			snprintf(xf, sizeof(xf), "SHIM_XFRM=%u", i);
			cli_env[1] = xf;
			run_cli(&r, NULL, "--dev", "lo", "-s", "10.0.0.1", "-d",
				"10.0.0.2", "-D", "443", "-q", "3", "-n", "4", NULL);
			check(r.status == 0 && !r.err[0] &&
			      ref_ports(r.out, win, t, indir, 128, 3, i) == 4,
			      "F2: %s --dev via the ioctl, input_xfrm %u: 4 ports the suite's Toeplitz with %s sends to queue 3",
			      bins[b], i, i == 1 ? "symmetric-xor" : "symmetric-or-xor");
		}
		cli_env[1] = "SHIM_XFRM=3";
		cli_error(b ? "F2 (6.8 headers): ioctl input_xfrm after hfunc" :
			  "F2: ioctl input_xfrm in the byte after hfunc",
			  "lo: RSS input transformation symmetric-xor+symmetric-or-xor is on; rsspick models none, symmetric-xor or symmetric-or-xor (ethtool -X lo xfrm none)",
			  1, NULL, "--dev", "lo", "-s", "10.0.0.1", "-d",
			  "10.0.0.2", "-D", "443", "-q", "3", NULL);
		/* an ioctl hfunc of 0 is "not reported" */
		cli_env[1] = "SHIM_HFUNC=0";
		run_cli(&r, NULL, "--dev", "lo", "-s", "10.0.0.1", "-d",
			"10.0.0.2", "-D", "443", "-q", "3", "-n", "1", NULL);
		check(r.status == 0 &&
		      !strcmp(r.err, "rsspick: warning: lo: hash function not reported; assuming toeplitz\n"),
		      "F2: ioctl hfunc 0 is a warning, not a refusal: %.*s",
		      (int)strcspn(r.err, "\n"), r.err);
		/* F3 end to end: rx-flow-hash with the IPv6 flow label too */
		cli_env[1] = "SHIM_FIELDS=0x2f0";
		cli_error(b ? "F3 (6.8 headers): rx-flow-hash sdfn and flow label" :
			  "F3: rx-flow-hash sdfn plus the flow label",
			  "lo: rx-flow-hash udp4 hashes more than src/dst address and ports (ethtool -N lo rx-flow-hash udp4 sdfn)",
			  1, NULL, "--dev", "lo", "-s", "10.0.0.1", "-d",
			  "10.0.0.2", "-D", "443", "-q", "3", NULL);
		cli_env[0] = cli_env[1] = NULL;
		cli_bin = NULL;
	}

	/* F3: rx-flow-hash must be sdfn exactly */
	for (i = 0; i < 4; i++) {
		static const uint32_t extra[4] = { 1U << 1, 1U << 2, 1U << 9,
						   1U << 31 };

		memset(&c, 0, sizeof(c));
		c.fields_known = true;
		c.fields = RSS_RXH_SDFN | extra[i];
		check(rss_check_conf(&c, "eth0", AF_INET, err, sizeof(err), warn,
				     sizeof(warn)) &&
		      strstr(err, "eth0: rx-flow-hash udp4 hashes more than src/dst address and ports"),
		      "F3: rx-flow-hash 0x%x is refused: %s", c.fields, err);
	}

	/* F4: "equal N" takes the device's size or an explicit one */
	cli_error("F4: equal N without a table size",
		  "\"equal 6\" needs the table size: give --indir-size S (ethtool -x DEV shows it; mlx5 tables have at least 256 entries)",
		  2, NULL, "--indir", "equal 6", "--key", MSFT_KEY_STR, "-s", "10.0.0.1",
		  "-d", "10.0.0.2", "-D", "1000", "-q", "2", NULL);
	run_cli(&r, NULL, "--ethtool-x", x96, "--key-file", keyfile, "--indir", "equal 4",
		"-s", "10.0.0.1", "-d", "10.0.0.2", "-D", "1000", "-q", "2",
		"-n", "1", "--json", NULL);
	check(r.status == 0 && strstr(r.out, "\"table_size\":96,"),
	      "F4: -x (96 slots) with --indir 'equal 4' keeps 96 slots: %.*s",
	      (int)strcspn(r.out, "\n"), r.out);
	run_cli(&r, NULL, "--indir", "equal 6", "--indir-size", "256", "--key",
		MSFT_KEY_STR, "-s", "10.0.0.1", "-d", "10.0.0.2", "-D", "1000",
		"-q", "2", "-n", "1", "--json", NULL);
	check(r.status == 0 && strstr(r.out, "\"table_size\":256,"),
	      "F4: equal 6 --indir-size 256: 256 slots");

	/* F5: the "not in table" message does not count up to the queue */
	cli_error("F5: queue not in a table holding queue 4294967295",
		  "queue 5 does not appear in the indirection table (queues present: 0 1 4294967295)",
		  1, NULL, "--key", MSFT_KEY_STR, "--indir", "4294967295 1 0 1", "-s",
		  "10.0.0.1", "-d", "10.0.0.2", "-D", "443", "-q", "5", NULL);

	/* F6: IPv4-mapped IPv6 is what a dual-stack socket sends as IPv4 */
	run_cli(&r4, NULL, "--key", MSFT_KEY_STR, "--indir", "equal 8", "--indir-size",
		"128", "-s", "10.0.0.1", "-d", "10.0.0.2", "-D", "1000", "-q",
		"2", "--json", NULL);
	run_cli(&r, NULL, "--key", MSFT_KEY_STR, "--indir", "equal 8", "--indir-size",
		"128", "-s", "::ffff:10.0.0.1", "-d", "::ffff:10.0.0.2", "-D",
		"1000", "-q", "2", "--json", NULL);
	check(r.status == 0 && r4.status == 0 && !strcmp(r.out, r4.out) &&
	      strstr(r.out, "{\"family\":\"ipv4\",\"saddr\":\"10.0.0.1\","),
	      "F6: ::ffff:10.0.0.1 -> ::ffff:10.0.0.2 answers as IPv4");
	cli_error("F6: a mapped and a plain IPv6 address",
		  "--src and --dst must both be IPv4 or both IPv6 (rsspick --help)", 2, NULL,
		  "--key", MSFT_KEY_STR, "--indir", "0", "-s", "::ffff:10.0.0.1", "-d",
		  "2001:db8::2", "-D", "1", "-q", "0", NULL);

	/* F7 */
	run_cli(&r, NULL, "--help", NULL);
	check(strstr(r.out, "queue\n    indir[hash % table_size].") &&
	      !strstr(r.out, "%%"), "F7: --help prints indir[hash %% table_size]");

	/* F8: exit statuses and messages */
	cli_error("F8: --context without --dev", "--context goes with --dev", 2,
		  NULL, "--ethtool-x", x96, "--context", "7", "-s", "10.0.0.1", "-d",
		  "10.0.0.2", "-D", "1", "-q", "0", NULL);
	cli_error("F8: malformed --key-file content", "malformed RSS key", 1,
		  NULL, "--indir", "0", "--key-file", x96, "-s", "10.0.0.1", "-d",
		  "10.0.0.2", "-D", "1", "-q", "0", NULL);
	f = tmp_data("toeplitz-128.txt", "RX flow hash indirection table for eth0 with 8 RX ring(s):\n",
		     "Cannot get RX ring count: Operation not supported\n", 1);
	cli_error("F8: a recorded ethtool -x failure",
		  "ethtool -x failed when this was recorded: Cannot get RX ring count: Operation not supported",
		  1, NULL, "--ethtool-x", f, "-s", "10.0.0.1", "-d", "10.0.0.2", "-D",
		  "1", "-q", "0", NULL);
	unlink(f);
	f = tmp_data("toeplitz-128.txt", "", "", 2);
	cli_error("F8: two ethtool -x outputs in one file",
		  "malformed ethtool -x output: a second table at line 26 (one ethtool -x output per file)",
		  1, NULL, "--ethtool-x", f, "-s", "10.0.0.1", "-d", "10.0.0.2", "-D",
		  "1", "-q", "0", NULL);
	unlink(f);
	f = tmp_data("toeplitz-128.txt", "xor: off", "xor: on", 1);
	cli_error("F8: toeplitz and xor both on",
		  "eth0: RSS hash function is toeplitz+xor, not toeplitz", 1,
		  NULL, "--ethtool-x", f, "-s", "10.0.0.1", "-d", "10.0.0.2", "-D", "1",
		  "-q", "0", NULL);
	unlink(f);
	f = tmp_data("toeplitz-128.txt", "with 8 RX", "with 4 RX", 1);
	cli_error("F8: a table entry at or above the ring count",
		  "malformed ethtool -x output: slot 4 holds queue 4, but there are 4 RX rings",
		  1, NULL, "--ethtool-x", f, "-s", "10.0.0.1", "-d", "10.0.0.2", "-D",
		  "1", "-q", "0", NULL);
	unlink(f);
	cli_error("F8: a directory as the ethtool -x file", ": Is a directory",
		  1, NULL, "--ethtool-x", datadir, "-s", "10.0.0.1", "-d", "10.0.0.2",
		  "-D", "1", "-q", "0", NULL);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s RSSPICK_BINARY DATA_DIR\n", argv[0]);
		return 2;
	}
	bin = argv[1];
	datadir = argv[2];
	if (access(bin, X_OK))
		skip("cli binary %s not found", bin);

	test_msft_vectors();
	test_lib_errors();
	test_parse_key();
	test_parse_indir();
	test_ethtool_x();
	test_random();
	if (!access(bin, X_OK))
		test_cli();
	if (!access(bin, X_OK))
		test_cli_vectors();
	if (!access(bin, X_OK))
		test_cli_xfrm();
	if (!access(bin, X_OK))
		test_findings();
	if (!access(bin, X_OK))
		test_spellings();

	printf("rsspick: %d passed, %d failed, %d skipped\n", npass, nfail, nskip);
	return nfail ? 1 : 0;
}
