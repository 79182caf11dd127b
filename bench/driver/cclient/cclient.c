// cclient: the minimal C client the floor was first measured with, so that
// the bench can say on this machine what the load generator adds.
//
// It plays the load generator's relay-mode games against bench/relay and
// nothing else: for each game two sockets name the same pairing key in an
// Info segment and wait for PasswdResp(1); from then on the two sides take
// turns sending SingleCoord guesses, open loop, on the schedule the Go client
// uses (all games together send RATE guesses a second; a game's next guess
// is due one interval after the previous one was due, starting at a random
// phase). Latency is from a guess's intended send time to the moment its
// partner has read it, as the Go client measures it. Games never end: no
// Board and no GameOver, which are under 2% of the relay's bytes.
//
// One thread, epoll_wait on every socket and on a timerfd armed to the
// nanosecond (timer slack 1 ns) for the earliest due guess; nothing is
// allocated while it plays.
//
// usage: cclient HOST PORT GAMES RATE WARMUP_S WINDOW_S KEY_PREFIX LAT_FILE LATE_FILE
// It prints one line, "relayed N seconds S" (the guesses its clients read
// in the window of S seconds after WARMUP_S), and writes the window's
// latencies and lateness (how late each guess was sent) as little-endian
// int64 nanoseconds to LAT_FILE and LATE_FILE.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

struct side {
	int fd;
	int game;
	unsigned char in[64]; // a partial segment between reads
	int have;
};

struct game {
	struct side s[2];
	int turn;        // the side whose guess is next or in flight
	int64_t slot;    // when the next guess is due
	int64_t sent;    // when the guess in flight was due
	unsigned cell;   // the next guess's cell, 0-99
};

static struct game *games;
static int *heap, nheap; // games waiting for their due time, by slot
static int64_t *lat, *late;
static long nlat, nlate, cap;
static int recording;
static long relayed; // read in the window

static int64_t now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void die(const char *what) {
	perror(what);
	exit(1);
}

static void swap(int i, int j) {
	int t = heap[i];
	heap[i] = heap[j];
	heap[j] = t;
}

static void push(int g) {
	int i = nheap++;
	heap[i] = g;
	while (i > 0 && games[heap[(i - 1) / 2]].slot > games[heap[i]].slot) {
		swap(i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static int pop(void) {
	int g = heap[0];
	swap(0, --nheap);
	for (int i = 0;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < nheap && games[heap[l]].slot < games[heap[m]].slot) m = l;
		if (r < nheap && games[heap[r]].slot < games[heap[m]].slot) m = r;
		if (m == i) break;
		swap(i, m);
		i = m;
	}
	return g;
}

static void writeall(int fd, const unsigned char *b, int n) {
	while (n > 0) {
		ssize_t w = send(fd, b, n, MSG_NOSIGNAL); // a closed peer is an error, not SIGPIPE
		if (w < 0 && errno == EINTR) continue;
		if (w <= 0) die("send");
		b += w;
		n -= w;
	}
}

// send writes the guess of the game's side on turn, due at its slot.
static void send_guess(struct game *g, int64_t t) {
	unsigned char seg[5] = {0x0d, 0x00, 0x02, '0' + g->cell / 10 % 10, '0' + g->cell % 10};
	g->cell = (g->cell + 37) % 100;
	g->sent = g->slot;
	if (recording && nlate < cap) late[nlate++] = t - g->slot;
	writeall(g->s[g->turn].fd, seg, sizeof seg);
}

// due takes the game's next slot and sends its guess now if it is due,
// otherwise waits for it.
static void due(struct game *g, int64_t iv, int64_t t) {
	g->slot += iv;
	if (g->slot <= t) send_guess(g, t);
	else push(g - games);
}

static int dial(const char *host, int port) {
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0) die("socket");
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	if (inet_pton(AF_INET, host, &a.sin_addr) != 1) die("address");
	if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) die("connect");
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

// pair names key on fd and waits for the relay's PasswdResp(1).
static void pair(int fd, const char *key) {
	unsigned char b[64];
	int n = strlen(key);
	b[0] = 0x00;
	b[1] = 0;
	b[2] = n;
	memcpy(b + 3, key, n);
	writeall(fd, b, 3 + n);
	int got = 0;
	while (got < 4) {
		ssize_t r = read(fd, b + got, 4 - got);
		if (r <= 0) die("pairing");
		got += r;
	}
	if (b[0] != 0x03 || b[3] != 1) {
		fprintf(stderr, "pairing: unexpected answer %02x %02x %02x %02x\n", b[0], b[1], b[2], b[3]);
		exit(1);
	}
}

static void dump(const char *path, const int64_t *v, long n) {
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(v, sizeof *v, n, f) != (size_t)n || fclose(f)) die(path);
}

int main(int argc, char **argv) {
	if (argc != 10) {
		fprintf(stderr, "usage: cclient HOST PORT GAMES RATE WARMUP_S WINDOW_S KEY_PREFIX LAT_FILE LATE_FILE\n");
		return 2;
	}
	const char *host = argv[1];
	int port = atoi(argv[2]), ngames = atoi(argv[3]);
	double rate = atof(argv[4]), warmup = atof(argv[5]), window = atof(argv[6]);
	if (ngames <= 0 || rate <= 0 || window <= 0) {
		fprintf(stderr, "cclient: GAMES, RATE and WINDOW_S must be positive\n");
		return 2;
	}
	int64_t iv = (int64_t)(1e9 * ngames / rate); // one game's interval between guesses
	cap = (long)(rate * window * 1.5) + 1024;
	games = calloc(ngames, sizeof *games);
	heap = calloc(ngames, sizeof *heap);
	lat = calloc(cap, sizeof *lat);
	late = calloc(cap, sizeof *late);
	if (!games || !heap || !lat || !late) die("calloc");
	prctl(PR_SET_TIMERSLACK, 1);
	srand48(ngames ^ port);

	int ep = epoll_create1(EPOLL_CLOEXEC);
	int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (ep < 0 || tfd < 0) die("epoll/timerfd");
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = UINT64_MAX};
	if (epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev) < 0) die("epoll_ctl");
	for (int i = 0; i < ngames; i++) {
		char key[48];
		snprintf(key, sizeof key, "%s%d", argv[7], i);
		struct game *g = &games[i];
		// the invitee names the game first, as the load generator's does
		g->s[1].fd = dial(host, port);
		pair(g->s[1].fd, key);
		g->s[0].fd = dial(host, port);
		pair(g->s[0].fd, key);
		g->cell = i % 100;
		for (int k = 0; k < 2; k++) {
			g->s[k].game = i;
			ev.events = EPOLLIN;
			ev.data.u64 = (uint64_t)i * 2 + k;
			if (epoll_ctl(ep, EPOLL_CTL_ADD, g->s[k].fd, &ev) < 0) die("epoll_ctl");
		}
	}
	int64_t start = now();
	for (int i = 0; i < ngames; i++) {
		games[i].slot = start + (int64_t)(drand48() * iv);
		push(i);
	}
	int64_t rec_from = start + (int64_t)(warmup * 1e9), rec_to = rec_from + (int64_t)(window * 1e9);
	int64_t armed = 0;
	struct epoll_event evs[256];
	for (;;) {
		int64_t t = now();
		recording = t >= rec_from && t < rec_to;
		if (t >= rec_to) break;
		while (nheap > 0 && games[heap[0]].slot <= t) send_guess(&games[pop()], t);
		int64_t next = nheap > 0 ? games[heap[0]].slot : rec_to;
		if (next > rec_to) next = rec_to;
		if (next != armed) {
			struct itimerspec its = {.it_value = {.tv_sec = next / 1000000000, .tv_nsec = next % 1000000000}};
			if (timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL) < 0) die("timerfd_settime");
			armed = next;
		}
		int n = epoll_wait(ep, evs, 256, -1);
		if (n < 0 && errno == EINTR) continue;
		if (n < 0) die("epoll_wait");
		for (int e = 0; e < n; e++) {
			uint64_t id = evs[e].data.u64;
			if (id == UINT64_MAX) {
				uint64_t x;
				if (read(tfd, &x, sizeof x) < 0 && errno != EAGAIN) die("timerfd read");
				armed = 0;
				continue;
			}
			struct game *g = &games[id / 2];
			struct side *s = &g->s[id % 2];
			ssize_t r = read(s->fd, s->in + s->have, sizeof s->in - s->have);
			if (r <= 0) {
				fprintf(stderr, "cclient: game %d: the relay closed a connection\n", s->game);
				return 1;
			}
			int64_t at = now();
			s->have += r;
			int off = 0;
			while (s->have - off >= 3) {
				int len = 3 + (s->in[off + 1] << 8 | s->in[off + 2]);
				if (len > (int)sizeof s->in) {
					fprintf(stderr, "cclient: segment of %d bytes\n", len);
					return 1;
				}
				if (s->have - off < len) break;
				if (s->in[off] == 0x0d && (int)(id % 2) != g->turn) {
					// the partner's guess has arrived: time it, and answer
					// on the game's schedule
					if (at >= rec_from && at < rec_to) {
						relayed++;
						if (nlat < cap) lat[nlat++] = at - g->sent;
					}
					g->turn = id % 2;
					due(g, iv, at);
				}
				off += len;
			}
			memmove(s->in, s->in + off, s->have - off);
			s->have -= off;
		}
	}
	printf("relayed %ld seconds %.6f\n", relayed, window);
	dump(argv[8], lat, nlat);
	dump(argv[9], late, nlate);
	return 0;
}
