// SPDX-License-Identifier: GPL-2.0
/*
 * rsspick - Toeplitz RSS hash and source-port solver.
 *
 * Notation.  The Toeplitz hash of an n-bit input x (bit 0 = most
 * significant bit of the first byte) is
 *
 *	H(x) = XOR over set bits i of x of K[i .. i + 31]
 *
 * where K[i .. i + 31] is the 32-bit window of the key starting at bit i.
 * H is linear over GF(2).  With every field but the source port fixed,
 *
 *	H(s) = H0 ^ M s,
 *
 * H0 being the hash with sport = 0 and column i of the 32x16 matrix M the
 * key window under sport bit i.  For a table of 2^m entries the queue
 * depends on the low m bits only, an affine function of s: for each table
 * index j holding the target queue, the solutions of (M s)_low = j ^ H0_low
 * are either none or a coset p_j + N of the null space N of M_low.  The
 * answer is the disjoint union of those cosets; it is kept in that form,
 * so counting, listing in order and "nearest port" queries never touch
 * more than a few words per coset.
 *
 * For a table whose size S is not a power of two, the queue depends on
 * H % S, which is not linear.  Write S = 2^a * q with q odd: H % 2^a is
 * still the low a bits, so the same algebra keeps only the cosets whose
 * low bits can match a target index, and each surviving port is then
 * evaluated with one XOR (Gray-code walk over the coset) plus a division-
 * free modulo.  That costs 2^16 * |{j mod 2^a}| / 2^a evaluations at most,
 * all 65536 when S is odd.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "rsspick.h"

#define NBITS	16		/* source port bits */

struct rsspick_set {
	enum rsspick_method method;
	uint32_t count;
	unsigned int rank;
	unsigned int dim;
	uint32_t evals;
	/* RSSPICK_AFFINE: union of offs[j] + span(basis) */
	uint16_t basis[NBITS];	/* reduced echelon form, ascending pivots */
	uint32_t ncosets;
	uint16_t *offs;		/* coset representatives, pivot bits clear */
	/* RSSPICK_SCAN: explicit bitmap */
	uint64_t *bm;
};

static const char *const err_str[RSSPICK_ERR_MAX] = {
	[RSSPICK_OK]		= "success",
	[RSSPICK_EKEYLEN]	= "RSS key too short for the hash input (need input length + 4 bytes)",
	[RSSPICK_EINDIR]	= "indirection table is empty or too large",
	[RSSPICK_ENOQUEUE]	= "queue does not appear in the indirection table",
	[RSSPICK_EFAMILY]	= "address family must be IPv4 or IPv6",
	[RSSPICK_EINVAL]	= "invalid argument",
	[RSSPICK_ENOMEM]	= "out of memory",
	[RSSPICK_ENOENT]	= "no source port satisfies the request",
};

const char *rsspick_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= RSSPICK_ERR_MAX)
		return "unknown error";
	return err_str[err];
}

/* 32 key bits starting at bit @bit; needs key bytes up to bit / 8 + 4. */
static uint32_t key_window(const uint8_t *key, size_t bit)
{
	const uint8_t *k = key + bit / 8;
	uint64_t v;

	v = (uint64_t)k[0] << 32 | (uint64_t)k[1] << 24 |
	    (uint64_t)k[2] << 16 | (uint64_t)k[3] << 8 | k[4];
	return (uint32_t)(v >> (8 - bit % 8));
}

int rsspick_toeplitz(const uint8_t *key, size_t key_len,
		     const uint8_t *in, size_t in_len, uint32_t *hash)
{
	uint32_t h = 0;
	size_t i;
	int b;

	if (!key || !hash || (!in && in_len))
		return -RSSPICK_EINVAL;
	if (key_len > RSSPICK_MAX_KEY || key_len < in_len + 4)
		return -RSSPICK_EKEYLEN;

	for (i = 0; i < in_len; i++) {
		if (!in[i])
			continue;
		for (b = 0; b < 8; b++)
			if (in[i] & (0x80 >> b))
				h ^= key_window(key, i * 8 + b);
	}
	*hash = h;
	return 0;
}

static int addr_len(int family)
{
	if (family == AF_INET)
		return 4;
	if (family == AF_INET6)
		return 16;
	return -RSSPICK_EFAMILY;
}

int rsspick_tuple_input(const struct rsspick_tuple *t, bool l4,
			uint8_t out[RSSPICK_MAX_INPUT])
{
	int alen, n;

	if (!t || !out)
		return -RSSPICK_EINVAL;
	alen = addr_len(t->family);
	if (alen < 0)
		return alen;

	memcpy(out, t->saddr, alen);
	memcpy(out + alen, t->daddr, alen);
	n = 2 * alen;
	if (l4) {
		out[n++] = t->sport >> 8;
		out[n++] = t->sport & 0xff;
		out[n++] = t->dport >> 8;
		out[n++] = t->dport & 0xff;
	}
	return n;
}

int rsspick_hash(const uint8_t *key, size_t key_len,
		 const struct rsspick_tuple *t, bool l4, uint32_t *hash)
{
	uint8_t in[RSSPICK_MAX_INPUT];
	int n;

	n = rsspick_tuple_input(t, l4, in);
	if (n < 0)
		return n;
	return rsspick_toeplitz(key, key_len, in, n, hash);
}

int rsspick_check(const struct rsspick_rss *rss, int family)
{
	int alen;

	if (!rss || !rss->key)
		return -RSSPICK_EINVAL;
	alen = addr_len(family);
	if (alen < 0)
		return alen;
	if (!rss->indir || !rss->indir_size ||
	    rss->indir_size > RSSPICK_MAX_INDIR)
		return -RSSPICK_EINDIR;
	if (rss->key_len > RSSPICK_MAX_KEY ||
	    rss->key_len < (size_t)(2 * alen + 4 + 4))
		return -RSSPICK_EKEYLEN;
	return 0;
}

int rsspick_queue(const struct rsspick_rss *rss,
		  const struct rsspick_tuple *t, uint32_t *hash,
		  uint32_t *queue)
{
	uint32_t h;
	int err;

	if (!t || !queue)
		return -RSSPICK_EINVAL;
	err = rsspick_check(rss, t->family);
	if (err)
		return err;
	err = rsspick_hash(rss->key, rss->key_len, t, true, &h);
	if (err)
		return err;
	if (hash)
		*hash = h;
	*queue = rss->indir[h % rss->indir_size];
	return 0;
}

/*
 * Affine model of the hash as a function of the source port:
 * H(s) = h0 ^ XOR over set bits i of s of col[i].
 */
struct port_model {
	uint32_t h0;
	uint32_t col[NBITS];
};

static int port_model_init(const struct rsspick_rss *rss,
			   const struct rsspick_tuple *t,
			   struct port_model *pm)
{
	uint8_t in[RSSPICK_MAX_INPUT];
	struct rsspick_tuple t0 = *t;
	size_t off;
	int n, i, err;

	t0.sport = 0;
	n = rsspick_tuple_input(&t0, true, in);
	if (n < 0)
		return n;
	err = rsspick_toeplitz(rss->key, rss->key_len, in, n, &pm->h0);
	if (err)
		return err;
	/* sport starts right after the two addresses; its MSB is bit 15 */
	off = (size_t)(n - 4) * 8;
	for (i = 0; i < NBITS; i++)
		pm->col[i] = key_window(rss->key, off + (NBITS - 1 - i));
	return 0;
}

static uint32_t port_model_eval(const struct port_model *pm, uint32_t s)
{
	uint32_t h = pm->h0;
	int i;

	for (i = 0; i < NBITS; i++)
		if (s & (1U << i))
			h ^= pm->col[i];
	return h;
}

/*
 * Linear system on the low @m hash bits.  bval[b]/bcomb[b] is a basis
 * vector of the column space with leading bit b and the port bits that
 * produce it; null[] spans the ports mapping to zero.
 */
struct lowbits_sys {
	uint32_t mask;
	unsigned int m;
	unsigned int rank;
	bool has[32];
	uint32_t bval[32];
	uint16_t bcomb[32];
	unsigned int dim;
	uint16_t null[NBITS];	/* reduced echelon, ascending pivots */
	/*
	 * lowbits_solve() is linear in t: byte k of t contributes lut[k][byte],
	 * the solution in bits 0-15 and what no pivot reduces (t not in the
	 * span) from bit 16 on. Only the first (m + 7) / 8 bytes are used.
	 */
	uint64_t lut[4][256];
};

static int top_bit(uint32_t v)
{
	return 31 - __builtin_clz(v);
}

/* The solution of (M s) & mask == t for one bit t, with what is left over */
static uint64_t lowbits_unit(const struct lowbits_sys *ls, uint32_t t)
{
	uint32_t rest = 0;
	uint16_t c = 0;
	unsigned int i;

	while (t) {
		int b = 31 - __builtin_clz(t);

		if (ls->has[b]) {
			t ^= ls->bval[b];
			c ^= ls->bcomb[b];
		} else {
			rest |= 1U << b;
			t ^= 1U << b;
		}
	}
	for (i = 0; i < ls->dim; i++)
		if (c & (1U << (31 - __builtin_clz(ls->null[i]))))
			c ^= ls->null[i];
	return (uint64_t)rest << 16 | c;
}

static void lowbits_lut_init(struct lowbits_sys *ls)
{
	unsigned int k, v, n;
	uint64_t unit[8];

	for (k = 0; k < 4 && 8 * k < ls->m; k++) {
		n = ls->m - 8 * k < 8 ? ls->m - 8 * k : 8;
		for (v = 0; v < n; v++)
			unit[v] = lowbits_unit(ls, 1U << (8 * k + v));
		ls->lut[k][0] = 0;
		for (v = 1; v < 1U << n; v++)
			ls->lut[k][v] = ls->lut[k][v & (v - 1)] ^
					unit[__builtin_ctz(v)];
	}
}

static void lowbits_sys_init(struct lowbits_sys *ls,
			     const struct port_model *pm, unsigned int m)
{
	uint16_t nv[NBITS];
	unsigned int n = 0, i, j;

	memset(ls, 0, sizeof(*ls));
	ls->m = m;
	ls->mask = m >= 32 ? 0xffffffffU : (1U << m) - 1;

	for (i = 0; i < NBITS; i++) {
		uint32_t v = pm->col[i] & ls->mask;
		uint16_t c = 1U << i;

		while (v) {
			int b = top_bit(v);

			if (!ls->has[b]) {
				ls->has[b] = true;
				ls->bval[b] = v;
				ls->bcomb[b] = c;
				ls->rank++;
				break;
			}
			v ^= ls->bval[b];
			c ^= ls->bcomb[b];
		}
		if (!v)
			nv[n++] = c;
	}

	/* Reduced echelon form of the null space, pivots ascending. */
	for (i = 0; i < n; i++) {
		uint16_t best = 0;
		unsigned int bi = i;

		/* bring the vector with the highest top bit to slot i */
		for (j = i; j < n; j++) {
			if (nv[j] > best) {
				best = nv[j];
				bi = j;
			}
		}
		nv[bi] = nv[i];
		nv[i] = best;
		for (j = 0; j < n; j++)
			if (j != i && (nv[j] & (1U << top_bit(best))))
				nv[j] ^= best;
	}
	/* nv[] is now sorted by descending pivot; store ascending */
	ls->dim = n;
	for (i = 0; i < n; i++)
		ls->null[i] = nv[n - 1 - i];
	lowbits_lut_init(ls);
}

/* Port s with (M s) & mask == t, pivot bits of the null space clear. */
static bool lowbits_solve(const struct lowbits_sys *ls, uint32_t t,
			  uint16_t *s)
{
	uint64_t x = 0;
	unsigned int k;

	t &= ls->mask;
	for (k = 0; t; k++, t >>= 8)
		x ^= ls->lut[k][t & 0xff];
	if (x >> 16)
		return false;
	*s = x;
	return true;
}

static bool is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

/* A query is valid for this configuration, and its queue is in the table */
static int check_query(const struct rsspick_rss *rss, const struct rsspick_tuple *t,
		       uint32_t queue)
{
	uint32_t j;
	int err;

	err = rsspick_check(rss, t->family);
	if (err)
		return err;
	for (j = 0; j < rss->indir_size; j++)
		if (rss->indir[j] == queue)
			return 0;
	return -RSSPICK_ENOQUEUE;
}

/* The slots of the table holding @queue: a malloc'd array of *n. */
static uint32_t *queue_slots(const struct rsspick_rss *rss, uint32_t queue,
			     uint32_t *n)
{
	uint32_t j, *slots;

	for (j = 0, *n = 0; j < rss->indir_size; j++)
		*n += rss->indir[j] == queue;
	slots = malloc(sizeof(*slots) * (*n ? *n : 1));
	for (j = 0, *n = 0; slots && j < rss->indir_size; j++)
		if (rss->indir[j] == queue)
			slots[(*n)++] = j;
	return slots;
}

/* The answer as the union of the cosets solving (M s)_low = j ^ h0. */
static int affine_cosets(const struct lowbits_sys *ls, uint32_t h0,
			 const uint32_t *slots, uint32_t n,
			 struct rsspick_set *set)
{
	uint32_t j, cap = n;
	uint16_t p;

	set->method = RSSPICK_AFFINE;
	set->rank = ls->rank;
	set->dim = ls->dim;
	memcpy(set->basis, ls->null, sizeof(set->basis));
	/* at most one coset per table slot, and at most 2^rank of them */
	if (ls->rank < 32 && cap > (1U << ls->rank))
		cap = 1U << ls->rank;
	set->offs = malloc(sizeof(*set->offs) * (cap ? cap : 1));
	if (!set->offs)
		return -RSSPICK_ENOMEM;
	/* distinct slots j have distinct low bits: the cosets are disjoint */
	for (j = 0; j < n && set->ncosets < cap; j++)
		if (lowbits_solve(ls, slots[j] ^ h0, &p))
			set->offs[set->ncosets++] = p;
	set->count = set->ncosets << ls->dim;
	return 0;
}

static int solve_affine(const struct rsspick_rss *rss,
			const struct port_model *pm, uint32_t queue,
			struct rsspick_set *set)
{
	struct lowbits_sys ls;
	uint32_t n, *slots = queue_slots(rss, queue, &n);
	int err;

	if (!slots)
		return -RSSPICK_ENOMEM;
	lowbits_sys_init(&ls, pm, __builtin_ctz(rss->indir_size));
	err = affine_cosets(&ls, pm->h0, slots, n, set);
	free(slots);
	return err;
}

/* Division-free h % d for 32-bit h and d (Lemire et al.). */
static inline uint32_t fastmod(uint32_t h, uint64_t magic, uint32_t d)
{
	uint64_t low = magic * h;

	return (uint32_t)(((unsigned __int128)low * d) >> 64);
}

static int solve_scan(const struct rsspick_rss *rss,
		      const struct port_model *pm, uint32_t queue,
		      struct rsspick_set *set)
{
	uint32_t S = rss->indir_size;
	unsigned int a = __builtin_ctz(S);
	uint64_t magic = UINT64_MAX / S + 1;
	uint32_t delta[NBITS];
	struct lowbits_sys ls;
	uint64_t *seen;
	uint32_t r, j, g;
	unsigned int i;

	lowbits_sys_init(&ls, pm, a);
	set->rank = ls.rank;
	set->dim = ls.dim;
	set->bm = calloc(RSSPICK_BITMAP_WORDS, sizeof(*set->bm));
	seen = calloc(((1U << a) + 63) / 64, sizeof(*seen));
	if (!set->bm || !seen) {
		free(seen);
		return -RSSPICK_ENOMEM;
	}
	/* residues mod 2^a of the slots holding the queue */
	for (j = 0; j < S; j++)
		if (rss->indir[j] == queue)
			seen[(j & ls.mask) / 64] |= 1ULL << (j & ls.mask) % 64;

	for (i = 0; i < ls.dim; i++)
		delta[i] = port_model_eval(pm, ls.null[i]) ^ pm->h0;

	for (r = 0; r <= ls.mask; r++) {
		uint16_t port;
		uint32_t h;

		if (!(seen[r / 64] & (1ULL << r % 64)))
			continue;
		if (!lowbits_solve(&ls, r ^ pm->h0, &port))
			continue;
		set->ncosets++;
		h = port_model_eval(pm, port);
		/* Gray-code walk: one XOR per port of the coset */
		for (g = 0; ; ) {
			if (rss->indir[fastmod(h, magic, S)] == queue) {
				set->bm[port / 64] |= 1ULL << port % 64;
				set->count++;
			}
			set->evals++;
			if (++g >> ls.dim)
				break;
			i = __builtin_ctz(g);
			port ^= ls.null[i];
			h ^= delta[i];
		}
	}
	free(seen);
	return 0;
}

int rsspick_solve(const struct rsspick_rss *rss,
		  const struct rsspick_tuple *t, uint32_t queue,
		  struct rsspick_set **out)
{
	struct rsspick_set *set;
	struct port_model pm;
	int err;

	if (!t || !out)
		return -RSSPICK_EINVAL;
	*out = NULL;
	err = check_query(rss, t, queue);
	if (err)
		return err;
	err = port_model_init(rss, t, &pm);
	if (err)
		return err;

	set = calloc(1, sizeof(*set));
	if (!set)
		return -RSSPICK_ENOMEM;
	if (is_pow2(rss->indir_size)) {
		err = solve_affine(rss, &pm, queue, set);
	} else {
		set->method = RSSPICK_SCAN;
		err = solve_scan(rss, &pm, queue, set);
	}
	if (err) {
		rsspick_set_free(set);
		return err;
	}
	*out = set;
	return 0;
}

/*
 * A plan holds what depends on the key, table and queue only.  The hash
 * of the addresses and dport (sport 0) is a XOR of per-input-byte tables,
 * one lookup per byte; with the low-bits system already eliminated and
 * the queue's slots listed, a new flow's answer is at most one echelon
 * solve per slot, and "a port" usually the first slot's coset.
 */
struct rsspick_plan {
	struct rsspick_rss rss;		/* own copies of key and table */
	int family;
	uint32_t queue;
	struct port_model pm;		/* col[] for the sport bits */
	int in_len;
	uint32_t tab[RSSPICK_MAX_INPUT][256];
	struct lowbits_sys ls;		/* the low a bits, S = 2^a * odd */
	struct rsspick_set shape;	/* their null space, as a set's */
	uint32_t delta[NBITS];		/* hash change of each null vector */
	uint64_t magic;			/* fastmod() by S */
	uint32_t nslots, *slots;	/* residues mod 2^a of the queue's slots */
};

int rsspick_plan_new(const struct rsspick_rss *rss, int family,
		     uint32_t queue, struct rsspick_plan **out)
{
	struct rsspick_tuple t0 = { .family = family };
	struct rsspick_plan *pl;
	uint32_t i, v, w[8];
	int err, b;

	if (!out)
		return -RSSPICK_EINVAL;
	*out = NULL;
	err = check_query(rss, &t0, queue);
	if (err)
		return err;
	pl = calloc(1, sizeof(*pl));
	if (!pl)
		return -RSSPICK_ENOMEM;
	pl->family = family;
	pl->queue = queue;
	pl->rss.key_len = rss->key_len;
	pl->rss.indir_size = rss->indir_size;
	pl->rss.key = malloc(rss->key_len);
	pl->rss.indir = malloc(sizeof(*rss->indir) * rss->indir_size);
	if (!pl->rss.key || !pl->rss.indir)
		goto nomem;
	memcpy((uint8_t *)pl->rss.key, rss->key, rss->key_len);
	memcpy((uint32_t *)pl->rss.indir, rss->indir,
	       sizeof(*rss->indir) * rss->indir_size);
	port_model_init(rss, &t0, &pl->pm);
	pl->in_len = 2 * addr_len(family) + 4;
	for (i = 0; i < (uint32_t)pl->in_len; i++) {
		for (b = 0; b < 8; b++)
			w[b] = key_window(rss->key, i * 8 + b);
		/* tab[i][v] = tab[i][v without its lowest bit] ^ that bit's window */
		for (v = 1; v < 256; v++)
			pl->tab[i][v] = pl->tab[i][v & (v - 1)] ^
					w[7 - __builtin_ctz(v)];
	}
	lowbits_sys_init(&pl->ls, &pl->pm, __builtin_ctz(rss->indir_size));
	pl->shape.dim = pl->ls.dim;
	memcpy(pl->shape.basis, pl->ls.null, sizeof(pl->shape.basis));
	for (i = 0; i < pl->ls.dim; i++)
		pl->delta[i] = port_model_eval(&pl->pm, pl->ls.null[i]) ^
			       pl->pm.h0;
	pl->magic = UINT64_MAX / rss->indir_size + 1;
	pl->slots = queue_slots(rss, queue, &pl->nslots);
	if (!pl->slots)
		goto nomem;
	if (!is_pow2(rss->indir_size)) {
		/*
		 * Distinct residues mod 2^a, the one with the most of the
		 * queue's slots first: a coset walk takes S / 2^a / (its
		 * slots) steps on average, so the port is found soonest there.
		 */
		uint32_t n = 0, j, *cnt = calloc(pl->nslots, sizeof(*cnt));

		if (!cnt)
			goto nomem;
		for (i = 0; i < pl->nslots; i++) {
			for (j = 0; j < n; j++)
				if (pl->slots[j] == (pl->slots[i] & pl->ls.mask))
					break;
			if (j == n)
				pl->slots[n++] = pl->slots[i] & pl->ls.mask;
			cnt[j]++;
		}
		for (i = 1; i < n; i++) {	/* insertion sort, stable */
			uint32_t sl = pl->slots[i], c = cnt[i];

			for (j = i; j > 0 && cnt[j - 1] < c; j--) {
				pl->slots[j] = pl->slots[j - 1];
				cnt[j] = cnt[j - 1];
			}
			pl->slots[j] = sl;
			cnt[j] = c;
		}
		free(cnt);
		pl->nslots = n;
	}
	*out = pl;
	return 0;
nomem:
	rsspick_plan_free(pl);
	return -RSSPICK_ENOMEM;
}

void rsspick_plan_free(struct rsspick_plan *pl)
{
	if (!pl)
		return;
	free((uint8_t *)pl->rss.key);
	free((uint32_t *)pl->rss.indir);
	free(pl->slots);
	free(pl);
}

/* Hash of flow @t with sport 0, by the byte tables. */
static int plan_h0(const struct rsspick_plan *pl,
		   const struct rsspick_tuple *t, uint32_t *h0)
{
	struct rsspick_tuple t0;
	uint8_t in[RSSPICK_MAX_INPUT];
	uint32_t h = 0;
	int i;

	if (!pl || !t)
		return -RSSPICK_EINVAL;
	if (t->family != pl->family)
		return -RSSPICK_EFAMILY;
	t0 = *t;
	t0.sport = 0;
	rsspick_tuple_input(&t0, true, in);
	for (i = 0; i < pl->in_len; i++)
		h ^= pl->tab[i][in[i]];
	*h0 = h;
	return 0;
}

int rsspick_plan_solve(const struct rsspick_plan *pl,
		       const struct rsspick_tuple *t, struct rsspick_set **out)
{
	struct port_model pm;
	struct rsspick_set *set;
	int err;

	if (!out)
		return -RSSPICK_EINVAL;
	*out = NULL;
	err = plan_h0(pl, t, &pm.h0);
	if (err)
		return err;
	set = calloc(1, sizeof(*set));
	if (!set)
		return -RSSPICK_ENOMEM;
	if (is_pow2(pl->rss.indir_size)) {
		err = affine_cosets(&pl->ls, pm.h0, pl->slots, pl->nslots, set);
	} else {
		memcpy(pm.col, pl->pm.col, sizeof(pm.col));
		set->method = RSSPICK_SCAN;
		err = solve_scan(&pl->rss, &pm, pl->queue, set);
	}
	if (err) {
		rsspick_set_free(set);
		return err;
	}
	*out = set;
	return 0;
}

static uint32_t coset_below(const struct rsspick_set *set, uint16_t off,
			    uint32_t x);
static uint32_t coset_kth(const struct rsspick_set *set, uint16_t off,
			  uint32_t k);

int rsspick_plan_port(const struct rsspick_plan *pl,
		      const struct rsspick_tuple *t, uint16_t lo, uint16_t hi,
		      uint16_t *port)
{
	uint32_t S, h0, h, i, k, g;
	uint16_t p;
	int err;

	if (!port || lo > hi)
		return -RSSPICK_EINVAL;
	err = plan_h0(pl, t, &h0);
	if (err)
		return err;
	S = pl->rss.indir_size;
	for (i = 0; i < pl->nslots; i++) {
		if (!lowbits_solve(&pl->ls, pl->slots[i] ^ h0, &p))
			continue;
		if (is_pow2(S)) {
			/*
			 * the coset's lowest port >= lo: usually slot 0's;
			 * p is the coset's lowest, so no search when p >= lo
			 */
			k = p >= lo ? 0 : coset_below(&pl->shape, p, lo);
			if (k >> pl->shape.dim)
				continue;
			k = coset_kth(&pl->shape, p, k);
			if (k > hi)
				continue;
			*port = k;
			return 0;
		}
		/* other sizes: walk the coset until a port lands on the queue */
		/* sport's two bytes, by the byte tables: no branch per bit */
		h = h0 ^ pl->tab[pl->in_len - 4][p >> 8] ^
		    pl->tab[pl->in_len - 3][p & 0xff];
		for (g = 0; ; ) {
			if (p >= lo && p <= hi &&
			    pl->rss.indir[fastmod(h, pl->magic, S)] == pl->queue) {
				*port = p;
				return 0;
			}
			if (++g >> pl->ls.dim)
				break;
			k = __builtin_ctz(g);
			p ^= pl->ls.null[k];
			h ^= pl->delta[k];
		}
	}
	return -RSSPICK_ENOENT;
}

void rsspick_set_free(struct rsspick_set *set)
{
	if (!set)
		return;
	free(set->offs);
	free(set->bm);
	free(set);
}

uint32_t rsspick_set_count(const struct rsspick_set *set)
{
	return set ? set->count : 0;
}

void rsspick_set_info(const struct rsspick_set *set,
		      struct rsspick_set_info *info)
{
	memset(info, 0, sizeof(*info));
	if (!set)
		return;
	info->method = set->method;
	info->rank = set->rank;
	info->dim = set->dim;
	info->cosets = set->ncosets;
	info->evals = set->evals;
}

/* k-th smallest element (k < 2^dim) of coset @off. */
static uint32_t coset_kth(const struct rsspick_set *set, uint16_t off,
			  uint32_t k)
{
	uint32_t v = off;
	unsigned int i;

	for (i = 0; k; i++, k >>= 1)
		if (k & 1)
			v ^= set->basis[i];
	return v;
}

/* Number of elements of coset @off below @x (x <= 65536). */
static uint32_t coset_below(const struct rsspick_set *set, uint16_t off,
			    uint32_t x)
{
	uint32_t lo = 0, hi = 1U << set->dim;

	/* coset_kth() is increasing in k: binary search */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (coset_kth(set, off, mid) < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Membership of @port in coset @off: reduce by the echelon basis. */
static bool coset_has(const struct rsspick_set *set, uint16_t off,
		      uint16_t port)
{
	uint16_t v = port ^ off;
	int i;

	for (i = (int)set->dim - 1; i >= 0; i--)
		if (v & (1U << top_bit(set->basis[i])))
			v ^= set->basis[i];
	return !v;
}

static bool bm_test(const uint64_t *bm, uint32_t p)
{
	return bm[p / 64] & (1ULL << p % 64);
}

bool rsspick_set_has(const struct rsspick_set *set, uint16_t port)
{
	uint32_t j;

	if (!set)
		return false;
	if (set->method == RSSPICK_SCAN)
		return bm_test(set->bm, port);
	for (j = 0; j < set->ncosets; j++)
		if (coset_has(set, set->offs[j], port))
			return true;
	return false;
}

uint32_t rsspick_set_count_range(const struct rsspick_set *set,
				 uint16_t lo, uint16_t hi)
{
	uint32_t n = 0, j, p;

	if (!set || lo > hi)
		return 0;
	if (set->method == RSSPICK_SCAN) {
		for (p = lo; p <= hi; p++)
			n += bm_test(set->bm, p);
		return n;
	}
	for (j = 0; j < set->ncosets; j++)
		n += coset_below(set, set->offs[j], (uint32_t)hi + 1) -
		     coset_below(set, set->offs[j], lo);
	return n;
}

struct heap_ent {
	uint32_t val;
	uint32_t k;
	uint32_t end;
	uint32_t coset;
};

static void heap_down(struct heap_ent *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct heap_ent tmp;

		if (l < n && h[l].val < h[m].val)
			m = l;
		if (r < n && h[r].val < h[m].val)
			m = r;
		if (m == i)
			return;
		tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

size_t rsspick_set_list(const struct rsspick_set *set, uint16_t lo,
			uint16_t hi, uint16_t *out, size_t max)
{
	struct heap_ent *heap;
	size_t n = 0, hn = 0, i;
	uint32_t j;

	if (!set || !out || lo > hi || !max)
		return 0;
	if (set->method == RSSPICK_SCAN) {
		uint32_t p = lo;

		while (p <= hi && n < max) {
			uint64_t w = set->bm[p / 64] >> (p % 64);

			if (!w) {
				p = (p | 63) + 1;
				continue;
			}
			p += __builtin_ctzll(w);
			if (p > hi)
				break;
			out[n++] = p++;
		}
		return n;
	}

	/* every port of the range: through the bitmap, about 1 ns a port */
	if (max >= rsspick_set_count_range(set, lo, hi)) {
		uint64_t *bm = malloc(RSSPICK_BITMAP_WORDS * sizeof(*bm));
		uint32_t p;

		if (!bm)
			return 0;
		rsspick_set_bitmap(set, bm);
		for (p = lo; p <= hi; p = (p | 63) + 1) {
			uint64_t w = bm[p / 64] >> (p % 64);

			for (; w; w &= w - 1) {
				uint32_t v = p + __builtin_ctzll(w);

				if (v > hi)
					break;
				out[n++] = v;
			}
		}
		free(bm);
		return n;
	}
	/* k-way merge of the cosets, each enumerated in increasing order */
	heap = malloc(sizeof(*heap) * (set->ncosets ? set->ncosets : 1));
	if (!heap)
		return 0;
	for (j = 0; j < set->ncosets; j++) {
		struct heap_ent e = { .coset = j };

		e.k = coset_below(set, set->offs[j], lo);
		e.end = coset_below(set, set->offs[j], (uint32_t)hi + 1);
		if (e.k >= e.end)
			continue;
		e.val = coset_kth(set, set->offs[j], e.k);
		heap[hn++] = e;
	}
	for (i = hn; i-- > 0; )
		heap_down(heap, hn, i);
	while (hn && n < max) {
		out[n++] = heap[0].val;
		if (++heap[0].k < heap[0].end)
			heap[0].val = coset_kth(set, set->offs[heap[0].coset],
						heap[0].k);
		else
			heap[0] = heap[--hn];
		heap_down(heap, hn, 0);
	}
	free(heap);
	return n;
}

static void consider(uint32_t cand, uint16_t pref, bool *found,
		     uint32_t *best)
{
	uint32_t d = cand > pref ? cand - pref : pref - cand;
	uint32_t bd = *best > pref ? *best - pref : pref - *best;

	if (!*found || d < bd || (d == bd && cand < *best)) {
		*best = cand;
		*found = true;
	}
}

int rsspick_set_nearest(const struct rsspick_set *set, uint16_t pref,
			uint16_t lo, uint16_t hi, uint16_t *port)
{
	bool found = false;
	uint32_t best = 0, j;

	if (!set || !port || lo > hi)
		return -RSSPICK_EINVAL;
	if (pref < lo)
		pref = lo;
	if (pref > hi)
		pref = hi;

	if (set->method == RSSPICK_SCAN) {
		uint32_t d;

		for (d = 0; d <= 65535; d++) {
			if (pref >= lo + d && bm_test(set->bm, pref - d)) {
				best = pref - d;
				found = true;
				break;
			}
			if ((uint32_t)pref + d <= hi &&
			    bm_test(set->bm, pref + d)) {
				best = pref + d;
				found = true;
				break;
			}
			if (pref < lo + d && (uint32_t)pref + d > hi)
				break;
		}
	} else {
		for (j = 0; j < set->ncosets; j++) {
			uint16_t off = set->offs[j];
			uint32_t k = coset_below(set, off, pref);
			uint32_t v;

			/* smallest element >= pref, largest < pref */
			if (k < (1U << set->dim)) {
				v = coset_kth(set, off, k);
				if (v <= hi)
					consider(v, pref, &found, &best);
			}
			if (k > 0) {
				v = coset_kth(set, off, k - 1);
				if (v >= lo)
					consider(v, pref, &found, &best);
			}
		}
	}
	if (!found)
		return -RSSPICK_ENOENT;
	*port = best;
	return 0;
}

void rsspick_set_bitmap(const struct rsspick_set *set,
			uint64_t bm[RSSPICK_BITMAP_WORDS])
{
	uint32_t j, k;

	memset(bm, 0, RSSPICK_BITMAP_WORDS * sizeof(*bm));
	if (!set)
		return;
	if (set->method == RSSPICK_SCAN) {
		memcpy(bm, set->bm, RSSPICK_BITMAP_WORDS * sizeof(*bm));
		return;
	}
	for (j = 0; j < set->ncosets; j++) {
		uint32_t v = set->offs[j];

		/* Gray-code walk over the coset */
		for (k = 0; ; ) {
			bm[v / 64] |= 1ULL << v % 64;
			if (++k >> set->dim)
				break;
			v ^= set->basis[__builtin_ctz(k)];
		}
	}
}

int rsspick_brute(const struct rsspick_rss *rss,
		  const struct rsspick_tuple *t, uint32_t queue,
		  uint64_t bm[RSSPICK_BITMAP_WORDS], uint32_t *count)
{
	struct rsspick_tuple ft;
	uint32_t p, h, n = 0;
	int err;

	if (!t || !bm)
		return -RSSPICK_EINVAL;
	err = check_query(rss, t, queue);
	if (err)
		return err;

	memset(bm, 0, RSSPICK_BITMAP_WORDS * sizeof(*bm));
	ft = *t;
	for (p = 0; p < RSSPICK_NPORTS; p++) {
		ft.sport = p;
		err = rsspick_hash(rss->key, rss->key_len, &ft, true, &h);
		if (err)
			return err;
		if (rss->indir[h % rss->indir_size] == queue) {
			bm[p / 64] |= 1ULL << p % 64;
			n++;
		}
	}
	if (count)
		*count = n;
	return 0;
}
