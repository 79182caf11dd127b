package load

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
	"golang.org/x/sys/unix"
)

// TestPollLoopReadsPresenceWithoutGarbage: a game player's poll loop reads
// a stream of online notices (a login storm's presence, with a relayed
// guess among them) without allocating. During a storm the load
// generator's one loop reads millions of such segments, and it allocated
// for each (the segment handed to the handler) and for every read (the
// socket address unix.Recvmsg returns): garbage collected on the one P
// that also sends and reads the games' guesses (docs/performance.md).
func TestPollLoopReadsPresenceWithoutGarbage(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	f := New(Config{Seed: 1})
	c := f.newClient(1, invitee)
	c.g = &game{}
	c.fd = fds[1]
	p := &poller{f: f, clients: map[int]*client{c.fd: c}, buf: make([]byte, 64<<10), oob: make([]byte, 128)}
	var burst []byte
	for i := range 200 {
		burst = segment.Name(segment.NewOnline, fmt.Sprintf("u%06d", i)).AppendTo(burst)
	}
	burst = segment.NewSingle(segment.Coord{X: 3, Y: 4}, segment.ASCII).AppendTo(burst) // a guess: the player is not playing, so it only counts
	before := f.Counters().Relayed
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := unix.Write(fds[0], burst); err != nil {
			t.Fatal(err)
		}
		p.read(c)
	})
	if c.fd < 0 {
		t.Fatal("the loop dropped the client: it could not read the notices")
	}
	if got := f.Counters().Relayed - before; got != 51 { // AllocsPerRun runs once more to warm up
		t.Fatalf("%d guesses counted among the notices, want 51: the reads did not decode the stream", got)
	}
	if allocs != 0 {
		t.Errorf("%v allocations per read of 200 notices and a guess, want none", allocs)
	}
}

// TestTimersPopInOrder: the poll loop's timers come out earliest first,
// however they went in, and pushing and popping allocates nothing once the
// heap has room (one of each per guess in open loop).
func TestTimersPopInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h timers
	var want []int64
	for range 1000 {
		at := rng.Int64N(500) // repeats too
		h.push(timer{at: at})
		want = append(want, at)
	}
	slices.Sort(want)
	var got []int64
	for len(h) > 0 {
		got = append(got, h.pop().at)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("popped out of order: %v", got)
	}
	h = make(timers, 0, 8)
	if a := testing.AllocsPerRun(100, func() {
		h.push(timer{at: 2})
		h.push(timer{at: 1})
		if h.pop().at != 1 || h.pop().at != 2 {
			t.Fatal("pop is not the earliest")
		}
	}); a != 0 {
		t.Errorf("%v allocations per two pushes and pops, want none", a)
	}
}

// TestGuessNotHeldByAReadBurst: a guess that falls due while the loop
// reads a burst of readable sockets (a storm's presence reaching every
// player at once) is sent within the first few reads, not after the
// burst: the load generator's lateness in sending is counted as relay
// latency. The burst here is 255 sockets of 1,600 notices each; the guess
// must go out before the loop has spent half of the burst's time.
func TestGuessNotHeldByAReadBurst(t *testing.T) {
	f := New(Config{Seed: 1})
	p := &poller{f: f, wakefd: -1, timerfd: -1, clients: map[int]*client{}, buf: make([]byte, 64<<10), oob: make([]byte, 128)}
	pair := func() (mine, peer int) {
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { unix.Close(fds[0]); unix.Close(fds[1]) })
		return fds[1], fds[0]
	}
	var notices []byte
	for i := range 1600 {
		notices = segment.Name(segment.NewOnline, fmt.Sprintf("u%06d", i)).AppendTo(notices)
	}
	var events []unix.EpollEvent
	for i := range 255 {
		c := f.newClient(2+i, invitee)
		c.g = &game{}
		var peer int
		c.fd, peer = pair()
		if _, err := unix.Write(peer, notices); err != nil {
			t.Fatal(err)
		}
		p.clients[c.fd] = c
		events = append(events, unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(c.fd)})
	}
	guesser := f.newClient(0, inviter)
	guesser.g, guesser.loop = &game{}, p
	var peer int
	guesser.fd, peer = pair()
	p.clients[guesser.fd] = guesser
	f.interval.Store(int64(time.Second)) // open loop: lateness is recorded
	f.Record(true)
	t0 := f.now()
	p.after(t0, guesser, timerGuess)
	if !p.dispatch(events) {
		t.Fatal("dispatch stopped")
	}
	burst := time.Duration(f.now() - t0)
	got := make([]byte, 64)
	if n, err := unix.Read(peer, got); err != nil || n < 3 || segment.Type(got[0]) != segment.SingleCoord {
		t.Fatalf("the guess was not sent during the burst: read %d bytes (% x), %v", n, got[:max(n, 0)], err)
	}
	late := Summarise(f.TakeLatencies().Late).Max
	t.Logf("burst of reads %v, the guess sent %v late", burst, late)
	if late > burst/2 {
		t.Errorf("the guess was sent %v late, in a burst of reads of %v: it waited for most of it", late, burst)
	}
}
