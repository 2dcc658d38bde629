// SPDX-License-Identifier: GPL-2.0
/*
 * rsssrc - read the receiver's RSS key, indirection table, hash function
 * and input transformation.  See rsssrc.h.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/ethtool.h>

#include "genl.h"
#include "rsspick.h"
#include "rsssrc.h"

/*
 * ethtool netlink constants, from include/uapi/linux/ethtool_netlink*.h.
 * Spelled out because distribution headers older than Linux 6.2 lack the
 * RSS message; the values are kernel ABI and never change.
 */
#define ETHNL_FAMILY_NAME	"ethtool"
#define ETHNL_FAMILY_VERSION	1
#define ETHNL_MSG_RSS_GET	38	/* also ETHTOOL_MSG_RSS_GET_REPLY */
#define ETHNL_A_HEADER_DEV_NAME	2
#define ETHNL_A_RSS_HEADER	1
#define ETHNL_A_RSS_CONTEXT	2
#define ETHNL_A_RSS_HFUNC	3
#define ETHNL_A_RSS_INDIR	4
#define ETHNL_A_RSS_HKEY	5
#define ETHNL_A_RSS_INPUT_XFRM	6

static __attribute__((format(printf, 3, 4)))
int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void rss_conf_free(struct rss_conf *c)
{
	free(c->key);
	free(c->indir);
	memset(c, 0, sizeof(*c));
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = tolower(ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

int rss_parse_key(const char *s, uint8_t **key, size_t *len,
		  char *err, size_t errlen)
{
	size_t n = 0, cap, slen;
	const char *p;
	uint8_t *k;
	bool colons;

	*key = NULL;
	*len = 0;
	while (isspace((unsigned char)*s))
		s++;
	slen = strlen(s);
	while (slen && isspace((unsigned char)s[slen - 1]))
		slen--;
	if (!slen)
		return fail(err, errlen, "malformed RSS key: empty");
	colons = memchr(s, ':', slen) != NULL;
	cap = slen / 2 + 1;
	if (cap > RSSPICK_MAX_KEY + 1)
		return fail(err, errlen, "malformed RSS key: longer than %u bytes",
			    RSSPICK_MAX_KEY);
	k = malloc(cap);
	if (!k)
		return fail(err, errlen, "out of memory");

	for (p = s; p < s + slen; ) {
		int hi, lo;

		if (colons) {
			/* one or two hex digits, then ':' or the end */
			hi = hexval(*p);
			if (hi < 0)
				goto bad_char;
			p++;
			if (p < s + slen && *p != ':') {
				lo = hexval(*p);
				if (lo < 0)
					goto bad_char;
				hi = hi * 16 + lo;
				p++;
			}
			if (p < s + slen) {
				if (*p != ':')
					goto bad_char;
				p++;
				if (p == s + slen) {
					free(k);
					return fail(err, errlen,
						    "malformed RSS key: trailing ':'");
				}
			}
		} else {
			hi = hexval(p[0]);
			if (hi < 0)
				goto bad_char;
			if (p + 1 == s + slen) {
				free(k);
				return fail(err, errlen,
					    "malformed RSS key: odd number of hex digits");
			}
			lo = hexval(p[1]);
			if (lo < 0) {
				p++;
				goto bad_char;
			}
			hi = hi * 16 + lo;
			p += 2;
		}
		k[n++] = hi;
	}
	if (n > RSSPICK_MAX_KEY) {
		free(k);
		return fail(err, errlen, "malformed RSS key: longer than %u bytes",
			    RSSPICK_MAX_KEY);
	}
	*key = k;
	*len = n;
	return 0;

bad_char:
	free(k);
	if (*p == ':')
		return fail(err, errlen,
			    "malformed RSS key: empty byte at offset %zu",
			    (size_t)(p - s));
	return fail(err, errlen,
		    "malformed RSS key: unexpected '%c' at offset %zu (want hex bytes like 6d:5a:56)",
		    isprint((unsigned char)*p) ? *p : '?', (size_t)(p - s));
}

static int parse_u32(const char *s, char **end, uint32_t *v)
{
	unsigned long long x;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtoull(s, end, 10);
	if (errno || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int rss_parse_indir(const char *s, uint32_t equal_size, uint32_t **indir,
		    uint32_t *size, char *err, size_t errlen)
{
	uint32_t n = 0, cap = 64, i, nq;
	uint32_t *t;
	char *end;

	*indir = NULL;
	*size = 0;
	while (isspace((unsigned char)*s))
		s++;
	if (!strncmp(s, "equal", 5) &&
	    (isspace((unsigned char)s[5]) || !s[5])) {
		s += 5;
		while (isspace((unsigned char)*s))
			s++;
		if (parse_u32(s, &end, &nq) || !nq)
			return fail(err, errlen,
				    "malformed indirection table: \"equal\" needs a queue count >= 1");
		while (isspace((unsigned char)*end))
			end++;
		if (*end)
			return fail(err, errlen,
				    "malformed indirection table: junk after \"equal %u\"",
				    nq);
		if (!equal_size)
			return fail(err, errlen,
				    "\"equal %u\" needs the table size: give --indir-size S (ethtool -x DEV shows it; mlx5 tables have at least 256 entries)",
				    nq);
		if (equal_size > RSSPICK_MAX_INDIR)
			return fail(err, errlen,
				    "indirection table size must be 1..%u",
				    RSSPICK_MAX_INDIR);
		t = malloc(sizeof(*t) * equal_size);
		if (!t)
			return fail(err, errlen, "out of memory");
		for (i = 0; i < equal_size; i++)
			t[i] = i % nq;
		*indir = t;
		*size = equal_size;
		return 0;
	}

	t = malloc(sizeof(*t) * cap);
	if (!t)
		return fail(err, errlen, "out of memory");
	while (*s) {
		uint32_t v;

		if (parse_u32(s, &end, &v)) {
			free(t);
			return fail(err, errlen,
				    "malformed indirection table: bad entry at \"%.16s\" (want queue numbers, or \"equal N\")",
				    s);
		}
		if (n == RSSPICK_MAX_INDIR) {
			free(t);
			return fail(err, errlen,
				    "indirection table has more than %u entries",
				    RSSPICK_MAX_INDIR);
		}
		if (n == cap) {
			uint32_t *nt = realloc(t, sizeof(*t) * cap * 2);

			if (!nt) {
				free(t);
				return fail(err, errlen, "out of memory");
			}
			t = nt;
			cap *= 2;
		}
		t[n++] = v;
		s = end;
		while (isspace((unsigned char)*s))
			s++;
		if (*s == ',') {
			s++;
			while (isspace((unsigned char)*s))
				s++;
			if (!*s) {
				free(t);
				return fail(err, errlen,
					    "malformed indirection table: trailing ','");
			}
		}
	}
	if (!n) {
		free(t);
		return fail(err, errlen, "indirection table is empty");
	}
	*indir = t;
	*size = n;
	return 0;
}

int rss_read_file(const char *path, char **text, char *err, size_t errlen)
{
	size_t n = 0, cap = 4096;
	FILE *f;
	char *b;

	*text = NULL;
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	b = malloc(cap);
	if (!b)
		goto nomem;
	for (;;) {
		size_t r;

		if (n + 1 >= cap) {
			char *nb;

			if (cap >= 64 * 1024 * 1024) {
				free(b);
				if (f != stdin)
					fclose(f);
				return fail(err, errlen, "%s: file too large",
					    path);
			}
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				goto nomem;
			}
			b = nb;
			cap *= 2;
		}
		r = fread(b + n, 1, cap - n - 1, f);
		n += r;
		if (!r)
			break;
	}
	if (ferror(f)) {
		free(b);
		if (f != stdin)
			fclose(f);
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	}
	if (f != stdin)
		fclose(f);
	b[n] = '\0';
	*text = b;
	return 0;

nomem:
	if (f != stdin)
		fclose(f);
	return fail(err, errlen, "out of memory");
}

enum ex_section { EX_NONE, EX_INDIR, EX_KEY, EX_HFUNC, EX_XFRM, EX_OTHER };

static bool unsupported(const char *l)
{
	while (isspace((unsigned char)*l))
		l++;
	return !strncmp(l, "Operation not supported", 23);
}

/* "    name: on" -> name and on/off.  Returns -1 if not of that shape. */
static int parse_onoff(const char *l, char *name, size_t nlen, bool *on)
{
	const char *c = strrchr(l, ':');
	size_t n;

	while (isspace((unsigned char)*l))
		l++;
	if (!c || c == l)
		return -1;
	n = c - l;
	if (n >= nlen)
		n = nlen - 1;
	memcpy(name, l, n);
	name[n] = '\0';
	c++;
	while (isspace((unsigned char)*c))
		c++;
	if (!strcmp(c, "on"))
		*on = true;
	else if (!strcmp(c, "off"))
		*on = false;
	else
		return -1;
	return 0;
}

static const char *const hfunc_names[] = { "toeplitz", "xor", "crc32" };

int rss_parse_ethtool_x(const char *text, struct rss_conf *c,
			char *err, size_t errlen)
{
	enum ex_section sec = EX_NONE;
	uint32_t cap = 0, lineno = 0;
	bool saw_table = false, saw_any_hfunc = false;
	const char *p = text;
	char line[4096];

	memset(c, 0, sizeof(*c));
	snprintf(c->source, sizeof(c->source), "ethtool -x");

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char name[32];
		bool on;

		lineno++;
		if (n >= sizeof(line)) {
			rss_conf_free(c);
			return fail(err, errlen,
				    "malformed ethtool -x output: line %u too long",
				    lineno);
		}
		memcpy(line, p, n);
		line[n] = '\0';
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		p = nl ? nl + 1 : p + n;

		if (!strncmp(line, "Cannot ", 7)) {
			rss_conf_free(c);
			return fail(err, errlen,
				    "ethtool -x failed when this was recorded: %.200s",
				    line);
		}
		if (!strncmp(line, "RX flow hash indirection table", 30)) {
			const char *w = strstr(line, " with ");
			const char *f = strstr(line, " for ");

			if (saw_table) {
				rss_conf_free(c);
				return fail(err, errlen,
					    "malformed ethtool -x output: a second table at line %u (one ethtool -x output per file)",
					    lineno);
			}
			sec = EX_INDIR;
			saw_table = true;
			if (w)
				c->rings = strtoul(w + 6, NULL, 10);
			if (f && w && w > f + 5)
				snprintf(c->ifname, sizeof(c->ifname), "%.*s",
					 (int)(w - f - 5), f + 5);
			continue;
		}
		if (!strncmp(line, "RSS hash key:", 13)) {
			sec = EX_KEY;
			continue;
		}
		if (!strncmp(line, "RSS hash function:", 18)) {
			sec = EX_HFUNC;
			continue;
		}
		if (!strncmp(line, "RSS input transformation:", 25)) {
			sec = EX_XFRM;
			c->xfrm_known = true;
			continue;
		}
		if (!line[0])
			continue;
		if (!isspace((unsigned char)line[0]) &&
		    strchr(line, ':') == line + strlen(line) - 1) {
			/* some other "Section:" header of a newer ethtool */
			if (!isdigit((unsigned char)line[0])) {
				sec = EX_OTHER;
				continue;
			}
		}

		switch (sec) {
		case EX_INDIR: {
			uint32_t start, v;
			char *e;
			const char *q = line;

			if (unsupported(line)) {
				sec = EX_NONE;
				break;
			}
			while (isspace((unsigned char)*q))
				q++;
			if (parse_u32(q, &e, &start) || *e != ':')
				goto bad_line;
			if (start != c->indir_size) {
				uint32_t want = c->indir_size;

				rss_conf_free(c);
				return fail(err, errlen,
					    "malformed ethtool -x output: line %u starts at slot %u, expected %u",
					    lineno, start, want);
			}
			q = e + 1;
			for (;;) {
				while (isspace((unsigned char)*q))
					q++;
				if (!*q)
					break;
				if (parse_u32(q, &e, &v))
					goto bad_line;
				q = e;
				if (c->indir_size == RSSPICK_MAX_INDIR) {
					rss_conf_free(c);
					return fail(err, errlen,
						    "indirection table too large");
				}
				if (c->indir_size == cap) {
					uint32_t nc = cap ? cap * 2 : 256;
					uint32_t *ni = realloc(c->indir,
							       sizeof(*ni) * nc);

					if (!ni) {
						rss_conf_free(c);
						return fail(err, errlen,
							    "out of memory");
					}
					c->indir = ni;
					cap = nc;
				}
				c->indir[c->indir_size++] = v;
			}
			break;
		}
		case EX_KEY:
			if (unsupported(line) || c->key) {
				sec = EX_NONE;
				break;
			}
			if (rss_parse_key(line, &c->key, &c->key_len,
					  err, errlen)) {
				rss_conf_free(c);
				return -1;
			}
			sec = EX_NONE;
			break;
		case EX_HFUNC:
			if (unsupported(line))
				break;
			if (parse_onoff(line, name, sizeof(name), &on))
				goto bad_line;
			saw_any_hfunc = true;
			if (on) {
				size_t i, l = strlen(c->hfunc_name);

				snprintf(c->hfunc_name + l,
					 sizeof(c->hfunc_name) - l, "%s%s",
					 l ? "+" : "", name);
				for (i = 0; i < 3; i++)
					if (!strcmp(name, hfunc_names[i]))
						c->hfunc |= 1U << i;
				if (!c->hfunc)
					c->hfunc = 1U << 31; /* unknown name */
			}
			c->hfunc_known = true;
			break;
		case EX_XFRM:
			if (unsupported(line)) {
				c->xfrm_known = false;
				break;
			}
			if (parse_onoff(line, name, sizeof(name), &on))
				goto bad_line;
			if (on) {
				c->input_xfrm = 1;
				snprintf(c->xfrm_name, sizeof(c->xfrm_name),
					 "%s", name);
			}
			break;
		case EX_NONE:
		case EX_OTHER:
			break;
		}
	}

	if (!saw_table) {
		rss_conf_free(c);
		return fail(err, errlen,
			    "malformed ethtool -x output: no \"RX flow hash indirection table\" line");
	}
	if (saw_any_hfunc && !c->hfunc)
		snprintf(c->hfunc_name, sizeof(c->hfunc_name), "none");
	for (uint32_t i = 0; c->rings && i < c->indir_size; i++) {
		if (c->indir[i] >= c->rings) {
			uint32_t q = c->indir[i], rings = c->rings;

			rss_conf_free(c);
			return fail(err, errlen,
				    "malformed ethtool -x output: slot %u holds queue %u, but there are %u RX rings",
				    i, q, rings);
		}
	}
	return 0;

bad_line:
	rss_conf_free(c);
	return fail(err, errlen, "malformed ethtool -x output at line %u: \"%.40s\"",
		    lineno, line);
}

/* ---- netlink ---- */

/* Copies of the table and key into @c, and names for hfunc and xfrm. */
static int conf_fill(struct rss_conf *c, const void *indir, uint32_t n,
		     const void *key, size_t klen)
{
	int i;

	c->indir = n ? malloc(n * 4) : NULL;
	c->key = klen ? malloc(klen) : NULL;
	if ((n && !c->indir) || (klen && !c->key))
		return -1;
	if (n)
		memcpy(c->indir, indir, n * 4);
	if (klen)
		memcpy(c->key, key, klen);
	c->indir_size = n;
	c->key_len = klen;
	for (i = 2; i >= 0; i--)
		if (c->hfunc & (1U << i))
			snprintf(c->hfunc_name, sizeof(c->hfunc_name), "%s",
				 hfunc_names[i]);
	if (!c->hfunc_name[0] && c->hfunc_known)
		snprintf(c->hfunc_name, sizeof(c->hfunc_name),
			 c->hfunc ? "unknown (0x%x)" : "none", c->hfunc);
	if (c->input_xfrm)
		snprintf(c->xfrm_name, sizeof(c->xfrm_name), "%s",
			 c->input_xfrm & 1 ? "symmetric-xor" :
			 c->input_xfrm & 2 ? "symmetric-or-xor" : "unknown");
	return 0;
}

#define BAD_ATTR	"malformed RSS_GET reply: bad attribute %u"

struct rss_reply {
	struct rss_conf *c;
	char *err;
	size_t errlen;
	bool got, bad;		/* a reply was parsed; it was malformed */
};

static int reply_bad(struct rss_reply *r, const char *fmt, unsigned int v)
{
	r->bad = true;
	fail(r->err, r->errlen, fmt, v);
	return MNL_CB_ERROR;
}

/* An optional u32 attribute: absent, or exactly 4 bytes. */
static bool get_u32(const struct nlattr *a, bool *known, uint32_t *v)
{
	if (a && mnl_attr_get_payload_len(a) == 4) {
		*known = true;
		*v = mnl_attr_get_u32(a);
	}
	return !a || *known;
}

/* The ETHTOOL_MSG_RSS_GET reply message into r->c. */
static int rss_reply_cb(const struct nlmsghdr *nh, void *arg)
{
	const struct genlmsghdr *gh = mnl_nlmsg_get_payload(nh);
	const struct nlattr *tb[ETHNL_A_RSS_INPUT_XFRM + 1] = { NULL };
	struct rss_reply *r = arg;
	struct rss_conf *c = r->c;
	const struct nlattr *a, *k;
	size_t n, klen;

	if (gh->cmd != ETHNL_MSG_RSS_GET)
		return reply_bad(r, "malformed RSS_GET reply: command %u", gh->cmd);
	genl_attrs(nh, tb, ETHNL_A_RSS_INPUT_XFRM);
	if (!get_u32(tb[ETHNL_A_RSS_HFUNC], &c->hfunc_known, &c->hfunc))
		return reply_bad(r, BAD_ATTR, ETHNL_A_RSS_HFUNC);
	if (!get_u32(tb[ETHNL_A_RSS_INPUT_XFRM], &c->xfrm_known,
		     &c->input_xfrm))
		return reply_bad(r, BAD_ATTR, ETHNL_A_RSS_INPUT_XFRM);
	a = tb[ETHNL_A_RSS_INDIR];
	n = a ? mnl_attr_get_payload_len(a) : 0;
	if (n % 4 || n / 4 > RSSPICK_MAX_INDIR)
		return reply_bad(r, BAD_ATTR, ETHNL_A_RSS_INDIR);
	k = tb[ETHNL_A_RSS_HKEY];
	klen = k ? mnl_attr_get_payload_len(k) : 0;
	if (klen > RSSPICK_MAX_KEY)
		return reply_bad(r, BAD_ATTR, ETHNL_A_RSS_HKEY);
	if (conf_fill(c, a ? mnl_attr_get_payload(a) : NULL, n / 4,
		      k ? mnl_attr_get_payload(k) : NULL, klen))
		return reply_bad(r, "out of memory", 0);
	snprintf(c->source, sizeof(c->source), "netlink");
	r->got = true;
	return MNL_CB_OK;
}

int rss_parse_nl_reply(const void *msg, size_t len, struct rss_conf *c,
		       char *err, size_t errlen)
{
	struct rss_reply r = { c, err, errlen, false, false };
	struct genl g = { 0 };
	int ret;

	memset(c, 0, sizeof(*c));
	ret = genl_run(msg, len, &g, rss_reply_cb, &r);
	if (!ret && r.got)
		return 0;
	rss_conf_free(c);
	if (r.bad)
		return -1;
	if (ret < 0)
		return fail(err, errlen, "RSS_GET failed: %s",
			    g.ext[0] ? g.ext : strerror(g.err));
	return fail(err, errlen, "malformed RSS_GET reply: truncated");
}

static int nl_read_rss(const char *ifname, uint32_t context,
		       struct rss_conf *c, int *nlerr, char *ext,
		       size_t extlen, char *err, size_t errlen)
{
	struct rss_reply r = { c, err, errlen, false, false };
	struct nlmsghdr *nh;
	struct nlattr *nest;
	struct genl g;
	uint16_t fam;
	int ret = -1;

	if (genl_open(&g, ETHNL_FAMILY_NAME, &fam))
		goto out;
	nh = genl_req(&g, fam, 0, ETHNL_MSG_RSS_GET, ETHNL_FAMILY_VERSION);
	nest = mnl_attr_nest_start(nh, ETHNL_A_RSS_HEADER);
	mnl_attr_put_strz(nh, ETHNL_A_HEADER_DEV_NAME, ifname);
	mnl_attr_nest_end(nh, nest);
	if (context)
		mnl_attr_put_u32(nh, ETHNL_A_RSS_CONTEXT, context);
	if (!genl_talk(&g, nh, rss_reply_cb, &r) && r.got)
		ret = 0;
	else if (r.bad)
		ret = -2;
out:
	*nlerr = ret ? (g.err ? g.err : EPROTO) : 0;
	snprintf(ext, extlen, "%s", ret ? g.ext : "");
	if (ret)
		rss_conf_free(c);
	genl_close(&g);
	return ret;
}

/* ---- ioctl ---- */

static int ioctl_read_rss(const char *ifname, uint32_t context,
			  struct rss_conf *c)
{
	struct ethtool_rxfh hdr = { .cmd = ETHTOOL_GRSSH };
	struct ethtool_rxfh *rx;
	size_t sz;
	int e;

	hdr.rss_context = context;
	e = ethtool_ioctl(ifname, &hdr);
	if (e)
		return e;
	if (hdr.indir_size > RSSPICK_MAX_INDIR ||
	    hdr.key_size > RSSPICK_MAX_KEY)
		return EPROTO;
	sz = sizeof(*rx) + hdr.indir_size * 4 + hdr.key_size;
	rx = calloc(1, sz);
	if (!rx)
		return ENOMEM;
	rx->cmd = ETHTOOL_GRSSH;
	rx->rss_context = context;
	rx->indir_size = hdr.indir_size;
	rx->key_size = hdr.key_size;
	e = ethtool_ioctl(ifname, rx);
	if (e) {
		free(rx);
		return e;
	}
	memset(c, 0, sizeof(*c));
	snprintf(c->source, sizeof(c->source), "ioctl");
	/* hfunc 0: the driver did not say, as a missing netlink HFUNC */
	c->hfunc_known = rx->hfunc != 0;
	c->hfunc = rx->hfunc;
	/*
	 * Linux >= 6.8 returns input_xfrm in the byte after hfunc: rsvd8[0]
	 * in older headers, input_xfrm (then rsvd8[0] is the next byte) in
	 * newer ones.  Read the byte, not a field name.
	 */
	c->input_xfrm = ((uint8_t *)rx)[offsetof(struct ethtool_rxfh, hfunc) + 1];
	if (conf_fill(c, rx->rss_config, rx->indir_size,
		      (uint8_t *)rx->rss_config + rx->indir_size * 4,
		      rx->key_size)) {
		free(rx);
		rss_conf_free(c);
		return ENOMEM;
	}
	c->xfrm_known = c->input_xfrm != 0;
	free(rx);
	return 0;
}

static void ioctl_read_fields(const char *ifname, uint32_t context,
			      int family, struct rss_conf *c)
{
	struct ethtool_rxnfc nfc;

	memset(&nfc, 0, sizeof(nfc));
	nfc.cmd = ETHTOOL_GRXFH;
	nfc.flow_type = family == AF_INET6 ? UDP_V6_FLOW : UDP_V4_FLOW;
	if (context) {
		nfc.flow_type |= FLOW_RSS;
		nfc.rss_context = context;
	}
	if (ethtool_ioctl(ifname, &nfc))
		return;
	c->fields_known = true;
	c->fields = (uint32_t)nfc.data;
}

int rss_read_dev(const char *ifname, uint32_t context, int family,
		 struct rss_conf *c, char *err, size_t errlen)
{
	char ext[256] = "", perr[256] = "";
	int nlerr = 0, ioerr, r;

	memset(c, 0, sizeof(*c));
	if (!ifname[0] || strlen(ifname) >= IFNAMSIZ)
		return fail(err, errlen, "%s: invalid interface name",
			    ifname);
	if (!if_nametoindex(ifname))
		return fail(err, errlen, "%s: no such network device",
			    ifname);

	r = nl_read_rss(ifname, context, c, &nlerr, ext, sizeof(ext),
			perr, sizeof(perr));
	if (r == -2)
		return fail(err, errlen, "%s: %s", ifname, perr);
	if (r) {
		ioerr = ioctl_read_rss(ifname, context, c);
		if (ioerr) {
			if (nlerr == EOPNOTSUPP && ioerr == EOPNOTSUPP &&
			    !context && !ext[0])
				return fail(err, errlen,
					    "%s: device does not report its RSS configuration (driver has no get_rxfh)",
					    ifname);
			return fail(err, errlen,
				    "%s: cannot read RSS configuration of context %u: %s (ioctl: %s)",
				    ifname, context,
				    ext[0] ? ext : strerror(nlerr),
				    strerror(ioerr));
		}
	}
	ioctl_read_fields(ifname, context, family, c);
	if (!c->indir_size)
		return fail(err, errlen,
			    "%s: device reports no RSS indirection table (single queue or RSS unsupported)",
			    ifname);
	return 0;
}

/* Append a clause to the one warning line "DEV: clause; clause". */
static __attribute__((format(printf, 4, 5)))
void warn_add(char *w, size_t len, const char *d, const char *fmt, ...)
{
	size_t n = strlen(w);
	va_list ap;

	if (n)
		snprintf(w + n, len - n, "; ");
	else
		snprintf(w, len, "%s: ", d);
	n = strlen(w);
	va_start(ap, fmt);
	vsnprintf(w + n, len - n, fmt, ap);
	va_end(ap);
}

int rss_check_conf(const struct rss_conf *c, const char *dev, int family,
		   char *err, size_t errlen, char *warn, size_t warnlen)
{
	const char *flow = family == AF_INET6 ? "udp6" : "udp4";
	const char *d = dev ? dev : "receiver";
	bool xtext = !strcmp(c->source, "ethtool -x");

	if (warn && warnlen)
		warn[0] = '\0';
	if (c->hfunc_known && c->hfunc != RSS_HFUNC_TOP)
		return fail(err, errlen,
			    "%s: RSS hash function is %s, not toeplitz (ethtool -X %s hfunc toeplitz)",
			    d, c->hfunc_name[0] ? c->hfunc_name : "unknown",
			    d);
	if (c->xfrm_known && c->input_xfrm)
		return fail(err, errlen,
			    "%s: RSS input transformation %s is on; ports are not hashed as sent (ethtool -X %s xfrm none)",
			    d, c->xfrm_name[0] ? c->xfrm_name : "unknown", d);
	if (c->fields_known && c->fields != RSS_RXH_SDFN)
		return fail(err, errlen,
			    "%s: rx-flow-hash %s %s (ethtool -N %s rx-flow-hash %s sdfn)",
			    d, flow, (c->fields & RSS_RXH_SDFN) != RSS_RXH_SDFN ?
			    "does not hash all of src/dst address and ports" :
			    "hashes more than src/dst address and ports",
			    d, flow);
	/* nothing to warn about for a configuration given by hand */
	if (!warn || !warnlen || !dev)
		return 0;
	if (!c->hfunc_known)
		warn_add(warn, warnlen, d,
			 "hash function not reported; assuming toeplitz");
	if (!c->xfrm_known && xtext)
		warn_add(warn, warnlen, d,
			 "input transformation not reported (ethtool before 6.8 omits it); assuming none");
	if (!c->fields_known && xtext)
		warn_add(warn, warnlen, d,
			 "ethtool -x does not show rx-flow-hash; assuming %s sdfn (check: ethtool -n %s rx-flow-hash %s)",
			 flow, d, flow);
	else if (!c->fields_known)
		warn_add(warn, warnlen, d,
			 "could not read rx-flow-hash %s; assuming sdfn", flow);
	return 0;
}
