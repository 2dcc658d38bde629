// SPDX-License-Identifier: GPL-2.0
/*
 * capture - test helper: print received IPv4/IPv6 packets of one IP
 * protocol on one interface as hex, one packet per line, starting at the
 * IP header.
 *
 *   capture IFNAME PROTO COUNT TIMEOUT_MS READY_FILE
 *
 * Creates READY_FILE once the socket is bound, then exits 0 after COUNT
 * packets, or 1 when TIMEOUT_MS passes with fewer (having printed what
 * it got).  With CAPTURE_FRAME=1 in the environment each line is the whole
 * Ethernet frame, from the destination MAC on.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	static unsigned char buf[70000];
	long count, timeout, deadline, got = 0;
	int fd, proto, ll = 0;
	FILE *ready;

	if (argc != 6) {
		fprintf(stderr, "usage: capture IFNAME PROTO COUNT TIMEOUT_MS READY_FILE\n");
		return 2;
	}
	proto = atoi(argv[2]);
	count = atol(argv[3]);
	timeout = atol(argv[4]);
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = if_nametoindex(argv[1]);
	if (!sll.sll_ifindex) {
		fprintf(stderr, "capture: no interface %s\n", argv[1]);
		return 2;
	}
	/* SOCK_DGRAM: the kernel strips the link-layer header; SOCK_RAW keeps it. */
	if (getenv("CAPTURE_FRAME") && !strcmp(getenv("CAPTURE_FRAME"), "1"))
		ll = ETH_HLEN;
	fd = socket(AF_PACKET, ll ? SOCK_RAW : SOCK_DGRAM, htons(ETH_P_ALL));
	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		perror("capture: socket");
		return 2;
	}
	ready = fopen(argv[5], "w");
	if (!ready) {
		perror("capture: ready file");
		return 2;
	}
	fclose(ready);

	deadline = ms_now() + timeout;
	while (got < count) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct sockaddr_ll from;
		socklen_t flen = sizeof(from);
		long left = deadline - ms_now();
		ssize_t n;
		int p;

		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			break;
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &flen);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("capture: recvfrom");
			return 2;
		}
		if (from.sll_pkttype == PACKET_OUTGOING || n < ll + 20)
			continue;
		if (ntohs(from.sll_protocol) == ETH_P_IP)
			p = buf[ll + 9];
		else if (ntohs(from.sll_protocol) == ETH_P_IPV6 && n >= ll + 40)
			p = buf[ll + 6];
		else
			continue;
		if (p != proto)
			continue;
		for (ssize_t k = 0; k < n; k++)
			printf("%02x", buf[k]);
		putchar('\n');
		got++;
	}
	fflush(stdout);
	return got == count ? 0 : 1;
}
