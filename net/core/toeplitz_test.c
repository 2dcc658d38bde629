// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the Toeplitz hash and of the source port solver.
 */

#include <kunit/test.h>
#include <linux/ethtool.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/netlink.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <net/toeplitz.h>

#define ADDRS	(RXH_IP_SRC | RXH_IP_DST)
#define SDFN	(ADDRS | RXH_L4_B_0_1 | RXH_L4_B_2_3)

/* The key of Microsoft's "Verifying the RSS Hash Calculation" */
static const u8 ms_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

struct ms_vector {
	const char *saddr;
	u16 sport;
	const char *daddr;
	u16 dport;
	u32 addrs_hash;
	u32 ports_hash;
};

/* Its IPv4 and IPv6 tables: the hash without and with the ports */
static const struct ms_vector ms_vectors[] = {
	{ "66.9.149.187", 2794, "161.142.100.80", 1766,
	  0x323e8fc2, 0x51ccc178 },
	{ "199.92.111.2", 14230, "65.69.140.83", 4739,
	  0xd718262a, 0xc626b0ea },
	{ "24.19.198.95", 12898, "12.22.207.184", 38024,
	  0xd2d0a5de, 0x5c2b394a },
	{ "38.27.205.30", 48228, "209.142.163.6", 2217,
	  0x82989176, 0xafc7327f },
	{ "153.39.163.191", 44251, "202.188.127.2", 1303,
	  0x5d1809c5, 0x10e828a2 },
	{ "3ffe:2501:200:1fff::7", 2794, "3ffe:2501:200:3::1", 1766,
	  0x2cc18cd5, 0x40207d3d },
	{ "3ffe:501:8::260:97ff:fe40:efab", 14230, "ff02::1", 4739,
	  0x0f0c461c, 0xdde51bbf },
	{ "3ffe:1900:4545:3:200:f8ff:fe21:67cf", 44251,
	  "fe80::200:f8ff:fe21:67cf", 38024,
	  0x4b61e985, 0x02d1feef },
};

struct test_flow {
	struct in6_addr saddr;
	struct in6_addr daddr;
	struct toeplitz_flow flow;
};

static void parse_flow(struct kunit *test, struct test_flow *f,
		       const char *saddr, const char *daddr, u16 dport)
{
	bool v6 = strchr(saddr, ':');
	int (*pton)(const char *src, int srclen, u8 *dst, int delim,
		    const char **end) = v6 ? in6_pton : in4_pton;

	memset(f, 0, sizeof(*f));
	KUNIT_ASSERT_EQ(test, pton(saddr, -1, f->saddr.s6_addr, -1, NULL), 1);
	KUNIT_ASSERT_EQ(test, pton(daddr, -1, f->daddr.s6_addr, -1, NULL), 1);
	f->flow.family = v6 ? AF_INET6 : AF_INET;
	f->flow.saddr = &f->saddr;
	f->flow.daddr = &f->daddr;
	f->flow.dport = cpu_to_be16(dport);
}

static void toeplitz_ms_vectors(struct kunit *test)
{
	struct toeplitz_rss rss = {
		.key = ms_key,
		.key_size = sizeof(ms_key),
		.hfunc = ETH_RSS_HASH_TOP,
	};
	struct netlink_ext_ack extack = {};
	struct test_flow f;
	unsigned int i;
	u32 hash;

	for (i = 0; i < ARRAY_SIZE(ms_vectors); i++) {
		const struct ms_vector *v = &ms_vectors[i];

		parse_flow(test, &f, v->saddr, v->daddr, v->dport);
		rss.fields = ADDRS;
		KUNIT_EXPECT_EQ(test, toeplitz_flow_hash(&rss, &f.flow,
							 cpu_to_be16(v->sport),
							 &hash, &extack), 0);
		KUNIT_EXPECT_EQ_MSG(test, hash, v->addrs_hash, "%s", v->saddr);
		rss.fields = SDFN;
		KUNIT_EXPECT_EQ(test, toeplitz_flow_hash(&rss, &f.flow,
							 cpu_to_be16(v->sport),
							 &hash, &extack), 0);
		KUNIT_EXPECT_EQ_MSG(test, hash, v->ports_hash, "%s", v->saddr);
	}
}

/* The symmetric transformations, against their definition */
static void toeplitz_symmetric(struct kunit *test)
{
	const struct ms_vector *v = &ms_vectors[0];
	struct toeplitz_rss rss = {
		.key = ms_key,
		.key_size = sizeof(ms_key),
		.hfunc = ETH_RSS_HASH_TOP,
		.fields = SDFN,
	};
	u32 hash, swapped, i;
	struct netlink_ext_ack extack = {};
	struct test_flow f;
	u8 in[12];

	parse_flow(test, &f, v->saddr, v->daddr, v->dport);

	rss.input_xfrm = RXH_XFRM_SYM_XOR;
	for (i = 0; i < 4; i++) {
		in[i] = f.saddr.s6_addr[i] ^ f.daddr.s6_addr[i];
		in[4 + i] = in[i];
	}
	in[8] = (v->sport ^ v->dport) >> 8;
	in[9] = v->sport ^ v->dport;
	in[10] = in[8];
	in[11] = in[9];
	KUNIT_ASSERT_EQ(test, toeplitz_flow_hash(&rss, &f.flow,
						 cpu_to_be16(v->sport), &hash,
						 &extack), 0);
	KUNIT_EXPECT_EQ(test, hash, toeplitz_hash(ms_key, 40, in, 12));

	/* The reverse direction hashes alike */
	parse_flow(test, &f, v->daddr, v->saddr, v->sport);
	KUNIT_ASSERT_EQ(test, toeplitz_flow_hash(&rss, &f.flow,
						 cpu_to_be16(v->dport),
						 &swapped, &extack), 0);
	KUNIT_EXPECT_EQ(test, swapped, hash);

	rss.input_xfrm = RXH_XFRM_SYM_OR_XOR;
	for (i = 0; i < 4; i++) {
		in[i] = f.saddr.s6_addr[i] | f.daddr.s6_addr[i];
		in[4 + i] = f.saddr.s6_addr[i] ^ f.daddr.s6_addr[i];
	}
	in[8] = (v->sport | v->dport) >> 8;
	in[9] = v->sport | v->dport;
	in[10] = (v->sport ^ v->dport) >> 8;
	in[11] = v->sport ^ v->dport;
	KUNIT_ASSERT_EQ(test, toeplitz_flow_hash(&rss, &f.flow,
						 cpu_to_be16(v->dport), &hash,
						 &extack), 0);
	KUNIT_EXPECT_EQ(test, hash, toeplitz_hash(ms_key, 40, in, 12));
}

static u32 queue_of(struct kunit *test, const struct toeplitz_rss *rss,
		    const struct toeplitz_flow *flow, u16 sport)
{
	struct netlink_ext_ack extack = {};
	u32 hash;

	KUNIT_ASSERT_EQ(test, toeplitz_flow_hash(rss, flow, cpu_to_be16(sport),
						 &hash, &extack), 0);
	return rss->indir[hash & (rss->indir_size - 1)];
}

/* The answer by hashing: the first port from @pref on, wrapping to @lo */
static int brute_sport(struct kunit *test, const struct toeplitz_rss *rss,
		       const struct toeplitz_flow *flow, u32 queue, u16 lo,
		       u16 hi, u16 pref)
{
	u32 n, width = hi - lo + 1;

	for (n = 0; n < width; n++) {
		u16 port = lo + (pref - lo + n) % width;

		if (queue_of(test, rss, flow, port) == queue)
			return port;
	}
	return -ERANGE;
}

/* Random keys, tables, flows and ranges: the solver against hashing */
static void toeplitz_sport_random(struct kunit *test)
{
	u32 *indir = kunit_kcalloc(test, 2048, sizeof(u32), GFP_KERNEL);
	struct toeplitz_rss rss = { .hfunc = ETH_RSS_HASH_TOP, .fields = SDFN };
	unsigned int c, found = 0, ranged = 0, absent = 0;
	static const u32 widths[] = { 1, 20, 1000, 65536 };
	struct rnd_state rnd;
	u8 key[52];

	KUNIT_ASSERT_NOT_NULL(test, indir);
	prandom_seed_state(&rnd, 20261130);
	rss.key = key;
	rss.indir = indir;

	for (c = 0; c < 96; c++) {
		u32 nqueues = 1 + prandom_u32_state(&rnd) % 16, queue, width, j;
		struct in6_addr saddr, daddr;
		struct toeplitz_flow flow = {
			.family = c & 1 ? AF_INET6 : AF_INET,
			.saddr = &saddr,
			.daddr = &daddr,
			.dport = cpu_to_be16(prandom_u32_state(&rnd)),
		};
		struct netlink_ext_ack extack = {};
		u16 lo, hi, pref, port = 0;
		int ret, want;

		prandom_bytes_state(&rnd, key, sizeof(key));
		/* a sparse key leaves the port bits fewer slots to reach */
		if (c % 8 == 3)
			memset(key + 4, 0, sizeof(key) - 4);
		rss.key_size = c & 1 ? 40 + c % 13 : 16 + c % 37;
		rss.input_xfrm = !(c & 2) ? 0 :
				 c & 8 ? RXH_XFRM_SYM_OR_XOR : RXH_XFRM_SYM_XOR;
		rss.indir_size = 1U << (prandom_u32_state(&rnd) % 12);
		for (j = 0; j < rss.indir_size; j++)
			indir[j] = c & 4 ? prandom_u32_state(&rnd) % nqueues :
					   j % nqueues;
		queue = prandom_u32_state(&rnd) % nqueues;
		prandom_bytes_state(&rnd, &saddr, sizeof(saddr));
		prandom_bytes_state(&rnd, &daddr, sizeof(daddr));

		width = widths[prandom_u32_state(&rnd) % ARRAY_SIZE(widths)];
		lo = width == 65536 ? 0 :
		     prandom_u32_state(&rnd) % (65536 - width + 1);
		hi = lo + width - 1;
		pref = lo + prandom_u32_state(&rnd) % width;

		ret = toeplitz_sport(&rss, &flow, queue, lo, hi, pref, &port,
				     &extack);
		for (j = 0; j < rss.indir_size && indir[j] != queue; j++)
			;
		if (j == rss.indir_size) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOENT, "case %u", c);
			absent++;
			continue;
		}
		want = brute_sport(test, &rss, &flow, queue, lo, hi, pref);
		if (want < 0) {
			KUNIT_EXPECT_EQ_MSG(test, ret, want, "case %u", c);
			ranged++;
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "case %u: %s", c,
				    extack._msg);
		KUNIT_EXPECT_EQ_MSG(test, port, want, "case %u", c);
		found++;
	}
	kunit_info(test, "%u ports found, %u ranges without one, %u queues absent",
		   found, ranged, absent);
	/* the cases must exercise every outcome */
	KUNIT_EXPECT_GT(test, found, 0);
	KUNIT_EXPECT_GT(test, ranged, 0);
	KUNIT_EXPECT_GT(test, absent, 0);
}

struct refusal {
	const char *name;
	u8 hfunc;
	u8 input_xfrm;
	u32 fields;
	unsigned short family;
	u32 key_size;
	u32 indir_size;
	u32 queue;
	u16 lo, hi, pref;
	int err;
	const char *why;
};

static const struct refusal refusals[] = {
	{ "xor hash", ETH_RSS_HASH_XOR, 0, SDFN, AF_INET, 40, 8, 1, 1, 65535, 1,
	  -EOPNOTSUPP, "the RSS hash function is not Toeplitz" },
	{ "crc32 hash", ETH_RSS_HASH_CRC32, 0, SDFN, AF_INET, 40, 8, 1, 1,
	  65535, 1, -EOPNOTSUPP, "the RSS hash function is not Toeplitz" },
	{ "no ports hashed", ETH_RSS_HASH_TOP, 0, ADDRS, AF_INET, 40, 8, 1, 1,
	  65535, 1, -EOPNOTSUPP,
	  "RSS does not hash the UDP ports (see rx-flow-hash udp4/udp6)" },
	{ "vlan hashed", ETH_RSS_HASH_TOP, 0, SDFN | RXH_VLAN, AF_INET, 40, 8,
	  1, 1, 65535, 1, -EOPNOTSUPP,
	  "the RSS hash fields are not the IP addresses, or the addresses and ports"
	},
	{ "source port only", ETH_RSS_HASH_TOP, 0, ADDRS | RXH_L4_B_0_1,
	  AF_INET6, 40, 8, 1, 1, 65535, 1, -EOPNOTSUPP,
	  "the RSS hash fields are not the IP addresses, or the addresses and ports"
	},
	{ "unknown transformation", ETH_RSS_HASH_TOP, 4, SDFN, AF_INET, 40, 8,
	  1, 1, 65535, 1, -EOPNOTSUPP, "unknown RSS input transformation" },
	{ "both symmetric transformations", ETH_RSS_HASH_TOP,
	  RXH_XFRM_SYM_XOR | RXH_XFRM_SYM_OR_XOR, SDFN, AF_INET, 40, 8, 1, 1,
	  65535, 1, -EOPNOTSUPP, "unknown RSS input transformation" },
	{ "family", ETH_RSS_HASH_TOP, 0, SDFN, AF_UNIX, 40, 8, 1, 1, 65535, 1,
	  -EAFNOSUPPORT, "the address family is neither IPv4 nor IPv6" },
	{ "short key v4", ETH_RSS_HASH_TOP, 0, SDFN, AF_INET, 15, 8, 1, 1,
	  65535, 1, -EINVAL,
	  "the RSS key is shorter than the hash input plus 4 bytes" },
	{ "short key v6", ETH_RSS_HASH_TOP, 0, SDFN, AF_INET6, 39, 8, 1, 1,
	  65535, 1, -EINVAL,
	  "the RSS key is shorter than the hash input plus 4 bytes" },
	{ "empty table", ETH_RSS_HASH_TOP, 0, SDFN, AF_INET, 40, 0, 1, 1, 65535,
	  1, -EINVAL, "the RSS indirection table is empty" },
	{ "table of 6", ETH_RSS_HASH_TOP, 0, SDFN, AF_INET, 40, 6, 1, 1, 65535,
	  1, -EOPNOTSUPP,
	  "the RSS indirection table size is not a power of two" },
	{ "empty range", ETH_RSS_HASH_TOP, 0, SDFN, AF_INET, 40, 8, 1, 2, 1, 2,
	  -EINVAL, "the preferred source port is outside the port range" },
	{ "preference below", ETH_RSS_HASH_TOP, 0, SDFN, AF_INET, 40, 8, 1, 2,
	  9, 1, -EINVAL,
	  "the preferred source port is outside the port range" },
	{ "preference above", ETH_RSS_HASH_TOP, 0, SDFN, AF_INET, 40, 8, 1, 2,
	  9, 10, -EINVAL,
	  "the preferred source port is outside the port range" },
	{ "queue not in table", ETH_RSS_HASH_TOP, 0, SDFN, AF_INET, 40, 8, 4, 1,
	  65535, 1, -ENOENT, "no RSS indirection table entry holds the queue" },
};

/* Every refusal, on a table of 8 slots for queues 0-3 */
static void toeplitz_sport_refusals(struct kunit *test)
{
	static const u32 indir[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	u8 zero_key[40] = {};
	struct test_flow f;
	unsigned int i;
	u16 port = 0;

	for (i = 0; i < ARRAY_SIZE(refusals); i++) {
		const struct refusal *r = &refusals[i];
		struct toeplitz_rss rss = {
			.key = ms_key,
			.key_size = r->key_size,
			.indir = indir,
			.indir_size = r->indir_size,
			.hfunc = r->hfunc,
			.input_xfrm = r->input_xfrm,
			.fields = r->fields,
		};
		struct netlink_ext_ack extack = {};

		parse_flow(test, &f,
			   r->family == AF_INET6 ? "2001:db8::1" : "192.0.2.1",
			   r->family == AF_INET6 ? "2001:db8::2" : "192.0.2.2",
			   1000);
		f.flow.family = r->family;
		KUNIT_EXPECT_EQ_MSG(test,
				    toeplitz_sport(&rss, &f.flow, r->queue,
						   r->lo, r->hi, r->pref, &port,
						   &extack),
				    r->err, "%s", r->name);
		KUNIT_EXPECT_STREQ_MSG(test, extack._msg, r->why, "%s",
				       r->name);
	}

	/* A zero key hashes everything to 0: only slot 0 can be reached */
	{
		struct toeplitz_rss rss = {
			.key = zero_key, .key_size = 40, .indir = indir,
			.indir_size = 8, .hfunc = ETH_RSS_HASH_TOP,
			.fields = SDFN,
		};
		struct netlink_ext_ack extack = {};

		parse_flow(test, &f, "192.0.2.1", "192.0.2.2", 1000);
		KUNIT_EXPECT_EQ(test,
				toeplitz_sport(&rss, &f.flow, 1, 0, 65535, 0,
					       &port, &extack),
				-ERANGE);
		KUNIT_EXPECT_STREQ(test, extack._msg,
				   "no source port in the range makes RSS select the queue");
		KUNIT_EXPECT_EQ(test,
				toeplitz_sport(&rss, &f.flow, 0, 0, 65535, 500,
					       &port, &extack),
				0);
		KUNIT_EXPECT_EQ(test, port, 500);
	}
}

/*
 * Regression guards: the expected ports are this solver's own answers for
 * the same key, table of N queues in turn, flow, queue and port range.  The
 * independent check is the Microsoft test vectors above.
 */
struct sport_case {
	const char *saddr;
	const char *daddr;
	u16 dport;
	u32 nqueues;
	u32 size;
	u32 queue;
	u16 lo, hi;
	int err;
	u16 port;
};

static const struct sport_case sport_cases[] = {
	{ "66.9.149.187", "161.142.100.80", 1000, 8, 128, 0, 1, 65535, 0, 9 },
	{ "66.9.149.187", "161.142.100.80", 1000, 8, 128, 5, 32768, 60999, 0,
	  32777 },
	{ "10.0.0.1", "10.0.0.2", 443, 8, 128, 2, 32768, 60999, 0, 32776 },
	{ "199.92.111.2", "65.69.140.83", 1000, 3, 64, 2, 1, 65535, 0, 4 },
	{ "24.19.198.95", "12.22.207.184", 4789, 16, 2048, 15, 49152, 65535, 0,
	  49161 },
	{ "192.0.2.1", "192.0.2.2", 1000, 1, 1, 0, 7, 7, 0, 7 },
	{ "192.0.2.1", "192.0.2.2", 1000, 64, 64, 63, 1000, 1003, -ERANGE, 0 },
	{ "3ffe:2501:200:1fff::7", "3ffe:2501:200:3::1", 1000, 8, 128, 7, 1,
	  65535, 0, 7 },
	{ "3ffe:501:8::260:97ff:fe40:efab", "ff02::1", 1000, 4, 256, 1, 32768,
	  60999, 0, 32768 },
	{ "2001:db8::1", "2001:db8::2", 1000, 32, 1024, 17, 1024, 65535, 0,
	  1037 },
	{ "2001:db8::1", "2001:db8::2", 1000, 128, 128, 100, 60000, 60010,
	  -ERANGE, 0 },
	{ "fe80::200:f8ff:fe21:67cf", "3ffe:1900:4545:3:200:f8ff:fe21:67cf",
	  1000, 6, 512, 5, 32768, 60999, 0, 32770 },
};

static void toeplitz_sport_regressions(struct kunit *test)
{
	u32 *indir = kunit_kcalloc(test, 2048, sizeof(u32), GFP_KERNEL);
	struct toeplitz_rss rss = {
		.key = ms_key, .key_size = sizeof(ms_key), .indir = indir,
		.hfunc = ETH_RSS_HASH_TOP, .fields = SDFN,
	};
	unsigned int i, j;

	KUNIT_ASSERT_NOT_NULL(test, indir);
	for (i = 0; i < ARRAY_SIZE(sport_cases); i++) {
		const struct sport_case *x = &sport_cases[i];
		struct netlink_ext_ack extack = {};
		struct test_flow f;
		u16 port = 0;
		int ret;

		rss.indir_size = x->size;
		for (j = 0; j < x->size; j++)
			indir[j] = j % x->nqueues;
		parse_flow(test, &f, x->saddr, x->daddr, x->dport);
		ret = toeplitz_sport(&rss, &f.flow, x->queue, x->lo, x->hi,
				     x->lo, &port, &extack);
		KUNIT_EXPECT_EQ_MSG(test, ret, x->err, "case %u: %s", i,
				    extack._msg);
		if (!ret) {
			KUNIT_EXPECT_EQ_MSG(test, port, x->port, "case %u", i);
			KUNIT_EXPECT_EQ(test,
					queue_of(test, &rss, &f.flow, port),
					x->queue);
		}
	}
}

static struct kunit_case toeplitz_cases[] = {
	KUNIT_CASE(toeplitz_ms_vectors),
	KUNIT_CASE(toeplitz_symmetric),
	KUNIT_CASE(toeplitz_sport_refusals),
	KUNIT_CASE(toeplitz_sport_regressions),
	KUNIT_CASE_SLOW(toeplitz_sport_random),
	{}
};

static struct kunit_suite toeplitz_suite = {
	.name = "net_toeplitz",
	.test_cases = toeplitz_cases,
};

kunit_test_suite(toeplitz_suite);

MODULE_DESCRIPTION("KUnit tests of the Toeplitz RSS hash and source port solver");
MODULE_LICENSE("GPL");
