package load

import (
	"fmt"
	"math/rand/v2"
	"runtime"
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
	f := New(Config{Seed: 1})
	c := f.newClient(1, invitee)
	c.g = &game{}
	var peer int
	c.fd, peer = socketPair(t)
	p := &poller{f: f, clients: map[int]*client{c.fd: c}, buf: make([]byte, 64<<10), oob: make([]byte, 128)}
	burst := segment.NewSingle(segment.Coord{X: 3, Y: 4}, segment.ASCII).AppendTo(notices(200)) // a guess: the player is not playing, so it only counts
	before := f.Counters().Relayed
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := unix.Write(peer, burst); err != nil {
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
	events := readablePlayers(t, p, 255, notices(1600))
	guesser := f.newClient(0, inviter)
	guesser.g, guesser.loop = &game{}, p
	var peer int
	guesser.fd, peer = socketPair(t)
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

// socketPair is a connected pair of non-blocking stream sockets, closed
// when the test ends: mine for a client, peer for the server's end.
func socketPair(t *testing.T) (mine, peer int) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fds[0]); unix.Close(fds[1]) })
	return fds[1], fds[0]
}

// testPoller is a poll loop of its own fleet's, closed when the test ends;
// the test plays it by hand (nothing runs its loop).
func testPoller(t *testing.T) *poller {
	t.Helper()
	p, err := newPoller(New(Config{Seed: 1}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.close)
	return p
}

// sendGuess has a send its next guess and returns what the server's end
// of its socket read: the guess, to be relayed.
func sendGuess(t *testing.T, a *client, aPeer int) []byte {
	t.Helper()
	if !a.send(a.f.now()) {
		t.Fatal("the guess was not sent")
	}
	guess := make([]byte, 64)
	n, err := unix.Read(aPeer, guess)
	if err != nil || n < 3 || segment.Type(guess[0]) != segment.SingleCoord {
		t.Fatalf("the server end read %d bytes (% x), %v: not a guess", n, guess[:max(n, 0)], err)
	}
	return guess[:n]
}

// testGame is a game of two clients on loop p, in open loop (latencies are
// recorded): the inviter a guesses, the invitee b answers.
func testGame(t *testing.T, p *poller) (a, b *client, aPeer, bPeer int) {
	t.Helper()
	f := p.f
	a, b = f.newClient(0, inviter), f.newClient(1, invitee)
	g := &game{}
	a.g, b.g, a.mate, b.mate, a.loop, b.loop = g, g, b, a, p, p
	a.fd, aPeer = socketPair(t)
	b.fd, bPeer = socketPair(t)
	p.clients[a.fd], p.clients[b.fd] = a, b
	f.interval.Store(int64(time.Second))
	f.awaitOn.Store(true)
	f.Record(true)
	return a, b, aPeer, bPeer
}

// readablePlayers adds n players to loop p (users 2, 3, ...), each with
// data waiting on its socket, and returns the events epoll would report
// for them: a storm's presence reaching every player at once.
func readablePlayers(t *testing.T, p *poller, n int, data []byte) []unix.EpollEvent {
	t.Helper()
	var events []unix.EpollEvent
	for i := range n {
		c := p.f.newClient(2+i, invitee)
		c.g = &game{}
		var peer int
		c.fd, peer = socketPair(t)
		if _, err := unix.Write(peer, data); err != nil {
			t.Fatal(err)
		}
		p.clients[c.fd] = c
		events = append(events, unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(c.fd)})
	}
	return events
}

// notices is n online notices, as a storm's presence sweep writes them.
func notices(n int) []byte {
	var b []byte
	for i := range n {
		b = segment.Name(segment.NewOnline, fmt.Sprintf("u%06d", i)).AppendTo(b)
	}
	return b
}

// TestAwaitedAnswerReadBeforeABurst: the answer to a guess that reaches
// its player's socket while a storm's presence makes hundreds of the
// loop's sockets readable is read within the first few reads, not after
// the burst, though epoll reported its socket last: in a storm the load
// generator's own reading was most of the relay latency it reported
// (poller.awaiting). The burst is 255 sockets of 1,600 notices each; the
// answer must be read before the loop has spent half of the burst's time.
func TestAwaitedAnswerReadBeforeABurst(t *testing.T) {
	p := testPoller(t)
	f := p.f
	a, b, aPeer, bPeer := testGame(t, p)
	events := readablePlayers(t, p, 255, notices(1600))
	events = append(events, unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(b.fd)})
	t0 := f.now()
	guess := sendGuess(t, a, aPeer)
	// the server relays it behind the notices it owes b
	if _, err := unix.Write(bPeer, append(notices(50), guess...)); err != nil {
		t.Fatal(err)
	}
	if !p.dispatch(events) {
		t.Fatal("dispatch stopped")
	}
	took := time.Duration(f.now() - t0)
	l := f.TakeLatencies()
	if l.Relay.TotalCount() != 1 {
		t.Fatalf("%d answers read, want 1", l.Relay.TotalCount())
	}
	relay := Summarise(l.Relay).Max
	t.Logf("burst of reads %v, the answer read %v after its guess was sent", took, relay)
	if relay > took/2 {
		t.Errorf("the answer was read %v after the guess, in a burst of %v: it waited for most of the burst", relay, took)
	}
	if b.awaits {
		t.Error("b still awaits the answer it has read")
	}
}

// TestAwaitedSocketBackAfterPresence: a socket that becomes readable with
// presence only, before the answer, is read and stays awaited until the
// answer comes; once the answer is read it is no longer looked at first.
func TestAwaitedSocketBackAfterPresence(t *testing.T) {
	p := testPoller(t)
	a, b, aPeer, bPeer := testGame(t, p)
	guess := sendGuess(t, a, aPeer)
	unread := func() int {
		peek := make([]byte, 1)
		k, _, err := unix.Recvfrom(b.fd, peek, unix.MSG_PEEK|unix.MSG_DONTWAIT)
		if err != nil {
			return 0
		}
		return k
	}
	step := func(what string, data []byte, wantRead bool, wantRelayed int64) {
		t.Helper()
		before := p.f.Counters().Relayed
		if _, err := unix.Write(bPeer, data); err != nil {
			t.Fatal(err)
		}
		p.readAwaited()
		if read := unread() == 0; read != wantRead {
			t.Errorf("%s: read %v, want %v", what, read, wantRead)
		}
		if got := p.f.Counters().Relayed - before; got != wantRelayed {
			t.Errorf("%s: %d answers read, want %d", what, got, wantRelayed)
		}
	}
	step("presence before the answer", notices(20), true, 0)
	if !b.awaits {
		t.Fatal("b no longer awaits the answer after reading presence")
	}
	step("the answer", guess, true, 1)
	step("presence after the answer", notices(20), false, 0)
}

// TestAnsweredSocketsLeftToTheLoop: sockets whose answers the loop read
// the ordinary way are still in awaitfd, and a storm's presence makes all
// of them readable at once. They must neither be read ahead of the loop
// (they await nothing) nor hide the one socket that does await its
// answer: 300 such players here, more than one epoll_wait returns, and
// the one awaiting was put in awaitfd last.
func TestAnsweredSocketsLeftToTheLoop(t *testing.T) {
	p := testPoller(t)
	f := p.f
	burst := notices(100)
	var answered []int // their server ends
	for i := range 300 {
		c := f.newClient(10+i, invitee)
		c.g, c.loop = &game{}, p
		var peer int
		c.fd, peer = socketPair(t)
		p.clients[c.fd] = c
		p.awaiting(c)
		c.answered() // by the loop
		answered = append(answered, peer)
	}
	a, b, aPeer, bPeer := testGame(t, p)
	guess := sendGuess(t, a, aPeer)
	for _, peer := range answered {
		if _, err := unix.Write(peer, burst); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := unix.Write(bPeer, append(notices(100), guess...)); err != nil {
		t.Fatal(err)
	}
	before := f.Counters().Relayed
	p.readAwaited()
	if got := f.Counters().Relayed - before; got != 1 || b.awaits {
		t.Errorf("%d answers read, b awaiting %v: want its answer read", got, b.awaits)
	}
	unread := 0
	for fd, c := range p.clients {
		if c == a || c == b {
			continue
		}
		peek := make([]byte, 1)
		if k, _, err := unix.Recvfrom(fd, peek, unix.MSG_PEEK|unix.MSG_DONTWAIT); err == nil && k > 0 {
			unread++
		}
	}
	if unread != len(answered) {
		t.Errorf("%d of %d players awaiting nothing were read ahead of the loop", len(answered)-unread, len(answered))
	}
}

// TestGameOverEndsTheWait: a player awaiting a guess that gets GameOver
// instead (its opponent left, and bomberd ended the game) awaits nothing
// more; one that kept awaiting would hold one of the loop's places
// (maxAwaiting) and be read ahead of the loop for every notice it gets
// from then on.
func TestGameOverEndsTheWait(t *testing.T) {
	p := testPoller(t)
	a, b, aPeer, bPeer := testGame(t, p)
	sendGuess(t, a, aPeer)
	if !b.awaits {
		t.Fatal("b does not await the guess its opponent sent")
	}
	if _, err := unix.Write(bPeer, segment.Empty(segment.GameOver).AppendTo(nil)); err != nil {
		t.Fatal(err)
	}
	p.read(b)
	if b.awaits {
		t.Error("b still awaits a guess after GameOver")
	}
}

// TestAwaitingIsCapped: at most maxAwaiting of a loop's players await at
// once (near saturation nearly all would, for nothing), and a player's
// answer, GameOver or closed socket frees its place.
func TestAwaitingIsCapped(t *testing.T) {
	p := testPoller(t)
	var cs []*client
	for i := range maxAwaiting + 1 {
		c := p.f.newClient(i, invitee)
		c.g, c.loop = &game{}, p
		c.fd, _ = socketPair(t)
		p.clients[c.fd] = c
		p.awaiting(c)
		cs = append(cs, c)
	}
	last := cs[maxAwaiting]
	if last.awaits || !cs[0].awaits || p.nAwaiting != maxAwaiting {
		t.Fatalf("%d awaiting, the first %v, the last %v: want %d, the first only", p.nAwaiting, cs[0].awaits, last.awaits, maxAwaiting)
	}
	cs[0].answered()
	p.awaiting(last)
	if !last.awaits {
		t.Error("a place freed by an answer was not taken")
	}
	p.drop(cs[1])
	if p.nAwaiting != maxAwaiting-1 {
		t.Errorf("%d awaiting after a player awaiting was dropped, want %d", p.nAwaiting, maxAwaiting-1)
	}
}

// TestAwaitingOnlyWellBelowSaturation: answers are awaited in open loop
// at rates up to awaitBelow per loop, where a loop's time can go to
// presence; above, and in closed loop, a guess arms nothing.
func TestAwaitingOnlyWellBelowSaturation(t *testing.T) {
	p := testPoller(t)
	f := p.f
	f.pollers = []*poller{p}
	f.games.Store(1000)
	for _, tc := range []struct {
		rate float64
		want bool
	}{{2000, true}, {awaitBelow, true}, {70000, false}, {0, false}} {
		f.SetRate(tc.rate)
		if got := f.awaitOn.Load(); got != tc.want {
			t.Errorf("at %v guesses/s awaiting %v, want %v", tc.rate, got, tc.want)
		}
	}
	a, b, aPeer, _ := testGame(t, p)
	f.SetRate(70000)
	sendGuess(t, a, aPeer)
	if b.awaits || p.nAwaiting != 0 {
		t.Errorf("at 70,000 guesses/s a guess made its opponent await (%d awaiting)", p.nAwaiting)
	}
}

// TestLoopsKeepAPBesides: a fleet whose loops take every P the process
// has (the bench pins the load generator to one CPU: GOMAXPROCS 1) gets
// one more, so a loop back from epoll_wait finds its P instead of
// queueing behind the runtime's monitor and other goroutines for it.
func TestLoopsKeepAPBesides(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f := New(Config{Seed: 1})
	if err := f.startPollers(1); err != nil {
		t.Fatal(err)
	}
	defer f.Close(5 * time.Second)
	if got := runtime.GOMAXPROCS(0); got <= len(f.pollers) {
		t.Errorf("GOMAXPROCS %d with %d poll loops: the loops have no P besides theirs", got, len(f.pollers))
	}
	if n := loopCPUs(); n < 1 {
		t.Errorf("%d CPUs to run loops on", n)
	}
}
