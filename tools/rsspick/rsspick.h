/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rsspick - choose UDP source ports that land on a chosen RSS queue.
 *
 * The hash and the solver are the series' net/core/toeplitz.c, compiled into
 * the library as is; this API answers with the whole set of source ports
 * whose hash selects a target queue (counts, lists, the nearest port),
 * takes tables of any size, and plans many flows of one configuration.
 */
#ifndef RSSPICK_H
#define RSSPICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RSSPICK_NPORTS		65536U
#define RSSPICK_BITMAP_WORDS	(RSSPICK_NPORTS / 64)
/* Largest indirection table accepted (real ones are far smaller). */
#define RSSPICK_MAX_INDIR	(1U << 20)
/* Largest key accepted; real NICs use 40 or 52 bytes. */
#define RSSPICK_MAX_KEY		4096U

/* Error codes; functions return them negated (-RSSPICK_EKEYLEN, ...). */
enum rsspick_err {
	RSSPICK_OK = 0,
	RSSPICK_EKEYLEN,	/* key shorter than input + 4 bytes, or huge */
	RSSPICK_EINDIR,		/* indirection table empty or too large */
	RSSPICK_ENOQUEUE,	/* target queue does not appear in the table */
	RSSPICK_EFAMILY,	/* address family is not AF_INET/AF_INET6 */
	RSSPICK_EINVAL,		/* NULL pointer, empty port range, ... */
	RSSPICK_ENOMEM,
	RSSPICK_ENOENT,		/* valid query, but no port satisfies it */
	RSSPICK_ERR_MAX,
};

const char *rsspick_strerror(int err);

/* Flow as the receiver sees it: saddr/sport are the sender's. */
struct rsspick_tuple {
	int family;		/* AF_INET or AF_INET6 */
	uint8_t saddr[16];	/* network byte order; IPv4 uses bytes 0-3 */
	uint8_t daddr[16];
	uint16_t sport;		/* host byte order */
	uint16_t dport;		/* host byte order */
};

/* Receiver RSS configuration: queue = indir[hash % indir_size]. */
struct rsspick_rss {
	const uint8_t *key;
	size_t key_len;
	const uint32_t *indir;
	uint32_t indir_size;
	uint8_t input_xfrm;	/* 0 or one RSSPICK_XFRM_*: the input transformation */
};

/*
 * Input transformations, UAPI <linux/ethtool.h>'s RXH_XFRM_SYM_*: each
 * source field of the hash input (address, port) becomes src ^ dst
 * (symmetric-xor) or src | dst (symmetric-or-xor), each destination field
 * src ^ dst.  The hash and the solver take either; both at once, or
 * another bit, is RSSPICK_EINVAL.
 */
#define RSSPICK_XFRM_SYM_XOR	(1U << 0)
#define RSSPICK_XFRM_SYM_OR_XOR	(1U << 1)

/*
 * The series' toeplitz_hash() (net/core/toeplitz.c, built into the
 * library): the hash of @len bytes; key bits past @key_size count as zero.
 */
uint32_t toeplitz_hash(const uint8_t *key, uint32_t key_size,
		       const uint8_t *data, uint32_t len);

/* Hash of the 2-tuple (@l4 false) or 4-tuple (@l4 true): toeplitz_flow_hash(). */
int rsspick_hash(const uint8_t *key, size_t key_len,
		 const struct rsspick_tuple *t, bool l4, uint32_t *hash);

/* As rsspick_hash(), with @rss's key and input transformation. */
int rsspick_flow_hash(const struct rsspick_rss *rss,
		      const struct rsspick_tuple *t, bool l4, uint32_t *hash);

/* 4-tuple hash and the queue it selects.  @hash may be NULL. */
int rsspick_queue(const struct rsspick_rss *rss,
		  const struct rsspick_tuple *t, uint32_t *hash,
		  uint32_t *queue);

/* Validate key length for @family and the table.  0 or negative error. */
int rsspick_check(const struct rsspick_rss *rss, int family);

/* Set of source ports, the answer of rsspick_solve(): a bitmap. */
struct rsspick_set;

enum rsspick_method {
	RSSPICK_AFFINE,		/* power-of-two table: union of cosets */
	RSSPICK_SCAN,		/* other sizes: each port of the cosets checked */
};

/*
 * Every source port in 0..65535 whose 4-tuple hash (other fields from
 * @t, t->sport ignored) selects @queue.  On success *@out owns a set to
 * release with rsspick_set_free().  The set may be empty (count 0), e.g.
 * when the key makes the port bits reach fewer table slots.
 * Returns 0, -RSSPICK_ENOQUEUE if @queue is not in the table, or another
 * negative error code.
 */
int rsspick_solve(const struct rsspick_rss *rss,
		  const struct rsspick_tuple *t, uint32_t queue,
		  struct rsspick_set **out);
void rsspick_set_free(struct rsspick_set *set);

uint32_t rsspick_set_count(const struct rsspick_set *set);
/* Number of ports of the set in [lo, hi]. */
uint32_t rsspick_set_count_range(const struct rsspick_set *set,
				 uint16_t lo, uint16_t hi);
/*
 * Store up to @max ports of the set within [lo, hi] into @out, ascending.
 * Returns how many were stored.
 */
size_t rsspick_set_list(const struct rsspick_set *set, uint16_t lo,
			uint16_t hi, uint16_t *out, size_t max);
/*
 * Port of the set within [lo, hi] nearest to @pref (the lower on a tie).
 * Returns 0, or -RSSPICK_ENOENT if the range holds none.
 */
int rsspick_set_nearest(const struct rsspick_set *set, uint16_t pref,
			uint16_t lo, uint16_t hi, uint16_t *port);
/* Fill a 65536-bit bitmap (bit p set = port p in the set). */
void rsspick_set_bitmap(const struct rsspick_set *set,
			uint64_t bm[RSSPICK_BITMAP_WORDS]);

/*
 * Precompute once, then answer many flows.  A plan holds what depends only
 * on the key, the table and the queue (the map from source-port bits to
 * table index bits, eliminated once; the slots holding the queue; the
 * hash split into per-byte tables).  For a power-of-two table, a new flow
 * then costs one table lookup per input byte and a small echelon solve:
 * O(1), independent of the 65536 ports.  For other sizes the whole set
 * still takes a scan; one port walks first the coset of the index residue
 * (mod 2^a) that holds most of the queue's slots, an expected
 * S / 2^a / (those slots) steps of one XOR each.
 * rsspick_plan_new() copies the key and table; errors as rsspick_solve().
 * With symmetric-or-xor what a source port bit flips depends on the
 * flow's destination port, so no plan serves all flows: RSSPICK_EINVAL
 * (rsspick_solve() takes it).
 */
struct rsspick_plan;
int rsspick_plan_new(const struct rsspick_rss *rss, int family,
		     uint32_t queue, struct rsspick_plan **out);
void rsspick_plan_free(struct rsspick_plan *plan);
/* As rsspick_solve() for flow @t (t->sport ignored; family as planned). */
int rsspick_plan_solve(const struct rsspick_plan *plan,
		       const struct rsspick_tuple *t, struct rsspick_set **out);
/*
 * One source port in [lo, hi] for flow @t, not necessarily the lowest:
 * for power-of-two tables the lowest of the first queue slot's coset
 * that meets the range, for others the first hit of a coset walk.
 * Returns 0, or -RSSPICK_ENOENT if the range holds none.
 */
int rsspick_plan_port(const struct rsspick_plan *plan,
		      const struct rsspick_tuple *t, uint16_t lo, uint16_t hi,
		      uint16_t *port);

/* Introspection, for documentation, tests and the benchmark. */
struct rsspick_set_info {
	enum rsspick_method method;
	unsigned int rank;	/* rank of the port->index-bits map */
	unsigned int dim;	/* null-space dimension, 16 - rank */
	uint32_t cosets;	/* cosets of the null space visited */
	uint32_t evals;		/* hashes evaluated (RSSPICK_SCAN only) */
};
void rsspick_set_info(const struct rsspick_set *set,
		      struct rsspick_set_info *info);

/*
 * Reference brute force: hash all 65536 ports from scratch and set the
 * bits of those landing on @queue.  *@count gets the number of ports.
 */
int rsspick_brute(const struct rsspick_rss *rss,
		  const struct rsspick_tuple *t, uint32_t queue,
		  uint64_t bm[RSSPICK_BITMAP_WORDS], uint32_t *count);

#endif /* RSSPICK_H */
