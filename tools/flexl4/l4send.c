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
#include <linux/if_packet.h>
#include <math.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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
"           [--dev IFNAME] [--mode raw|packet|ring] [--dst-mac MAC] [--json]\n"
"           [-4|-6]\n"
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
"    --mode packet builds the whole frame instead (Ethernet, IPv4 header with\n"
"    DF and a valid header checksum, or IPv6 header; TTL/hop limit 64) and\n"
"    sends it on an AF_PACKET socket that bypasses the qdisc: faster, but it\n"
"    needs --dev, --src and --dst-mac (no routing, no neighbour lookup).\n"
"    --mode ring sends the same frames through a memory-mapped TX ring\n"
"    (PACKET_TX_RING, one per thread): the frames are written once, then\n"
"    only the ports change and one send() hands a batch to the kernel.\n"
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
"    -p, --proto N       IP protocol number 0-255 (default 146, Homa); raw\n"
"                        mode takes 1-254 (a raw socket of protocol 0 does\n"
"                        not exist, 255 means the caller writes the IP\n"
"                        header): use --mode packet or ring for 0 and 255\n"
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
"        --batch N       packets per sendmmsg() or send() call (1-1024,\n"
"                        default 64; 256 in ring mode)\n"
"    -i, --dev IFNAME    send through this interface (SO_BINDTODEVICE)\n"
"        --mode MODE     raw (default): IP raw socket, kernel routes;\n"
"                        packet: AF_PACKET frames on --dev, qdisc bypass;\n"
"                        ring: as packet, through a PACKET_TX_RING\n"
"        --dst-mac MAC   destination MAC for --mode packet/ring\n"
"                        (aa:bb:cc:dd:ee:ff)\n"
"    -j, --json          print the summary as one JSON object\n"
"    -h, --help          show this text\n"
"    -V, --version       print the version\n"
"    Deprecated (one more release): -c (now -n), -H, -l, -K, -t, -r, -T, -b,\n"
"    -m, -M (now long only).\n"
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
"    receive), l4send gives up with exit status 1. Raw mode cannot see\n"
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
"    l4send -d 192.0.2.2 -p 253 --rate 10000 --duration 2 --json\n"
"    l4send --mode ring -i eth1 --dst-mac 02:00:00:00:00:02 -s 192.0.2.1 \\\n"
"           -d 192.0.2.2 --threads 2 --duration 5\n";

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
	bool packet_mode;	/* packet or ring: frames on AF_PACKET */
	bool ring_mode;
	uint8_t dst_mac[6];
	bool have_mac;
	/* --mode packet: L2 + L3 header template and link-layer address. */
	uint8_t l23[14 + 40];
	unsigned int l23_len;
	struct sockaddr_ll sll;
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
		{ "mode", required_argument, NULL, 'm' },
		{ "dst-mac", required_argument, NULL, 'M' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dst = NULL, *src = NULL, *sport = "32768", *dport = "4000";
	uint64_t v, cycle = 0;
	bool have_count = false, have_dur = false, have_batch = false;
	int want_family = 0, fam, c;
	unsigned int max_l4;

	cfg->proto = 146;
	cfg->hdr_len = 28;
	cfg->count = 1000;
	cfg->threads = 1;
	cfg->batch = 64;

	static const struct old_opt olds[] = {
		{ "-c", "--count", "-n (--count)" }, { "-H", "--hdr-len", NULL },
		{ "-l", "--payload", NULL }, { "-K", "--cycle", NULL }, { "-t", "--duration", NULL },
		{ "-r", "--rate", NULL }, { "-T", "--threads", NULL }, { "-b", "--batch", NULL },
		{ "-m", "--mode", NULL }, { "-M", "--dst-mac", NULL }, { NULL, NULL, NULL },
	};
	old_opts(argc, argv, olds);
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
				usage_err("bad --proto '%s': want 0-255", optarg);
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
			have_batch = true;
			break;
		case 'i':
			if (!*optarg || strlen(optarg) >= IFNAMSIZ)
				usage_err("bad --dev '%s'", optarg);
			cfg->dev = optarg;
			break;
		case 'm':
			cfg->packet_mode = cfg->ring_mode = false;
			if (!strcmp(optarg, "packet")) {
				cfg->packet_mode = true;
			} else if (!strcmp(optarg, "ring")) {
				cfg->packet_mode = true;
				cfg->ring_mode = true;
			} else if (strcmp(optarg, "raw")) {
				usage_err("bad --mode '%s': want raw, packet or ring",
					  optarg);
			}
			break;
		case 'M': {
			uint8_t *m = cfg->dst_mac;
			char end;

			if (sscanf(optarg, "%2hhx:%2hhx:%2hhx:%2hhx:%2hhx:%2hhx%c",
				   &m[0], &m[1], &m[2], &m[3], &m[4], &m[5],
				   &end) != 6 || strlen(optarg) != 17)
				usage_err("bad --dst-mac '%s': want aa:bb:cc:dd:ee:ff",
					  optarg);
			cfg->have_mac = true;
			break;
		}
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
	if (!cfg->packet_mode && cfg->proto == 0)
		usage_err("--proto 0 needs --mode packet or ring: there is no raw socket of protocol 0");
	if (!cfg->packet_mode && cfg->proto == 255)
		usage_err("--proto 255 needs --mode packet or ring: a raw socket of protocol 255 sends packets whose IP header the caller writes");
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
	if (cfg->packet_mode && (!cfg->dev || !cfg->have_src || !cfg->have_mac))
		usage_err("--mode %s needs --dev, --src and --dst-mac",
			  cfg->ring_mode ? "ring" : "packet");
	if (cfg->ring_mode && !have_batch)
		cfg->batch = 256;
	if (!cfg->packet_mode && cfg->have_mac)
		usage_err("--dst-mac is only for --mode packet or ring");
	if (have_dur && !have_count)
		cfg->count = UINT64_MAX;
	if (cfg->count < cfg->threads)
		usage_err("--count %llu is smaller than --threads %u",
			  (unsigned long long)cfg->count, cfg->threads);
}

static int open_socket(const struct config *cfg)
{
	int fd, sndbuf = 4 << 20, one = 1;

	if (cfg->packet_mode) {
		fd = socket(AF_PACKET, SOCK_RAW, 0);
		if (fd < 0)
			die("socket(AF_PACKET): %s", strerror(errno));
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
		if (setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one,
			       sizeof(one)) < 0)
			die("PACKET_QDISC_BYPASS: %s", strerror(errno));
		return fd;
	}
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

/* --mode packet: Ethernet + IP header template, the same for every packet. */
static void build_frame_template(struct config *cfg)
{
	unsigned int l4 = cfg->hdr_len + cfg->payload_len;
	uint8_t *h = cfg->l23, *ip = h + ETH_HLEN;
	struct ifreq ifr = {};
	int fd;

	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		die("socket(AF_PACKET): %s", strerror(errno));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", cfg->dev);
	if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0)
		die("device %s: %s", cfg->dev, strerror(errno));
	cfg->sll.sll_family = AF_PACKET;
	cfg->sll.sll_ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		die("device %s: %s", cfg->dev, strerror(errno));
	if (ifr.ifr_hwaddr.sa_family != 1 /* ARPHRD_ETHER */)
		die("device %s is not an Ethernet device", cfg->dev);
	close(fd);

	memcpy(h, cfg->dst_mac, 6);
	memcpy(h + 6, ifr.ifr_hwaddr.sa_data, 6);
	if (cfg->family == AF_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&cfg->src;
		struct sockaddr_in *d4 = (struct sockaddr_in *)&cfg->dst;
		uint32_t sum = 0;

		cfg->sll.sll_protocol = htons(ETH_P_IP);
		h[12] = 0x08;
		h[13] = 0x00;
		ip[0] = 0x45;
		ip[2] = (20 + l4) >> 8;
		ip[3] = (20 + l4) & 0xff;
		ip[6] = 0x40;		/* DF, no fragments */
		ip[8] = 64;
		ip[9] = cfg->proto;
		memcpy(ip + 12, &s4->sin_addr, 4);
		memcpy(ip + 16, &d4->sin_addr, 4);
		for (int k = 0; k < 20; k += 2)
			sum += ip[k] << 8 | ip[k + 1];
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		sum = ~sum & 0xffff;
		ip[10] = sum >> 8;
		ip[11] = sum & 0xff;
		cfg->l23_len = ETH_HLEN + 20;
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&cfg->src;
		struct sockaddr_in6 *d6 = (struct sockaddr_in6 *)&cfg->dst;

		cfg->sll.sll_protocol = htons(ETH_P_IPV6);
		h[12] = 0x86;
		h[13] = 0xdd;
		ip[0] = 0x60;
		ip[4] = l4 >> 8;
		ip[5] = l4 & 0xff;
		ip[6] = cfg->proto;
		ip[7] = 64;
		memcpy(ip + 8, &s6->sin6_addr, 16);
		memcpy(ip + 24, &d6->sin6_addr, 16);
		cfg->l23_len = ETH_HLEN + 40;
	}
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
 * Refuse, before sending anything, a packet larger than the MTU: raw mode
 * would fragment it (fragments after the first carry no ports), packet and
 * ring modes would fail on the first send.
 */
static void check_mtu(const struct config *cfg)
{
	unsigned int ip_len = (cfg->family == AF_INET ? 20 : 40) +
			      cfg->hdr_len + cfg->payload_len;
	struct sockaddr_storage to = cfg->dst;
	char where[IFNAMSIZ + 64];
	int fd, mtu = 0;
	socklen_t len = sizeof(mtu);

	if (cfg->packet_mode) {
		struct ifreq ifr = {};

		fd = socket(AF_PACKET, SOCK_RAW, 0);
		if (fd < 0)
			die("socket(AF_PACKET): %s", strerror(errno));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", cfg->dev);
		if (ioctl(fd, SIOCGIFMTU, &ifr) < 0)
			die("device %s: %s", cfg->dev, strerror(errno));
		close(fd);
		mtu = ifr.ifr_mtu;
		snprintf(where, sizeof(where), "the MTU of %s", cfg->dev);
	} else {
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
		    getsockopt(fd, cfg->family == AF_INET ? IPPROTO_IP :
				   IPPROTO_IPV6,
			       cfg->family == AF_INET ? IP_MTU : IPV6_MTU,
			       &mtu, &len) < 0) {
			close(fd);	/* no route: the send says so */
			return;
		}
		close(fd);
		snprintf(where, sizeof(where), "the MTU of the route%s%s",
			 cfg->dev ? " via " : "", cfg->dev ? cfg->dev : "");
	}
	if (mtu > 0 && ip_len > (unsigned int)mtu)
		die("packets of %u bytes (IP header + --hdr-len + --payload) exceed %s (%d); nothing sent",
		    ip_len, where, mtu);
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

/* Raw mode: read queued ICMP reports (IP_RECVERR); true if there were any. */
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

/* raw and packet modes: sendmmsg() batches of copied packets. */
static void send_mmsg(struct worker *w)
{
	const struct config *cfg = w->cfg;
	unsigned int off = cfg->l23_len;
	unsigned int len = off + cfg->hdr_len + cfg->payload_len;
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

		memcpy(b, cfg->l23, off);
		for (unsigned int j = 0; j < cfg->payload_len; j++)
			b[off + cfg->hdr_len + j] = j & 0xff;
		iov[k].iov_base = b;
		iov[k].iov_len = len;
		if (cfg->packet_mode) {
			msgs[k].msg_hdr.msg_name = (void *)&cfg->sll;
			msgs[k].msg_hdr.msg_namelen = sizeof(cfg->sll);
		} else {
			msgs[k].msg_hdr.msg_name = (void *)&cfg->dst;
			msgs[k].msg_hdr.msg_namelen = cfg->alen;
		}
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
			put_ports(cfg, &pi, (uint8_t *)iov[k].iov_base + off);
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
				if (done < n && !(!cfg->packet_mode &&
						  drain_errqueue(fd)) &&
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
			if (r < 0 && !cfg->packet_mode && e != EINTR &&
			    drain_errqueue(fd))
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

/* Frame status bits the kernel has not finished with. */
#define TX_BUSY	(TP_STATUS_SEND_REQUEST | TP_STATUS_SENDING)

/*
 * ring mode: frames written once into a PACKET_TX_RING; per packet only the
 * four port bytes and the status word change, and one send() hands the
 * kernel a whole batch. A frame counts as sent once the kernel marks it
 * available again; a frame the device dropped stays queued and the send()
 * returns ENOBUFS.
 */
static void send_ring(struct worker *w)
{
	const struct config *cfg = w->cfg;
	unsigned int off = TPACKET2_HDRLEN - sizeof(struct sockaddr_ll);
	unsigned int len = cfg->l23_len + cfg->hdr_len + cfg->payload_len;
	unsigned int fsize = 128, frames, bsize, batch = cfg->batch, fails = 0;
	unsigned int head = 0, tail = 0, ver = TPACKET_V2, one = 1;
	int sndbuf = 4 << 20;
	uint64_t mine = my_count(cfg, w->index), queued = 0;
	double rate = cfg->rate / cfg->threads, deadline = 0, stall_since = 0;
	struct tpacket_req req = {};
	struct pair_iter pi;
	size_t maplen;
	uint8_t *map;
	int fd;

	while (fsize < off + len)
		fsize <<= 1;
	bsize = fsize < 4096 ? 4096 : fsize;
	/* At most 4 MB of ring per thread, at least 8 frames. */
	frames = (4u << 20) / fsize;
	if (frames > 1024)
		frames = 1024;
	if (frames < 8)
		frames = 8;
	if (batch > frames)
		batch = frames;
	if (rate > 0 && rate / 1000 < batch)
		batch = rate / 1000 < 1 ? 1 : rate / 1000;

	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		die("socket(AF_PACKET): %s", strerror(errno));
	/* Room for a whole ring of frames the device has not freed yet. */
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	req.tp_block_size = bsize;
	req.tp_frame_size = fsize;
	req.tp_block_nr = (size_t)frames * fsize / bsize;
	req.tp_frame_nr = frames;
	if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &ver, sizeof(ver)) < 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one,
		       sizeof(one)) < 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req)) < 0)
		die("PACKET_TX_RING on %s: %s", cfg->dev, strerror(errno));
	maplen = (size_t)req.tp_block_nr * bsize;
	map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap of the TX ring: %s", strerror(errno));
	for (unsigned int f = 0; f < frames; f++) {
		struct tpacket2_hdr *h = (void *)(map + (size_t)f * fsize);
		uint8_t *b = (uint8_t *)h + off;

		memcpy(b, cfg->l23, cfg->l23_len);
		for (unsigned int j = 0; j < cfg->payload_len; j++)
			b[cfg->l23_len + cfg->hdr_len + j] = j & 0xff;
		h->tp_len = len;
	}
	pair_init(cfg, w->index, &pi);

	w->start = now_mono();
	if (cfg->duration > 0)
		deadline = w->start + cfg->duration;
	for (;;) {
		uint64_t sent0 = w->sent;
		unsigned int want;
		ssize_t r;

		/* Reclaim, oldest first, what the kernel has sent. */
		while (queued > w->sent) {
			struct tpacket2_hdr *h =
				(void *)(map + (size_t)tail * fsize);
			uint32_t st = __atomic_load_n(&h->tp_status,
						      __ATOMIC_ACQUIRE);

			if (st & TP_STATUS_WRONG_FORMAT) {
				w->err = EMSGSIZE;
				goto out;
			}
			if (st & TX_BUSY)
				break;
			w->sent++;
			tail = (tail + 1) % frames;
		}
		if (w->sent > sent0) {
			stall_since = 0;
			fails = 0;
		}
		if (w->sent >= mine ||
		    atomic_load_explicit(&stop, memory_order_relaxed) ||
		    (deadline && now_mono() >= deadline))
			break;
		/* Queue up to a batch of new frames. */
		want = batch;
		if (mine - queued < want)
			want = mine - queued;
		while (queued - w->sent < want) {
			struct tpacket2_hdr *h =
				(void *)(map + (size_t)head * fsize);

			put_ports(cfg, &pi, (uint8_t *)h + off + cfg->l23_len);
			__atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST,
					 __ATOMIC_RELEASE);
			head = (head + 1) % frames;
			queued++;
		}
		if (rate > 0)
			sleep_until(w->start + w->sent / rate);
		r = sendto(fd, NULL, 0, 0, (const struct sockaddr *)&cfg->sll,
			   sizeof(cfg->sll));
		if (r >= 0 || errno == EINTR)
			continue;
		if (errno == ENOBUFS || errno == EAGAIN) {
			w->dropped += errno == ENOBUFS;
			if (retry_after_drop(w, deadline, &stall_since, &fails))
				continue;
			break;
		}
		w->err = errno;
		break;
	}
out:
	w->end = now_mono();
	munmap(map, maplen);
	close(fd);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	if (w->cfg->ring_mode)
		send_ring(w);
	else
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

	if (cfg.packet_mode)
		build_frame_template(&cfg);
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
		die("%s: %s", cfg.ring_mode ? "send" : "sendmmsg",
		    strerror(err));
	return 0;
}
