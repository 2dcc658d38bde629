// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* KUnit tests for the flex parser devlink parameters (MNVDA register) */

#include <kunit/test.h>
#include <net/netlink.h>
#include "nv_param.h"

/* The expected register contents below are written out by hand from
 * mlxconfig's database (Debian mstflint 4.31.0+1-4,
 * usr/share/mstflint/mlxconfig_dbs/mlxconfig_host.db), not built with
 * the layouts under test. MNVDA is a 3 dword header followed by the item:
 * dword 0 holds access_mode (bits 23:22) and length (bits 8:0), dword 1 the
 * type class (bits 31:24) and the parameter index.
 */
#define MNVDA_DW		(3 + 64)
#define DATA			3

#define HDR_CONF_NEXT		0x00000014	/* 20 byte item */
#define HDR_CONF_DEFAULT	0x00800014	/* access_mode 2 */
#define HDR_CAP			0x00000010	/* 16 byte item */
#define TYPE_CONF		0x0000000e	/* class 0, NV_FLEX_PARSER_CONF 14 */
#define TYPE_CAP		0x0000000f	/* class 0, NV_FLEX_PARSER_CAP 15 */

/* NV_FLEX_PARSER_CONF dword 0: prog_parse_graph 0x0.31,
 * flex_parser_profile_enable 0x0.0 (8 bits); dword 2:
 * flex_ipv4_over_vxlan_port 0x8.0 (16 bits)
 */
#define CONF_GRAPH		0x80000000
#define CONF_PROFILE(p)		(p)
/* NV_FLEX_PARSER_CAP dword 0: flex_parser_profile_<N>_supported 0x0.(31 - N)
 * for N = 0..9, prog_parse_graph_supported 0x0.0
 */
#define CAP_PROFILE(n)		BIT(31 - (n))
#define CAP_GRAPH		BIT(0)

#define MSG(s)			KBUILD_MODNAME ": " s

static const u32 profile_id = MLX5_DEVLINK_PARAM_ID_FLEX_PARSER_PROFILE;
static const u32 graph_id = MLX5_DEVLINK_PARAM_ID_PROG_PARSE_GRAPH;

/* An NV_FLEX_PARSER_CONF item as the device returns it */
static void conf_reply(__be32 *reg, u32 dw0, u32 dw2)
{
	memset(reg, 0, MNVDA_DW * sizeof(*reg));
	reg[0] = cpu_to_be32(HDR_CONF_NEXT);
	reg[1] = cpu_to_be32(TYPE_CONF);
	reg[2] = cpu_to_be32(0x00005a5a);	/* crc16 */
	reg[DATA] = cpu_to_be32(dw0);
	reg[DATA + 2] = cpu_to_be32(dw2);
}

static void cap_reply(__be32 *reg, u32 dw0)
{
	memset(reg, 0, MNVDA_DW * sizeof(*reg));
	reg[0] = cpu_to_be32(HDR_CAP);
	reg[1] = cpu_to_be32(TYPE_CAP);
	reg[DATA] = cpu_to_be32(dw0);
}

static void expect_refused(struct kunit *test, const __be32 *cap, u32 id,
			   union devlink_param_value val, int err,
			   const char *msg)
{
	struct netlink_ext_ack extack = {};
	__be32 reg[MNVDA_DW], before[MNVDA_DW];

	/* graph off and a profile no case sets, so that any change shows */
	conf_reply(reg, CONF_PROFILE(0xaa), 4789);
	memcpy(before, reg, sizeof(reg));

	KUNIT_EXPECT_EQ(test, mlx5_nv_param_flex_parser_update(reg, cap, id,
							       &val, &extack),
			err);
	KUNIT_ASSERT_NOT_NULL(test, extack._msg);
	KUNIT_EXPECT_STREQ(test, extack._msg, msg);
	/* nothing of the item changed, so nothing is written */
	KUNIT_EXPECT_MEMEQ(test, reg, before, sizeof(reg));
}

static void expect_set(struct kunit *test, const __be32 *cap, u32 id,
		       union devlink_param_value val, u32 dw0, u32 new_dw0)
{
	struct netlink_ext_ack extack = {};
	__be32 reg[MNVDA_DW], want[MNVDA_DW];

	conf_reply(reg, dw0, 4789);
	conf_reply(want, new_dw0, 4789);

	KUNIT_EXPECT_EQ(test, mlx5_nv_param_flex_parser_update(reg, cap, id,
							       &val, &extack),
			0);
	KUNIT_EXPECT_NULL(test, extack._msg);
	KUNIT_EXPECT_MEMEQ(test, reg, want, sizeof(reg));
}

static void nv_flex_parser_read_request(struct kunit *test)
{
	__be32 reg[MNVDA_DW] = {}, want[MNVDA_DW] = {};

	want[0] = cpu_to_be32(HDR_CONF_NEXT);
	want[1] = cpu_to_be32(TYPE_CONF);
	mlx5_nv_param_flex_parser_conf_init(reg, 0);
	KUNIT_EXPECT_MEMEQ(test, reg, want, sizeof(reg));

	memset(reg, 0, sizeof(reg));
	want[0] = cpu_to_be32(HDR_CONF_DEFAULT);
	mlx5_nv_param_flex_parser_conf_init(reg, 2);
	KUNIT_EXPECT_MEMEQ(test, reg, want, sizeof(reg));

	memset(reg, 0, sizeof(reg));
	want[0] = cpu_to_be32(HDR_CAP);
	want[1] = cpu_to_be32(TYPE_CAP);
	mlx5_nv_param_flex_parser_cap_init(reg);
	KUNIT_EXPECT_MEMEQ(test, reg, want, sizeof(reg));
}

static void nv_flex_parser_get(struct kunit *test)
{
	static const struct {
		u32 dw0;
		u8 profile;
		bool graph;
	} cases[] = {
		{ CONF_GRAPH | CONF_PROFILE(4), 4, true },
		{ CONF_PROFILE(3), 3, false },
		{ CONF_GRAPH, 0, true },
		/* reserved bits set by the device are not part of either */
		{ 0x7fffff00 | CONF_PROFILE(7), 7, false },
		{ CONF_PROFILE(0xff), 0xff, false },
	};
	union devlink_param_value val;
	__be32 reg[MNVDA_DW];
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		conf_reply(reg, cases[i].dw0, 0xffff);

		memset(&val, 0xaa, sizeof(val));
		mlx5_nv_param_flex_parser_get(reg, profile_id, &val);
		KUNIT_EXPECT_EQ_MSG(test, val.vu8, cases[i].profile,
				    "dword 0x%08x", cases[i].dw0);

		memset(&val, 0xaa, sizeof(val));
		mlx5_nv_param_flex_parser_get(reg, graph_id, &val);
		KUNIT_EXPECT_EQ_MSG(test, val.vbool, cases[i].graph,
				    "dword 0x%08x", cases[i].dw0);
	}
}

static void nv_flex_parser_set_profile(struct kunit *test)
{
	union devlink_param_value val = { .vu8 = 4 };
	__be32 cap[MNVDA_DW];

	cap_reply(cap, CAP_PROFILE(0) | CAP_PROFILE(4));
	/* only the profile byte changes: graph bit, port and header stay */
	expect_set(test, cap, profile_id, val, CONF_GRAPH,
		   CONF_GRAPH | CONF_PROFILE(4));

	val.vu8 = 0;
	expect_set(test, cap, profile_id, val, CONF_PROFILE(4),
		   CONF_PROFILE(0));
}

static void nv_flex_parser_set_graph(struct kunit *test)
{
	union devlink_param_value val = { .vbool = true };
	__be32 cap[MNVDA_DW];

	cap_reply(cap, CAP_GRAPH);
	expect_set(test, cap, graph_id, val, CONF_PROFILE(4),
		   CONF_GRAPH | CONF_PROFILE(4));

	val.vbool = false;
	expect_set(test, cap, graph_id, val, CONF_GRAPH | CONF_PROFILE(4),
		   CONF_PROFILE(4));

	/* turning it off needs no capability */
	cap_reply(cap, 0);
	expect_set(test, cap, graph_id, val, CONF_GRAPH, 0);
}

/* Each profile is checked against its own bit of the capability */
static void nv_flex_parser_profile_cap(struct kunit *test)
{
	union devlink_param_value val;
	char msg[NETLINK_MAX_FMTMSG_LEN];
	__be32 cap[MNVDA_DW];
	int n, p;

	for (n = 0; n <= 9; n++) {
		cap_reply(cap, CAP_PROFILE(n) | CAP_GRAPH);
		for (p = 0; p <= 9; p++) {
			val.vu8 = p;
			if (p == n) {
				expect_set(test, cap, profile_id, val,
					   CONF_GRAPH, CONF_GRAPH | p);
				continue;
			}
			snprintf(msg, sizeof(msg),
				 MSG("Flex parser profile %d is not supported on this device"),
				 p);
			expect_refused(test, cap, profile_id, val, -EOPNOTSUPP,
				       msg);
		}
	}
}

static void nv_flex_parser_profile_range(struct kunit *test)
{
	union devlink_param_value val = { .vu8 = 10 };
	__be32 cap[MNVDA_DW];

	/* every bit but the one of prog_parse_graph_supported */
	cap_reply(cap, 0xfffffffe);
	expect_refused(test, cap, profile_id, val, -EINVAL,
		       MSG("Invalid flex parser profile 10, profiles are 0 to 9"));

	val.vu8 = 255;
	expect_refused(test, cap, profile_id, val, -EINVAL,
		       MSG("Invalid flex parser profile 255, profiles are 0 to 9"));
}

static void nv_flex_parser_graph_cap(struct kunit *test)
{
	union devlink_param_value val = { .vbool = true };
	__be32 cap[MNVDA_DW];

	/* every profile, but no programmable parse graph */
	cap_reply(cap, 0xffc00000);
	expect_refused(test, cap, graph_id, val, -EOPNOTSUPP,
		       MSG("Programmable parse graph is not supported on this device"));
}

static void nv_flex_parser_cap_read_failure(struct kunit *test)
{
	union devlink_param_value val = { .vu8 = 0 };

	expect_refused(test, NULL, profile_id, val, -EOPNOTSUPP,
		       MSG("Failed to read flex parser capability"));

	val.vbool = true;
	expect_refused(test, NULL, graph_id, val, -EOPNOTSUPP,
		       MSG("Failed to read flex parser capability"));

	val.vbool = false;
	expect_refused(test, NULL, graph_id, val, -EOPNOTSUPP,
		       MSG("Failed to read flex parser capability"));
}

static struct kunit_case nv_param_test_cases[] = {
	KUNIT_CASE(nv_flex_parser_read_request),
	KUNIT_CASE(nv_flex_parser_get),
	KUNIT_CASE(nv_flex_parser_set_profile),
	KUNIT_CASE(nv_flex_parser_set_graph),
	KUNIT_CASE(nv_flex_parser_profile_cap),
	KUNIT_CASE(nv_flex_parser_profile_range),
	KUNIT_CASE(nv_flex_parser_graph_cap),
	KUNIT_CASE(nv_flex_parser_cap_read_failure),
	{}
};

static struct kunit_suite nv_param_test_suite = {
	.name = "mlx5_nv_param",
	.test_cases = nv_param_test_cases,
};

kunit_test_suite(nv_param_test_suite);
