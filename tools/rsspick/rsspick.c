// SPDX-License-Identifier: GPL-2.0
/*
 * rsspick - the series' Toeplitz solver, net/core/toeplitz.c, compiled
 * here as it is (include/ holds the few kernel headers it needs; the
 * Makefile fails if it includes another), and what a CLI needs around it.
 *
 * The kernel file gives the hash and its input layout (toeplitz_flow_hash(),
 * toeplitz_input()), the elimination of the 16 source-port bits
 * (toeplitz_eliminate(), toeplitz_solve()) and the cosets of ports it
 * yields (toeplitz_coset_elem(), toeplitz_coset_ceil()); its comment has
 * the algebra.  Its toeplitz_sport() returns one port per call and refuses
 * tables whose size is not a power of two.  This file adds:
 *
 *  - the whole answer as a set, a bitmap of the ports of the cosets that
 *    reach a slot of the queue, for counts, lists and the nearest port;
 *  - tables of S = 2^a * q entries, q odd: the low a bits of the hash
 *    still select the slot modulo 2^a, so the same elimination keeps the
 *    cosets that can reach a slot of the queue, and each of their ports
 *    is checked with one XOR (a Gray-code walk) and a division-free
 *    modulo; 2^16 * |{j mod 2^a}| / 2^a ports at most, all when S is odd;
 *  - plans: what depends only on the key, table and queue, done once;
 *    a plan finds toeplitz_coset_ceil()'s port in one compare per null
 *    vector (plan_ceil()).
 */
#include "../../net/core/toeplitz.c"

#include <stdlib.h>

#include "rsspick.h"

#define NBITS	16		/* source port bits */

struct rsspick_set {
	enum rsspick_method method;
	uint32_t count;
	unsigned int dim;
	uint32_t ncosets;
	uint32_t evals;
	uint64_t *bm;		/* bit p set: port p is in the set */
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

/* The kernel's view: Toeplitz, @rss's input transformation, @l4: ports too */
static struct toeplitz_rss krss(const struct rsspick_rss *rss, bool l4)
{
	return (struct toeplitz_rss){
		.key = rss->key, .key_size = rss->key_len,
		.indir = rss->indir, .indir_size = rss->indir_size,
		.hfunc = ETH_RSS_HASH_TOP, .input_xfrm = rss->input_xfrm,
		.fields = TOEPLITZ_ADDRS | (l4 ? TOEPLITZ_PORTS : 0),
	};
}

_Static_assert(RSSPICK_XFRM_SYM_XOR == RXH_XFRM_SYM_XOR &&
	       RSSPICK_XFRM_SYM_OR_XOR == RXH_XFRM_SYM_OR_XOR,
	       "rsspick's input transformations are the UAPI's");

static struct toeplitz_flow kflow(const struct rsspick_tuple *t)
{
	return (struct toeplitz_flow){
		.family = t->family, .saddr = t->saddr, .daddr = t->daddr,
		.dport = cpu_to_be16(t->dport),
	};
}

/* toeplitz_flow_hash()'s errors as rsspick's */
static int kerr(int err)
{
	if (err == -EAFNOSUPPORT)
		return -RSSPICK_EFAMILY;
	if (err == -EINVAL)	/* its only one: key shorter than input + 4 */
		return -RSSPICK_EKEYLEN;
	return err ? -RSSPICK_EINVAL : 0;
}

static int addr_len(int family)
{
	if (family == AF_INET)
		return 4;
	if (family == AF_INET6)
		return 16;
	return -RSSPICK_EFAMILY;
}

static bool xfrm_ok(uint8_t xfrm)
{
	return !xfrm || xfrm == RSSPICK_XFRM_SYM_XOR ||
	       xfrm == RSSPICK_XFRM_SYM_OR_XOR;
}

int rsspick_flow_hash(const struct rsspick_rss *rss,
		      const struct rsspick_tuple *t, bool l4, uint32_t *hash)
{
	struct toeplitz_rss r;
	struct toeplitz_flow f;

	if (!rss || !rss->key || !t || !hash || !xfrm_ok(rss->input_xfrm))
		return -RSSPICK_EINVAL;
	if (addr_len(t->family) < 0)
		return -RSSPICK_EFAMILY;
	if (rss->key_len > RSSPICK_MAX_KEY)
		return -RSSPICK_EKEYLEN;
	r = krss(rss, l4);
	f = kflow(t);
	return kerr(toeplitz_flow_hash(&r, &f, cpu_to_be16(t->sport), hash,
				       NULL));
}

int rsspick_hash(const uint8_t *key, size_t key_len,
		 const struct rsspick_tuple *t, bool l4, uint32_t *hash)
{
	struct rsspick_rss rss = { .key = key, .key_len = key_len };

	return rsspick_flow_hash(&rss, t, l4, hash);
}

int rsspick_check(const struct rsspick_rss *rss, int family)
{
	int alen;

	if (!rss || !rss->key || !xfrm_ok(rss->input_xfrm))
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
	err = rsspick_flow_hash(rss, t, true, &h);
	if (err)
		return err;
	if (hash)
		*hash = h;
	*queue = rss->indir[h % rss->indir_size];
	return 0;
}

/* What the source port bits set in @s flip in the hash */
static u32 port_flips(const u32 *col, u32 s)
{
	u32 h = 0;
	int i;

	for (i = 0; i < NBITS; i++)
		if (s & BIT(i))
			h ^= col[i];
	return h;
}

/* The hash of @t with sport 0 and what each sport bit flips, as toeplitz_sport() */
static int port_model(const struct rsspick_rss *rss,
		      const struct rsspick_tuple *t, u32 *h0, u32 *col)
{
	struct toeplitz_rss r = krss(rss, true);
	struct toeplitz_flow f = kflow(t);
	int err, i;

	err = toeplitz_flow_hash(&r, &f, 0, h0, NULL);
	for (i = 0; !err && i < NBITS; i++) {
		err = toeplitz_flow_hash(&r, &f, cpu_to_be16(BIT(i)), &col[i],
					 NULL);
		col[i] ^= *h0;
	}
	return kerr(err);
}

/*
 * The low index bits the port can choose: all of them for a table of 2^m
 * entries, the low a for 2^a * q entries (q odd), eliminated by the kernel.
 */
struct lowbits {
	u32 mask;
	struct toeplitz_row rows[32];
	u16 basis[NBITS];
	int dim;
};

static void lowbits_init(struct lowbits *lb, const u32 *col, u32 size)
{
	memset(lb->rows, 0, sizeof(lb->rows));
	lb->mask = (size & -size) - 1;
	lb->dim = toeplitz_eliminate(col, lb->mask, lb->rows, lb->basis);
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

/* Division-free h % d for 32-bit h and d (Lemire et al.). */
static inline uint32_t fastmod(uint32_t h, uint64_t magic, uint32_t d)
{
	uint64_t low = magic * h;

	return (uint32_t)(((unsigned __int128)low * d) >> 64);
}

/*
 * Every port of the cosets whose low index bits reach a slot of @queue.
 * On a power-of-two table those bits are the slot, so all of a coset's
 * ports are in the set; on others each port is checked while walking the
 * coset in Gray-code order, one XOR and a division-free modulo per port.
 */
static int solve_walk(const uint32_t *indir, uint32_t S, u32 h0,
		      const u32 *col, const struct lowbits *lb,
		      uint32_t queue, struct rsspick_set *set)
{
	uint64_t magic = UINT64_MAX / S + 1, *seen;
	uint32_t r, j, g, delta[NBITS];
	bool pow2 = is_power_of_2(S);
	int i;

	set->method = pow2 ? RSSPICK_AFFINE : RSSPICK_SCAN;
	set->dim = lb->dim;
	set->bm = calloc(RSSPICK_BITMAP_WORDS, sizeof(*set->bm));
	seen = calloc(((uint64_t)lb->mask + 64) / 64, sizeof(*seen));
	if (!set->bm || !seen) {
		free(seen);
		return -RSSPICK_ENOMEM;
	}
	for (j = 0; j < S; j++)
		if (indir[j] == queue)
			seen[(j & lb->mask) / 64] |= 1ULL << (j & lb->mask) % 64;
	for (i = 0; i < lb->dim; i++)
		delta[i] = port_flips(col, lb->basis[i]);

	for (r = 0; r <= lb->mask; r++) {
		u16 port;
		u32 h;

		if (!(seen[r / 64] & (1ULL << r % 64)) ||
		    !toeplitz_solve(lb->rows, (r ^ h0) & lb->mask, &port))
			continue;
		set->ncosets++;
		h = h0 ^ port_flips(col, port);
		for (g = 0; ; ) {
			if (pow2 || indir[fastmod(h, magic, S)] == queue) {
				set->bm[port / 64] |= 1ULL << port % 64;
				set->count++;
			}
			set->evals += !pow2;
			if (++g >> lb->dim)
				break;
			i = __builtin_ctz(g);
			port ^= lb->basis[i];
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
	struct lowbits lb;
	u32 h0, col[NBITS];
	int err;

	if (!t || !out)
		return -RSSPICK_EINVAL;
	*out = NULL;
	err = check_query(rss, t, queue);
	if (!err)
		err = port_model(rss, t, &h0, col);
	if (err)
		return err;

	set = calloc(1, sizeof(*set));
	if (!set)
		return -RSSPICK_ENOMEM;
	lowbits_init(&lb, col, rss->indir_size);
	err = solve_walk(rss->indir, rss->indir_size, h0, col, &lb, queue, set);
	if (err) {
		rsspick_set_free(set);
		return err;
	}
	*out = set;
	return 0;
}

/*
 * A plan holds what depends on the key, table and queue only: the
 * elimination, the queue's slots, and the hash split into per-byte tables
 * made with toeplitz_hash(), so that a flow's hash with sport 0 is one
 * lookup per byte of the kernel's input layout.
 */
struct rsspick_plan {
	struct toeplitz_rss rss;	/* own copies of key and table */
	int family;
	uint32_t queue;
	u32 tab[TOEPLITZ_MAX_INPUT][256];
	u32 sport_tab[2][256];		/* what sport's high, low byte flip */
	struct lowbits lb;
	/*
	 * Every target solvable (rank = index bits, at most 16): then
	 * toeplitz_solve() is linear, and these hold its answers by byte.
	 */
	bool full;
	u16 solve_tab[2][256];
	u32 delta[NBITS];		/* what each null vector flips */
	u16 below[NBITS + 1];		/* below[i]: null vectors 0..i-1 XORed */
	uint64_t magic;			/* fastmod() by S */
	uint32_t nslots, *slots;	/* residues mod 2^a of the queue's slots */
};

int rsspick_plan_new(const struct rsspick_rss *rss, int family,
		     uint32_t queue, struct rsspick_plan **out)
{
	struct rsspick_tuple t0 = { .family = family };
	u8 in[TOEPLITZ_MAX_INPUT] = { 0 };
	struct rsspick_plan *pl;
	struct toeplitz_flow f;
	u32 h0, col[NBITS];
	int err, i, len, v;

	if (!out)
		return -RSSPICK_EINVAL;
	*out = NULL;
	err = check_query(rss, &t0, queue);
	if (!err && rss->input_xfrm == RSSPICK_XFRM_SYM_OR_XOR)
		err = -RSSPICK_EINVAL;	/* the port bits' flips depend on dport */
	if (!err)
		err = port_model(rss, &t0, &h0, col);
	if (err)
		return err;
	pl = calloc(1, sizeof(*pl));
	if (!pl)
		return -RSSPICK_ENOMEM;
	pl->family = family;
	pl->queue = queue;
	pl->rss = krss(rss, true);
	pl->rss.key = malloc(rss->key_len);
	pl->rss.indir = malloc(sizeof(*rss->indir) * rss->indir_size);
	if (!pl->rss.key || !pl->rss.indir)
		goto nomem;
	memcpy((u8 *)pl->rss.key, rss->key, rss->key_len);
	memcpy((u32 *)pl->rss.indir, rss->indir,
	       sizeof(*rss->indir) * rss->indir_size);

	f = kflow(&t0);
	len = toeplitz_input(&pl->rss, &f, 0, in, NULL);
	for (i = 0; i < len; i++) {
		for (v = 0; v < 256; v++) {
			in[i] = v;
			pl->tab[i][v] = toeplitz_hash(rss->key, rss->key_len,
						      in, i + 1);
		}
		in[i] = 0;
	}
	for (v = 0; v < 256; v++) {
		pl->sport_tab[0][v] = port_flips(col, v << 8);
		pl->sport_tab[1][v] = port_flips(col, v);
	}
	lowbits_init(&pl->lb, col, rss->indir_size);
	for (i = 0; i < pl->lb.dim; i++) {
		pl->delta[i] = port_flips(col, pl->lb.basis[i]);
		pl->below[i + 1] = pl->below[i] ^ pl->lb.basis[i];
	}
	pl->full = NBITS - pl->lb.dim == __builtin_popcount(pl->lb.mask);
	for (i = 0; pl->full && i < 2; i++)
		for (v = 0; v < 256 && !(v << 8 * i & ~pl->lb.mask); v++)
			toeplitz_solve(pl->lb.rows, v << 8 * i,
				       &pl->solve_tab[i][v]);
	pl->magic = UINT64_MAX / rss->indir_size + 1;
	pl->slots = queue_slots(rss, queue, &pl->nslots);
	if (!pl->slots)
		goto nomem;
	if (!is_power_of_2(rss->indir_size)) {
		/*
		 * Distinct residues mod 2^a, the one with the most of the
		 * queue's slots first: a coset walk takes S / 2^a / (its
		 * slots) steps on average, so the port is found soonest there.
		 */
		uint32_t n = 0, j, k, *cnt = calloc(pl->nslots, sizeof(*cnt));

		if (!cnt)
			goto nomem;
		for (k = 0; k < pl->nslots; k++) {
			for (j = 0; j < n; j++)
				if (pl->slots[j] == (pl->slots[k] & pl->lb.mask))
					break;
			if (j == n)
				pl->slots[n++] = pl->slots[k] & pl->lb.mask;
			cnt[j]++;
		}
		for (k = 1; k < n; k++) {	/* insertion sort, stable */
			uint32_t sl = pl->slots[k], c = cnt[k];

			for (j = k; j > 0 && cnt[j - 1] < c; j--) {
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
	free((u8 *)pl->rss.key);
	free((u32 *)pl->rss.indir);
	free(pl->slots);
	free(pl);
}

/* Hash of flow @t with sport 0: the kernel's input, by the byte tables */
static int plan_h0(const struct rsspick_plan *pl,
		   const struct rsspick_tuple *t, u32 *h0)
{
	u8 in[TOEPLITZ_MAX_INPUT];
	struct toeplitz_flow f;
	int i, len;

	if (!pl || !t)
		return -RSSPICK_EINVAL;
	if (t->family != pl->family)
		return -RSSPICK_EFAMILY;
	f = kflow(t);
	len = toeplitz_input(&pl->rss, &f, 0, in, NULL);
	for (*h0 = 0, i = 0; i < len; i++)
		*h0 ^= pl->tab[i][in[i]];
	return 0;
}

/*
 * toeplitz_coset_ceil(@p, basis, dim, @min) in dim compares: the coset's
 * k-th port rises with k (the basis is in reduced echelon form), so k is
 * decided from its top bit down; with the bits below i clear, the largest
 * port without bit i is p ^ below[i]. The kernel's binary search rebuilds
 * a port from the basis at each of its dim + 2 probes.
 */
static u32 plan_ceil(const struct rsspick_plan *pl, u16 p, u16 min)
{
	int i;

	if ((p ^ pl->below[pl->lb.dim]) < min)
		return TOEPLITZ_NO_PORT;
	for (i = pl->lb.dim - 1; i >= 0; i--)
		if ((p ^ pl->below[i]) < min)
			p ^= pl->lb.basis[i];
	return p;
}

static bool plan_solve(const struct rsspick_plan *pl, u32 slot, u32 h0,
		       u16 *p)
{
	u32 target = (slot ^ h0) & pl->lb.mask;

	if (!pl->full)
		return toeplitz_solve(pl->lb.rows, target, p);
	*p = pl->solve_tab[0][target & 0xff] ^ pl->solve_tab[1][target >> 8];
	return true;
}

int rsspick_plan_solve(const struct rsspick_plan *pl,
		       const struct rsspick_tuple *t, struct rsspick_set **out)
{
	struct rsspick_set *set;
	u32 h0, col[NBITS];
	int err, i;

	if (!out)
		return -RSSPICK_EINVAL;
	*out = NULL;
	err = plan_h0(pl, t, &h0);
	if (err)
		return err;
	set = calloc(1, sizeof(*set));
	if (!set)
		return -RSSPICK_ENOMEM;
	for (i = 0; i < NBITS; i++)
		col[i] = pl->sport_tab[i < 8][BIT(i % 8)];
	err = solve_walk(pl->rss.indir, pl->rss.indir_size, h0, col, &pl->lb,
			 pl->queue, set);
	if (err) {
		rsspick_set_free(set);
		return err;
	}
	*out = set;
	return 0;
}

int rsspick_plan_port(const struct rsspick_plan *pl,
		      const struct rsspick_tuple *t, uint16_t lo, uint16_t hi,
		      uint16_t *port)
{
	u32 S, h0, h, i, k, g;
	u16 p;
	int err;

	if (!port || lo > hi)
		return -RSSPICK_EINVAL;
	err = plan_h0(pl, t, &h0);
	if (err)
		return err;
	S = pl->rss.indir_size;
	for (i = 0; i < pl->nslots; i++) {
		if (!plan_solve(pl, pl->slots[i], h0, &p))
			continue;
		if (is_power_of_2(S)) {
			/* p, zero at every leading bit, is the coset's lowest */
			k = p >= lo ? p : plan_ceil(pl, p, lo);
			if (k > hi)
				continue;
			*port = k;
			return 0;
		}
		/*
		 * other sizes: walk the coset until a port lands on the queue,
		 * from its lowest port at or above lo, not its lowest port:
		 * the walk flips the top null vector only halfway through
		 */
		k = p >= lo ? p : plan_ceil(pl, p, lo);
		if (k > hi)
			continue;
		p = k;
		h = h0 ^ pl->sport_tab[0][p >> 8] ^ pl->sport_tab[1][p & 0xff];
		for (g = 0; ; ) {
			if (p >= lo && p <= hi &&
			    pl->rss.indir[fastmod(h, pl->magic, S)] == pl->queue) {
				*port = p;
				return 0;
			}
			if (++g >> pl->lb.dim)
				break;
			k = __builtin_ctz(g);
			p ^= pl->lb.basis[k];
			h ^= pl->delta[k];
		}
	}
	return -RSSPICK_ENOENT;
}

void rsspick_set_free(struct rsspick_set *set)
{
	if (!set)
		return;
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
	info->rank = NBITS - set->dim;
	info->dim = set->dim;
	info->cosets = set->ncosets;
	info->evals = set->evals;
}

static bool bm_test(const uint64_t *bm, uint32_t p)
{
	return bm[p / 64] & (1ULL << p % 64);
}

/* The first port of the set at or above @p, or 65536 */
static uint32_t bm_next(const uint64_t *bm, uint32_t p)
{
	uint64_t w;

	for (; p < RSSPICK_NPORTS; p = (p | 63) + 1) {
		w = bm[p / 64] >> (p % 64);
		if (w)
			return p + __builtin_ctzll(w);
	}
	return RSSPICK_NPORTS;
}

uint32_t rsspick_set_count_range(const struct rsspick_set *set,
				 uint16_t lo, uint16_t hi)
{
	uint32_t n = 0, p;

	if (!set || lo > hi)
		return 0;
	for (p = bm_next(set->bm, lo); p <= hi; p = bm_next(set->bm, p + 1))
		n++;
	return n;
}

size_t rsspick_set_list(const struct rsspick_set *set, uint16_t lo,
			uint16_t hi, uint16_t *out, size_t max)
{
	size_t n = 0;
	uint32_t p;

	if (!set || !out || lo > hi)
		return 0;
	for (p = bm_next(set->bm, lo); p <= hi && n < max;
	     p = bm_next(set->bm, p + 1))
		out[n++] = p;
	return n;
}

int rsspick_set_nearest(const struct rsspick_set *set, uint16_t pref,
			uint16_t lo, uint16_t hi, uint16_t *port)
{
	uint32_t d;

	if (!set || !port || lo > hi)
		return -RSSPICK_EINVAL;
	if (pref < lo)
		pref = lo;
	if (pref > hi)
		pref = hi;
	for (d = 0; pref >= lo + d || (uint32_t)pref + d <= hi; d++) {
		if (pref >= lo + d && bm_test(set->bm, pref - d)) {
			*port = pref - d;
			return 0;
		}
		if ((uint32_t)pref + d <= hi && bm_test(set->bm, pref + d)) {
			*port = pref + d;
			return 0;
		}
	}
	return -RSSPICK_ENOENT;
}

void rsspick_set_bitmap(const struct rsspick_set *set,
			uint64_t bm[RSSPICK_BITMAP_WORDS])
{
	memset(bm, 0, RSSPICK_BITMAP_WORDS * sizeof(*bm));
	if (set)
		memcpy(bm, set->bm, RSSPICK_BITMAP_WORDS * sizeof(*bm));
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
		err = rsspick_flow_hash(rss, &ft, true, &h);
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
