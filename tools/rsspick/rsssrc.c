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
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "rsspick.h"
#include "rsssrc.h"


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
	return !isxdigit(ch) ? -1 : isdigit(ch) ? ch - '0' : tolower(ch) - 'a' + 10;
}

int rss_parse_key(const char *s, uint8_t **key, size_t *len,
		  char *err, size_t errlen)
{
	const char *p, *end;
	size_t n = 0;
	bool colons;
	uint8_t *k;

	*key = NULL;
	*len = 0;
	while (isspace((unsigned char)*s))
		s++;
	for (end = s + strlen(s); end > s && isspace((unsigned char)end[-1]); end--)
		;
	if (end == s)
		return fail(err, errlen, "malformed RSS key: empty");
	if ((end - s) / 2 > RSSPICK_MAX_KEY)
		return fail(err, errlen, "malformed RSS key: longer than %u bytes",
			    RSSPICK_MAX_KEY);
	colons = memchr(s, ':', end - s) != NULL;
	k = malloc((end - s) / 2 + 1);
	if (!k)
		return fail(err, errlen, "out of memory");
	/* each byte two hex digits; with colons one or two, then ':' or the end */
	for (p = s; p < end; ) {
		int d = 0, v = 0;

		while (d < 2 && p + d < end && hexval((unsigned char)p[d]) >= 0)
			v = v * 16 + hexval((unsigned char)p[d++]);
		p += d;
		if (!colons && d == 1 && p == end) {
			free(k);
			return fail(err, errlen, "malformed RSS key: odd number of hex digits");
		}
		if (!d || (!colons && d == 1) || (colons && p < end && *p != ':')) {
			free(k);
			if (*p == ':')
				return fail(err, errlen, "malformed RSS key: empty byte at offset %zu",
					    (size_t)(p - s));
			return fail(err, errlen,
				    "malformed RSS key: unexpected '%c' at offset %zu (want hex bytes like 6d:5a:56)",
				    isprint((unsigned char)*p) ? *p : '?', (size_t)(p - s));
		}
		if (colons && p < end && ++p == end) {
			free(k);
			return fail(err, errlen, "malformed RSS key: trailing ':'");
		}
		k[n++] = v;
	}
	*key = k;
	*len = n;
	return 0;
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
	uint32_t n = 0, i, nq;
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

	/* one entry per two characters at most: "0 1", "0,1" */
	t = malloc(sizeof(*t) * (strlen(s) / 2 + 1));
	if (!t)
		return fail(err, errlen, "out of memory");
	while (*s) {
		if (parse_u32(s, &end, &t[n])) {
			free(t);
			return fail(err, errlen,
				    "malformed indirection table: bad entry at \"%.16s\" (want queue numbers, or \"equal N\")",
				    s);
		}
		if (++n > RSSPICK_MAX_INDIR) {
			free(t);
			return fail(err, errlen,
				    "indirection table has more than %u entries",
				    RSSPICK_MAX_INDIR);
		}
		for (s = end; isspace((unsigned char)*s); s++)
			;
		if (*s == ',') {
			for (s++; isspace((unsigned char)*s); s++)
				;
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
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t cap = 0;
	ssize_t n;

	*text = NULL;
	if (!f)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	/* the whole file: a key file or ethtool -x text has no NUL byte */
	n = getdelim(text, &cap, '\0', f);
	if (n < 0 && !ferror(f)) {	/* an empty file */
		free(*text);
		*text = strdup("");
		n = 0;
	}
	if (f != stdin)
		fclose(f);
	if (n < 0 || !*text) {
		free(*text);
		*text = NULL;
		return fail(err, errlen, "%s: %s", path, n < 0 ? strerror(errno) : "out of memory");
	}
	return 0;
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

/* The name of @c's input transformation: its bits' names joined by "+" */
static void xfrm_names(struct rss_conf *c)
{
	static const char *const names[] = { "symmetric-xor", "symmetric-or-xor" };
	uint32_t x = c->input_xfrm, known = RSSPICK_XFRM_SYM_XOR | RSSPICK_XFRM_SYM_OR_XOR;
	size_t n = 0;
	int i;

	c->xfrm_name[0] = '\0';
	for (i = 0; i < 3; i++) {
		if (i < 2 ? !(x & 1U << i) : !(x & ~known))
			continue;
		n += snprintf(c->xfrm_name + n, sizeof(c->xfrm_name) - n, "%s%s",
			      n ? "+" : "", i < 2 ? names[i] : "unknown");
		if (n >= sizeof(c->xfrm_name))
			break;
	}
}

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
					uint32_t *ni = realloc(c->indir, sizeof(*ni) * (cap += 256));

					if (!ni) {
						rss_conf_free(c);
						return fail(err, errlen, "out of memory");
					}
					c->indir = ni;
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
			if (on)
				c->input_xfrm |= !strcmp(name, "symmetric-xor") ?
						 RSSPICK_XFRM_SYM_XOR :
						 !strcmp(name, "symmetric-or-xor") ?
						 RSSPICK_XFRM_SYM_OR_XOR : 1U << 31;
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
	xfrm_names(c);
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
	xfrm_names(c);
	return 0;
}


/* ---- the ethtool ioctl ---- */

/* SIOCETHTOOL on @dev, @data being an ethtool command struct: 0 or errno. */
static int ethtool_ioctl(const char *dev, void *data)
{
	struct ifreq ifr = { .ifr_data = data };
	int fd, ret;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	ret = ioctl(fd, SIOCETHTOOL, &ifr) ? errno : 0;
	close(fd);
	return ret;
}

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
	/* hfunc 0: the driver did not say */
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
	int e;

	memset(c, 0, sizeof(*c));
	if (!ifname[0] || strlen(ifname) >= IFNAMSIZ)
		return fail(err, errlen, "%s: invalid interface name",
			    ifname);
	if (!if_nametoindex(ifname))
		return fail(err, errlen, "%s: no such network device",
			    ifname);
	e = ioctl_read_rss(ifname, context, c);
	if (e == EOPNOTSUPP && !context)
		return fail(err, errlen,
			    "%s: device does not report its RSS configuration (driver has no get_rxfh)",
			    ifname);
	if (e)
		return fail(err, errlen,
			    "%s: cannot read RSS configuration of context %u: %s",
			    ifname, context, strerror(e));
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
	if (c->xfrm_known && c->input_xfrm &&
	    c->input_xfrm != RSSPICK_XFRM_SYM_XOR &&
	    c->input_xfrm != RSSPICK_XFRM_SYM_OR_XOR)
		return fail(err, errlen,
			    "%s: RSS input transformation %s is on; rsspick models none, symmetric-xor or symmetric-or-xor (ethtool -X %s xfrm none)",
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
