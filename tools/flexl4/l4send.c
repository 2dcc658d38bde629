// SPDX-License-Identifier: GPL-2.0
/*
 * l4send - send IPv4/IPv6 packets of any IP protocol whose header starts
 * with a 16-bit source port and a 16-bit destination port (Homa-like),
 * fast: raw sockets, sendmmsg() batches, optional threads.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define MAX_THREADS	64
#define MAX_BATCH	1024
#define MAX_PORTS	(1u << 20)
/* Give up when the kernel drops every packet for this long (seconds). */
#define STALL_SECS	1.0

static const char help_text[] =
"NAME\n"
"    l4send - fast sender of port-addressed packets for any IP protocol\n"
"\n"
"SYNOPSIS\n"
"    l4send --dst ADDR [--src ADDR] [--proto N] [--hdr-len N] [--payload N]\n"
"           [--sport LIST] [--dport LIST] [--cycle K] [--count N]\n"
"           [--duration SEC] [--rate PPS] [--threads N] [--batch N]\n"
"           [--dev IFNAME] [--json] [-4|-6]\n"
"\n"
"DESCRIPTION\n"
"    Sends IPv4 or IPv6 packets with IP protocol N. The IP header is built by\n"
"    the kernel (raw socket); l4send writes the L4 part: a header of\n"
"    --hdr-len bytes whose first four bytes are the source and destination\n"
"    port (big-endian, so ethtool's l4data is sport<<16|dport), the rest of\n"
"    the header zero, then --payload bytes where byte j is j & 0xff.\n"
"    No checksum is computed. Packets go out in sendmmsg() batches.\n"
"    A packet larger than the MTU of the outgoing device is refused before\n"
"    anything is sent (it would be fragmented, and fragments after the\n"
"    first carry no ports).\n"
"\n"
"    Packet i (counting from 0) uses the port pair number i mod (S*D) of the\n"
"    S source and D destination ports, destination port varying fastest:\n"
"    (s0,d0) (s0,d1) ... (s0,dD-1) (s1,d0) ...\n"
"    With --threads T, thread t sends packets t, t+T, t+2T, ...\n"
"\n"
"OPTIONS\n"
"    -d, --dst ADDR      destination IPv4 or IPv6 address (required)\n"
"    -s, --src ADDR      source address (bound; default: chosen by routing)\n"
"    -4, -6              insist on this address family\n"
"    -p, --proto N       IP protocol number 1-254 (default 146, Homa)\n"
"        --hdr-len N     L4 header length, 4 or more (default 28, Homa)\n"
"        --payload N     payload bytes after the header (default 0)\n"
"    -S, --sport LIST    source ports: N, A-B or a comma list (default 32768)\n"
"    -D, --dport LIST    destination ports, same syntax (default 4000)\n"
"        --cycle K       destination ports D..D+K-1, with a single --dport D\n"
"    -n, --count N       packets to send in total (default 1000 unless\n"
"                        --duration is given; both: stop at the first)\n"
"        --duration SEC  send for SEC seconds (decimal allowed)\n"
"        --rate PPS      limit to PPS packets per second in total\n"
"        --threads N     sending threads, one socket each (1-64, default 1)\n"
"        --batch N       packets per sendmmsg() call (1-1024, default 64)\n"
"    -i, --dev IFNAME    send through this interface (SO_BINDTODEVICE)\n"
"    -j, --json          print the summary as one JSON object\n"
"    -h, --help          show this text\n"
"    -V, --version       print the version\n"
"    For frames at line rate, and protocols 0 and 255, use trafgen with\n"
"    " TRAFGEN_CFG " (IPv4) or l4v6.cfg beside it (IPv6);\n"
"    their first lines say how.\n"
"\n"
"OUTPUT\n"
"    One line: packets sent, bytes (IP packet bytes: IP header + L4 header\n"
"    + payload), seconds and packets/s. A packet the kernel reports as\n"
"    dropped (ENOBUFS from the qdisc or the driver; an IPv4 raw socket\n"
"    reports it only with IP_RECVERR, which l4send sets) is not counted\n"
"    as sent: it is sent again, and the number of such drops is added\n"
"    (\"N dropped and resent\"), also when it is one in the middle of a\n"
"    sendmmsg() batch. When every packet\n"
"    is dropped for 1 s (a link that is down, a peer that does not\n"
"    receive), l4send gives up with exit status 1. l4send cannot see\n"
"    packets dropped in the neighbour queue (unresolved address) or by\n"
"    the no-carrier qdisc. With --json: {\"packets\":N,\"bytes\":N,\n"
"    \"seconds\":F,\"pps\":F,\"threads\":N,\"dropped\":N}. Ctrl-C or\n"
"    SIGTERM stops early and still prints the summary.\n"
"\n"
"EXIT STATUS\n"
"    0 sent, 1 run-time error (socket, send), 2 bad arguments.\n"
"    Needs CAP_NET_RAW.\n"
"\n"
"EXAMPLES\n"
"    l4send -d 192.0.2.2 -p 146 -D 4000 --cycle 16 -n 100000\n"
"    l4send -d 2001:db8::2 -p 132 --hdr-len 12 --payload 64 -S 1000-1003 \\\n"
"           -D 80,443 --duration 5\n"
"    l4send -d 192.0.2.2 -p 253 --rate 10000 --duration 2 --json\n";
;

struct config {
	int family;
	struct sockaddr_storage src, dst;
	socklen_t alen;
	bool have_src;
	int proto;
	unsigned int hdr_len, payload_len;
	uint32_t *sports, *dports;
	size_t nsports, ndports;
	uint64_t count;
	double duration, rate;
	unsigned int threads, batch;
	const char *dev;
	bool json;
};

struct worker {
	const struct config *cfg;
	pthread_t tid;
	unsigned int index;
	uint64_t sent;		/* accepted and not reported dropped */
	uint64_t dropped;	/* sends the kernel reported dropped */
	double start, end;
	int err;		/* errno of a fatal send error, or 0 */
	bool stalled;		/* gave up: every packet dropped */
};

static atomic_bool stop;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop, true);
}

static bool parse_addr(const char *s, struct sockaddr_storage *ss, int *family)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		*family = AF_INET;
		return true;
	}
	if (inet_pton(AF_INET6, s, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		*family = AF_INET6;
		return true;
	}
	return false;
}

static void parse_args(int argc, char **argv, struct config *cfg)
{
	static const struct option longopts[] = {
		{ "dst", required_argument, NULL, 'd' },
		{ "src", required_argument, NULL, 's' },
		{ "proto", required_argument, NULL, 'p' },
		{ "hdr-len", required_argument, NULL, 'H' },
		{ "payload", required_argument, NULL, 'l' },
		{ "sport", required_argument, NULL, 'S' },
		{ "dport", required_argument, NULL, 'D' },
		{ "cycle", required_argument, NULL, 'K' },
		{ "count", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 't' },
		{ "rate", required_argument, NULL, 'r' },
		{ "threads", required_argument, NULL, 'T' },
		{ "batch", required_argument, NULL, 'b' },
		{ "dev", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dst = NULL, *src = NULL, *sport = "32768", *dport = "4000";
	uint64_t v, cycle = 0;
	bool have_count = false, have_dur = false;
	int want_family = 0, fam, c;
	unsigned int max_l4;

	cfg->proto = 146;
	cfg->hdr_len = 28;
	cfg->count = 1000;
	cfg->threads = 1;
	cfg->batch = 64;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":46d:s:p:S:D:n:i:jhV",
				longopts, NULL)) != -1) {
		switch (c) {
		case '4':
			want_family = AF_INET;
			break;
		case '6':
			want_family = AF_INET6;
			break;
		case 'd':
			dst = optarg;
			break;
		case 's':
			src = optarg;
			break;
		case 'p':
			if (!parse_u64(optarg, 0, 255, &v))
				usage_err("bad --proto '%s': want 1-254", optarg);
			cfg->proto = v;
			break;
		case 'H':
			if (!parse_u64(optarg, 4, 65535, &v))
				usage_err("bad --hdr-len '%s': want 4-65535", optarg);
			cfg->hdr_len = v;
			break;
		case 'l':
			if (!parse_u64(optarg, 0, 65535, &v))
				usage_err("bad --payload '%s': want 0-65535", optarg);
			cfg->payload_len = v;
			break;
		case 'S':
			sport = optarg;
			break;
		case 'D':
			dport = optarg;
			break;
		case 'K':
			if (!parse_u64(optarg, 1, 65536, &cycle))
				usage_err("bad --cycle '%s': want 1-65536", optarg);
			break;
		case 'n':
			if (!parse_u64(optarg, 1, UINT64_MAX, &cfg->count))
				usage_err("bad --count '%s': want a positive integer",
					  optarg);
			have_count = true;
			break;
		case 't':
			if (!parse_double(optarg, &cfg->duration) ||
			    cfg->duration <= 0 || cfg->duration > 1e7)
				usage_err("bad --duration '%s': want seconds > 0",
					  optarg);
			have_dur = true;
			break;
		case 'r':
			if (!parse_double(optarg, &cfg->rate) || cfg->rate < 1 ||
			    cfg->rate > 1e10)
				usage_err("bad --rate '%s': want packets/s >= 1",
					  optarg);
			break;
		case 'T':
			if (!parse_u64(optarg, 1, MAX_THREADS, &v))
				usage_err("bad --threads '%s': want 1-%d", optarg,
					  MAX_THREADS);
			cfg->threads = v;
			break;
		case 'b':
			if (!parse_u64(optarg, 1, MAX_BATCH, &v))
				usage_err("bad --batch '%s': want 1-%d", optarg,
					  MAX_BATCH);
			cfg->batch = v;
			break;
		case 'i':
			if (!*optarg || strlen(optarg) >= IFNAMSIZ)
				usage_err("bad --dev '%s'", optarg);
			cfg->dev = optarg;
			break;
		case 'j':
			cfg->json = true;
			break;
		case 'h':
			fputs(help_text, stdout);
			exit(0);
		case 'V':
			print_version();
		case ':':
			usage_err("option '%s' needs a value", argv[optind - 1]);
		default:
			usage_err("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_err("unexpected argument '%s'", argv[optind]);
	if (!dst)
		usage_err("missing --dst ADDR");
	if (!parse_addr(dst, &cfg->dst, &cfg->family))
		usage_err("bad --dst '%s': not an IPv4 or IPv6 address", dst);
	if (cfg->proto == 0)
		usage_err("--proto 0: there is no raw socket of protocol 0 (trafgen sends it)");
	if (cfg->proto == 255)
		usage_err("--proto 255: a raw socket of protocol 255 sends packets whose IP header the caller writes (trafgen sends it)");
	if (want_family && want_family != cfg->family)
		usage_err("--dst '%s' is not an IPv%d address", dst,
			  want_family == AF_INET ? 4 : 6);
	if (src) {
		if (!parse_addr(src, &cfg->src, &fam))
			usage_err("bad --src '%s': not an IPv4 or IPv6 address",
				  src);
		if (fam != cfg->family)
			usage_err("--src '%s' and --dst '%s' differ in family",
				  src, dst);
		cfg->have_src = true;
	}
	cfg->alen = cfg->family == AF_INET ? sizeof(struct sockaddr_in) :
					     sizeof(struct sockaddr_in6);
	max_l4 = cfg->family == AF_INET ? 65535 - 20 : 65535;
	if (cfg->hdr_len + cfg->payload_len > max_l4)
		usage_err("--hdr-len + --payload = %u exceeds %u for IPv%d",
			  cfg->hdr_len + cfg->payload_len, max_l4,
			  cfg->family == AF_INET ? 4 : 6);
	if (!parse_num_list(sport, 65535, MAX_PORTS, &cfg->sports,
			    &cfg->nsports))
		usage_err("bad --sport '%s': want N, A-B or a comma list of 0-65535",
			  sport);
	if (!parse_num_list(dport, 65535, MAX_PORTS, &cfg->dports,
			    &cfg->ndports))
		usage_err("bad --dport '%s': want N, A-B or a comma list of 0-65535",
			  dport);
	if (cycle) {
		uint32_t d0 = cfg->dports[0];

		if (cfg->ndports != 1)
			usage_err("--cycle needs a single --dport value");
		if (d0 + cycle - 1 > 65535)
			usage_err("--dport %u with --cycle %llu runs past 65535",
				  d0, (unsigned long long)cycle);
		cfg->dports = realloc(cfg->dports, cycle * sizeof(uint32_t));
		if (!cfg->dports)
			die("out of memory");
		for (uint64_t k = 0; k < cycle; k++)
			cfg->dports[k] = d0 + k;
		cfg->ndports = cycle;
	}
	if (have_dur && !have_count)
		cfg->count = UINT64_MAX;
	if (cfg->count < cfg->threads)
		usage_err("--count %llu is smaller than --threads %u",
			  (unsigned long long)cfg->count, cfg->threads);
}

static int open_socket(const struct config *cfg)
{
	int fd, sndbuf = 4 << 20, one = 1;

	fd = socket(cfg->family, SOCK_RAW, cfg->proto);
	if (fd < 0)
		die("socket(SOCK_RAW, %d): %s", cfg->proto, strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	if (cfg->dev && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, cfg->dev,
				   strlen(cfg->dev)) < 0)
		die("bind to device %s: %s", cfg->dev, strerror(errno));
	if (cfg->have_src &&
	    bind(fd, (const struct sockaddr *)&cfg->src, cfg->alen) < 0)
		die("bind to source address: %s", strerror(errno));
	/* Without it a raw socket hides ENOBUFS: a dropped packet looks sent. */
	if (cfg->family == AF_INET)
		setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
	else
		setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one, sizeof(one));
	return fd;
}

static void sleep_until(double t)
{
	struct timespec ts;
	double d = t - now_mono();

	if (d <= 0)
		return;
	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

/*
 * Refuse, before sending anything, a packet larger than the MTU: it would be
 * fragmented, and fragments after the first carry no ports.
 */
static void check_mtu(const struct config *cfg)
{
	unsigned int ip_len = (cfg->family == AF_INET ? 20 : 40) +
			      cfg->hdr_len + cfg->payload_len;
	struct sockaddr_storage to = cfg->dst;
	int fd, mtu = 0;
	socklen_t len = sizeof(mtu);

	/* The route's MTU, from a connected UDP socket: sends nothing. */
	fd = socket(cfg->family, SOCK_DGRAM, 0);
	if (fd < 0)
		return;
	if (cfg->dev)
		setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, cfg->dev,
			   strlen(cfg->dev));
	if (cfg->have_src)
		bind(fd, (const struct sockaddr *)&cfg->src, cfg->alen);
	((struct sockaddr_in *)&to)->sin_port = htons(9);
	if (connect(fd, (struct sockaddr *)&to, cfg->alen) < 0 ||
	    getsockopt(fd, cfg->family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6,
		       cfg->family == AF_INET ? IP_MTU : IPV6_MTU, &mtu, &len) < 0)
		mtu = 0;	/* no route: the send says so */
	close(fd);
	if (mtu > 0 && ip_len > (unsigned int)mtu)
		die("packets of %u bytes (IP header + --hdr-len + --payload) exceed the MTU of the route%s%s (%d); nothing sent",
		    ip_len, cfg->dev ? " via " : "", cfg->dev ? cfg->dev : "", mtu);
}

/* Port pair of the next packet: si, di step by T pairs at a time. */
struct pair_iter {
	size_t si, di;
};

static void pair_init(const struct config *cfg, uint64_t i,
		      struct pair_iter *p)
{
	uint64_t pair = i % ((uint64_t)cfg->nsports * cfg->ndports);

	p->si = pair / cfg->ndports;
	p->di = pair % cfg->ndports;
}

static void put_ports(const struct config *cfg, struct pair_iter *p,
		      uint8_t *b)
{
	uint16_t sp = cfg->sports[p->si], dp = cfg->dports[p->di];

	b[0] = sp >> 8;
	b[1] = sp & 0xff;
	b[2] = dp >> 8;
	b[3] = dp & 0xff;
	for (unsigned int k = 0; k < cfg->threads; k++) {
		if (++p->di == cfg->ndports) {
			p->di = 0;
			if (++p->si == cfg->nsports)
				p->si = 0;
		}
	}
}

/*
 * The kernel dropped a packet (ENOBUFS) or had no room (EAGAIN): wait a
 * little and say whether to try again. Not when stopping, past the
 * deadline, or when nothing has gone out for STALL_SECS (then w->err).
 */
static bool retry_after_drop(struct worker *w, double deadline,
			     double *stall_since, unsigned int *fails)
{
	double t = now_mono();

	if (atomic_load_explicit(&stop, memory_order_relaxed) ||
	    (deadline && t >= deadline))
		return false;
	if (!*stall_since) {
		*stall_since = t;
	} else if (t - *stall_since >= STALL_SECS) {
		w->err = ENOBUFS;
		w->stalled = true;
		return false;
	}
	if (++*fails > 16) {
		struct timespec ts = { 0, 20000 };

		nanosleep(&ts, NULL);
	} else {
		sched_yield();
	}
	return true;
}

/* Read queued ICMP reports (IP_RECVERR); true if there were any. */
static bool drain_errqueue(int fd)
{
	char buf[512], cbuf[512];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr m = {};
	bool any = false;

	for (;;) {
		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		m.msg_control = cbuf;
		m.msg_controllen = sizeof(cbuf);
		if (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return any;
		any = true;
	}
}

/* Packets this thread sends: indices index, index + T, ... < count. */
static uint64_t my_count(const struct config *cfg, unsigned int index)
{
	return cfg->count / cfg->threads + (index < cfg->count % cfg->threads);
}

/* sendmmsg() batches of copied packets. */
static void send_mmsg(struct worker *w)
{
	const struct config *cfg = w->cfg;
	unsigned int len = cfg->hdr_len + cfg->payload_len;
	unsigned int batch = cfg->batch, T = cfg->threads, fails = 0;
	uint64_t mine = my_count(cfg, w->index);
	double rate = cfg->rate / T, deadline = 0, stall_since = 0;
	struct pair_iter pi;
	struct mmsghdr *msgs;
	struct iovec *iov;
	uint8_t *bufs;
	int fd;

	if (rate > 0 && rate / 1000 < batch)
		batch = rate / 1000 < 1 ? 1 : rate / 1000;
	fd = open_socket(cfg);
	msgs = calloc(batch, sizeof(*msgs));
	iov = calloc(batch, sizeof(*iov));
	bufs = calloc(batch, len);
	if (!msgs || !iov || !bufs)
		die("out of memory");
	for (unsigned int k = 0; k < batch; k++) {
		uint8_t *b = bufs + (size_t)k * len;

		for (unsigned int j = 0; j < cfg->payload_len; j++)
			b[cfg->hdr_len + j] = j & 0xff;
		iov[k].iov_base = b;
		iov[k].iov_len = len;
		msgs[k].msg_hdr.msg_name = (void *)&cfg->dst;
		msgs[k].msg_hdr.msg_namelen = cfg->alen;
		msgs[k].msg_hdr.msg_iov = &iov[k];
		msgs[k].msg_hdr.msg_iovlen = 1;
	}
	pair_init(cfg, w->index, &pi);

	w->start = now_mono();
	if (cfg->duration > 0)
		deadline = w->start + cfg->duration;
	while (w->sent < mine && !atomic_load_explicit(&stop,
						       memory_order_relaxed)) {
		unsigned int n = batch, done = 0;

		if (mine - w->sent < n)
			n = mine - w->sent;
		for (unsigned int k = 0; k < n; k++)
			put_ports(cfg, &pi, iov[k].iov_base);
		if (rate > 0)
			sleep_until(w->start + w->sent / rate);
		while (done < n) {
			int r = sendmmsg(fd, msgs + done, n - done, 0);
			int e = errno;

			if (r > 0) {
				done += r;
				stall_since = 0;
				fails = 0;
				/*
				 * sendmmsg() returns the count before the
				 * first message that failed and drops that
				 * message's error. With a blocking socket it
				 * is a drop (ENOBUFS, EPERM from a filter),
				 * a queued ICMP error (IP_RECVERR, drained
				 * here) or a signal (stop): the message is
				 * sent again by the next call either way.
				 */
				if (done < n && !drain_errqueue(fd) &&
				    !atomic_load_explicit(&stop,
							  memory_order_relaxed))
					w->dropped++;
				continue;
			}
			if (r < 0 && e == EINTR &&
			    !atomic_load_explicit(&stop, memory_order_relaxed))
				continue;
			if (r < 0 && (e == ENOBUFS || e == EAGAIN)) {
				w->dropped += e == ENOBUFS;
				if (retry_after_drop(w, deadline, &stall_since,
						     &fails))
					continue;
				break;
			}
			/* An ICMP error reported through IP_RECVERR. */
			if (r < 0 && e != EINTR && drain_errqueue(fd))
				continue;
			if (r < 0 && e != EINTR)
				w->err = e;
			break;
		}
		w->sent += done;
		if (done < n || (deadline && now_mono() >= deadline))
			break;
	}
	w->end = now_mono();
	close(fd);
	free(bufs);
	free(iov);
	free(msgs);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	send_mmsg(w);
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker workers[MAX_THREADS] = {};
	struct config cfg = {};
	uint64_t packets = 0, dropped = 0, bytes;
	double start = 0, end = 0, secs, pps;
	struct sigaction sa = {};
	bool stalled = false;
	int err = 0;

	prog = "l4send";
	parse_args(argc, argv, &cfg);

	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/* Fail early and clearly (e.g. no CAP_NET_RAW) before any thread. */
	close(open_socket(&cfg));
	check_mtu(&cfg);

	for (unsigned int t = 0; t < cfg.threads; t++) {
		workers[t].cfg = &cfg;
		workers[t].index = t;
		if (cfg.threads == 1) {
			worker_main(&workers[t]);
			continue;
		}
		errno = pthread_create(&workers[t].tid, NULL, worker_main,
				       &workers[t]);
		if (errno)
			die("pthread_create: %s", strerror(errno));
	}
	for (unsigned int t = 0; t < cfg.threads; t++) {
		struct worker *w = &workers[t];

		if (cfg.threads > 1)
			pthread_join(w->tid, NULL);
		packets += w->sent;
		dropped += w->dropped;
		stalled |= w->stalled;
		if (!t || w->start < start)
			start = w->start;
		if (w->end > end)
			end = w->end;
		if (w->err)
			err = w->err;
	}
	bytes = packets * ((cfg.family == AF_INET ? 20 : 40) + cfg.hdr_len +
			   cfg.payload_len);
	secs = end - start;
	pps = secs > 0 ? packets / secs : 0;
	if (cfg.json)
		printf("{\"packets\":%llu,\"bytes\":%llu,\"seconds\":%.6f,\"pps\":%.1f,\"threads\":%u,\"dropped\":%llu}\n",
		       (unsigned long long)packets, (unsigned long long)bytes,
		       secs, pps, cfg.threads, (unsigned long long)dropped);
	else if (dropped)
		printf("sent %llu packets, %llu bytes in %.6f s: %.0f packets/s; %llu dropped and resent\n",
		       (unsigned long long)packets, (unsigned long long)bytes,
		       secs, pps, (unsigned long long)dropped);
	else
		printf("sent %llu packets, %llu bytes in %.6f s: %.0f packets/s\n",
		       (unsigned long long)packets, (unsigned long long)bytes,
		       secs, pps);
	fflush(stdout);
	if (stalled)
		die("every packet was dropped for %.0f s (%s%s%s: link down or not transmitting?); giving up",
		    STALL_SECS, strerror(ENOBUFS), cfg.dev ? " on " : "",
		    cfg.dev ? cfg.dev : "");
	if (err)
		die("sendmmsg: %s", strerror(err));
	return 0;
}
