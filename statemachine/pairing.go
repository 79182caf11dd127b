package statemachine

// Quick pairing ("Play <game> now", feature FeaturePairing): a player sends
// Seek with a game, a time control and the rated flag; the hub asks the
// store for the player's ratings (a Ratings query), then puts the player in
// the pool of that game, time control and rated flag. Pairing rounds run
// every PairRound while anyone waits (a deadline NextDeadline reports, so a
// cluster's leader ticks for them): each pairs the closest ratings whose
// ranges both contain the other. A player's range is PairRange at first
// (twice that for a provisional rating), widens by PairWiden per second of
// waiting and stops at PairRangeCap. After PairComputerAfter the player is
// offered a computer opponent as well (and may still be paired with a
// person until it accepts). Paired players get a new table of the game,
// both seated, and the game starts at once.

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bomber-game/bomber/account/glicko2"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// Pairing defaults (Config.Pair*).
const (
	DefaultPairRound         = time.Second      // a round a second
	DefaultPairRange         = 100              // rating points accepted at once
	DefaultPairWiden         = 10               // more points per second of waiting
	DefaultPairRangeCap      = 500              // the widest range
	DefaultPairComputerAfter = 20 * time.Second // then a computer is offered
)

// ProvisionalDeviation is the rating deviation above which a rating is
// provisional, for the hub as for the store (glicko2's). A provisional
// player's range starts twice as wide: its rating says less.
const ProvisionalDeviation = glicko2.ProvisionalDeviation

// The rating of a player with none for the game: Glicko-2's starting one,
// provisional.
const defaultRating = int(glicko2.DefaultRating)

// pairWaitBounds are the upper bounds, in seconds, of Stats.PairWaits'
// buckets (the last bucket takes longer waits).
var pairWaitBounds = [...]int64{1, 2, 5, 10, 20, 30, 60}

// PairWaitBounds are the upper bounds, in seconds, of Stats.PairWaits'
// buckets but the last, which counts the longer waits.
func PairWaitBounds() []int64 { return pairWaitBounds[:] }

// seeker is a player's seek: waiting for its ratings (known false), then in
// the pool.
type seeker struct {
	s       *session
	game    string
	clock   string // the time control: "key=value" clock options, sorted, space-separated
	rated   bool
	known   bool  // the store answered: the seeker is in h.seekers
	prov    bool  // provisional rating
	offered bool  // a computer was offered
	rating  int   // the rating the pool uses
	since   int64 // when it entered the pool (when it asked, until then)
	last    int64 // when the player was last told of its seek
	sent    int   // the range last told the player
}

// pool is the key of the pool sk waits in.
func (sk *seeker) pool() string {
	r := "casual"
	if sk.rated {
		r = "rated"
	}
	return sk.game + "\x00" + sk.clock + "\x00" + r
}

// clockOptions are sk's time control as options.
func (sk *seeker) clockOptions() rules.Options {
	o := rules.Options{}
	for _, kv := range strings.Fields(sk.clock) {
		k, v, _ := strings.Cut(kv, "=")
		o[k] = v
	}
	return o
}

// rangeAt is how far from its rating sk accepts an opponent at now.
func (h *Hub) rangeAt(sk *seeker, now int64) int {
	base := h.cfg.PairRange
	if sk.prov {
		base *= 2
	}
	waited := max(now-sk.since, 0) / 1e9
	return int(min(int64(base)+int64(h.cfg.PairWiden)*waited, int64(max(h.cfg.PairRangeCap, base))))
}

// seek handles a Seek message.
func (h *Hub) seek(now int64, s *session, body []byte) {
	m, err := segment.DecodeSeekMsg(body)
	switch {
	case !s.has(segment.FeaturePairing):
		h.fail(s, segment.Seek, segment.ErrCodeBadRequest, "Seek needs feature 512")
		return
	case err != nil:
		h.fail(s, segment.Seek, segment.ErrCodeBadRequest, "malformed Seek")
		return
	}
	switch m.Action {
	case segment.SeekCancel:
		if s.x.seek == nil {
			h.fail(s, segment.Seek, segment.ErrCodeBadRequest, "not seeking")
			return
		}
		h.stats.Pairing.SeeksCancelled++
		h.endSeek(now, s, segment.SeekCancelled)
	case segment.SeekComputer:
		if sk := s.x.seek; sk == nil || !sk.offered {
			h.fail(s, segment.Seek, segment.ErrCodeNotAllowed, "no computer offered")
			return
		}
		h.playComputer(now, s)
	case segment.SeekPlay:
		h.seekPlay(now, s, m)
	default:
		h.fail(s, segment.Seek, segment.ErrCodeBadRequest, "unknown Seek action")
	}
}

// seekPlay checks a seek and asks the store for the player's ratings; the
// player enters the pool when they arrive (seekRated).
func (h *Hub) seekPlay(now int64, s *session, m segment.SeekMsg) {
	if s.table != nil {
		h.fail(s, segment.Seek, segment.ErrCodeAtTable, "leave the table first")
		return
	}
	e := h.games[m.Game]
	if e == nil {
		h.fail(s, segment.Seek, segment.ErrCodeUnknownGame, "no such game")
		return
	}
	if e.Spec.MinPlayers > 2 || e.Spec.MaxPlayers < 2 {
		h.fail(s, segment.Seek, segment.ErrCodeBadOption, e.Spec.Name+" is not for two")
		return
	}
	if m.Rated > 1 {
		h.fail(s, segment.Seek, segment.ErrCodeBadOption, "rated is 0 or 1")
		return
	}
	opts := rules.Options{}
	for _, kv := range m.Options {
		if kv.Key != clockMove && kv.Key != clockTotal && kv.Key != clockInc {
			h.fail(s, segment.Seek, segment.ErrCodeBadOption, trim(kv.Key+": only clock options pair"))
			return
		}
		opts[kv.Key] = kv.Value
	}
	if _, _, err := parseClock(opts); err != nil {
		h.fail(s, segment.Seek, segment.ErrCodeBadOption, refusal(err))
		return
	}
	var clock []string
	for _, k := range sortedKeys(opts) {
		n, _ := strconv.Atoi(opts[k]) // checked by parseClock: one spelling per time control
		clock = append(clock, k+"="+strconv.Itoa(n))
	}
	h.leavePool(s) // a new seek replaces the old one
	s.x.seek = &seeker{s: s, game: e.Spec.Name, clock: strings.Join(clock, " "), rated: m.Rated == 1, since: now}
	h.stats.Pairing.Seeks++
	h.ask(s, Check{Kind: Ratings, User: s.name})
}

// seekRated: the store answered s's Ratings query (data: a line "game
// rating deviation games" per rated game) for its seek, which enters the
// pool. A store that cannot answer leaves the player at the default rating.
func (h *Hub) seekRated(now int64, s *session, a Answer, data string) {
	sk := s.x.seek
	sk.rating, sk.prov = defaultRating, true
	if a == Found {
		for _, line := range strings.Split(data, "\n") {
			f := strings.Fields(line)
			if len(f) < 3 || f[0] != sk.game {
				continue
			}
			r, err1 := strconv.Atoi(f[1])
			d, err2 := strconv.Atoi(f[2])
			if err1 == nil && err2 == nil && r > 0 && r <= math.MaxUint16 {
				sk.rating, sk.prov = r, d > ProvisionalDeviation
			}
		}
	}
	sk.known, sk.since = true, now
	sk.sent = h.rangeAt(sk, now)
	if len(h.seekers) == 0 {
		h.pairAt = now + int64(h.cfg.PairRound)
	}
	h.seekers = append(h.seekers, sk)
	h.sendSeeking(now, sk, segment.SeekWaiting)
}

// sendSeeking tells sk's player the state of its seek.
func (h *Hub) sendSeeking(now int64, sk *seeker, state uint8) {
	sk.last = now
	r := h.rangeAt(sk, now)
	b := segment.SeekingBody{State: state, Game: sk.game, Rating: uint16(sk.rating), Waited: uint16(min(max(now-sk.since, 0)/1e9, math.MaxUint16))}
	b.Low, b.High = uint16(max(sk.rating-r, 0)), uint16(min(sk.rating+r, math.MaxUint16))
	if sk.rated {
		b.Rated = 1
	}
	if sk.offered {
		b.Flags |= segment.SeekComputerOffered
	}
	if sk.prov {
		b.Flags |= segment.SeekProvisional
	}
	for _, kv := range strings.Fields(sk.clock) {
		k, v, _ := strings.Cut(kv, "=")
		b.Options = append(b.Options, segment.KV{Key: k, Value: v})
	}
	h.sendMsg(sk.s, segment.Seeking, b.Append(h.body()))
}

// leavePool takes s's seek away, telling nobody (s closed, or is told
// otherwise).
func (h *Hub) leavePool(s *session) *seeker {
	if s.x == nil || s.x.seek == nil {
		return nil
	}
	sk := s.x.seek
	s.x.seek = nil
	if i := slices.Index(h.seekers, sk); i >= 0 {
		h.seekers = slices.Delete(h.seekers, i, i+1)
	}
	if len(h.seekers) == 0 {
		h.pairAt = 0
	}
	return sk
}

// endSeek ends s's seek at now and tells it why (paired or cancelled).
func (h *Hub) endSeek(now int64, s *session, state uint8) {
	if sk := h.leavePool(s); sk != nil {
		h.sendSeeking(now, sk, state)
	}
}

// cancelSeek: s sits, watches or plays elsewhere, which ends its seek (as
// of the last time it was told of it: a seat is taken without a clock).
func (h *Hub) cancelSeek(s *session) {
	if s.x != nil && s.x.seek != nil {
		h.stats.Pairing.SeeksCancelled++
		h.endSeek(s.x.seek.last, s, segment.SeekCancelled)
	}
}

// pairRound pairs the pools and widens the ranges of those left (at
// PairRound intervals, from tick).
func (h *Hub) pairRound(now int64) {
	if len(h.seekers) == 0 || now < h.pairAt {
		return
	}
	pools := make(map[string][]*seeker)
	var keys []string
	for _, sk := range h.seekers {
		if sk.s.state != ServerStandBy {
			continue // answering a reference invitation: waits a round
		}
		k := sk.pool()
		if pools[k] == nil {
			keys = append(keys, k)
		}
		pools[k] = append(pools[k], sk)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, p := range h.pairPool(now, pools[k]) {
			if len(h.tables) >= h.cfg.MaxTables {
				break // the server is full: they wait for a table to close
			}
			h.pair(now, p[0], p[1])
		}
	}
	for _, sk := range h.seekers {
		changed := false
		if r := h.rangeAt(sk, now); r != sk.sent {
			sk.sent, changed = r, true
		}
		if !sk.offered && now-sk.since >= int64(h.cfg.PairComputerAfter) {
			sk.offered, changed = true, true
			h.stats.Pairing.ComputerOffers++
		}
		if changed {
			h.sendSeeking(now, sk, segment.SeekWaiting)
		}
	}
	if len(h.seekers) > 0 {
		h.pairAt = now + int64(h.cfg.PairRound)
	}
}

// pairPool chooses the pairs of one pool: closest ratings first, each pair
// within both players' ranges. Pairs are sought between neighbours in
// rating order, again among those left until no pair is found, so a round
// costs O(n log n) however large the pool.
func (h *Hub) pairPool(now int64, sks []*seeker) [][2]*seeker {
	slices.SortStableFunc(sks, func(a, b *seeker) int {
		return cmp.Or(cmp.Compare(a.rating, b.rating), cmp.Compare(a.since, b.since))
	})
	ranges := make(map[*seeker]int, len(sks))
	for _, sk := range sks {
		ranges[sk] = h.rangeAt(sk, now)
	}
	type cand struct {
		a, b *seeker
		diff int
	}
	var pairs [][2]*seeker
	var cands []cand
	for {
		cands = cands[:0]
		for i := 1; i < len(sks); i++ {
			a, b := sks[i-1], sks[i]
			if d := b.rating - a.rating; d <= ranges[a] && d <= ranges[b] {
				cands = append(cands, cand{a, b, d})
			}
		}
		if len(cands) == 0 {
			return pairs
		}
		// closest first; among equals, whoever waited longest
		slices.SortStableFunc(cands, func(x, y cand) int {
			return cmp.Or(cmp.Compare(x.diff, y.diff), cmp.Compare(min(x.a.since, x.b.since), min(y.a.since, y.b.since)))
		})
		taken := make(map[*seeker]bool, 2*len(cands))
		for _, c := range cands {
			if !taken[c.a] && !taken[c.b] {
				taken[c.a], taken[c.b] = true, true
				pairs = append(pairs, [2]*seeker{c.a, c.b})
			}
		}
		sks = slices.DeleteFunc(sks, func(sk *seeker) bool { return taken[sk] })
	}
}

// newPairTable opens a two-seat table of sk's game and time control, made
// by the hub for a pairing (rated as sk asks unless the computer plays).
func (h *Hub) newPairTable(sk *seeker, rated bool) *table {
	e := h.games[sk.game]
	opts := sk.clockOptions()
	if rated {
		opts[record.RatedOption] = "true"
	}
	clock, _, _ := parseClock(opts) // checked at the seek
	t := &table{kind: e, opts: opts, seats: make([]seatSlot, 2), clock: clock}
	h.openTable(t, sk.s)
	return t
}

// pair seats a and b at a new table and starts the game. Who sits first
// is drawn, as colours are.
func (h *Hub) pair(now int64, a, b *seeker) {
	var coin [1]byte
	h.entropy(coin[:])
	if coin[0]&1 == 1 {
		a, b = b, a
	}
	t := h.newPairTable(a, a.rated)
	for _, sk := range []*seeker{a, b} {
		h.notePairWait(now - sk.since)
		h.endSeek(now, sk.s, segment.SeekPaired)
	}
	h.stats.Pairing.Pairings++
	h.sit(a.s, t, 0)
	h.sit(b.s, t, 1)
	h.startTable(now, t)
}

// playComputer: s accepts the computer it was offered; a computer game is
// casual (computer seats leave ratings alone).
func (h *Hub) playComputer(now int64, s *session) {
	if len(h.tables) >= h.cfg.MaxTables {
		h.fail(s, segment.Seek, segment.ErrCodeTooManyTables, "too many tables")
		return
	}
	sk := s.x.seek
	t := h.newPairTable(sk, false)
	h.notePairWait(now - sk.since)
	h.endSeek(now, s, segment.SeekPaired)
	h.stats.Pairing.ComputerGames++
	h.sit(s, t, 0)
	h.seatTo(t, 1, lifeBot, nil)
	h.stats.BotSeats++
	h.startTable(now, t)
}

// notePairWait counts a wait in Stats.PairWaits.
func (h *Hub) notePairWait(d int64) {
	i := 0
	for i < len(pairWaitBounds) && d > pairWaitBounds[i]*1e9 {
		i++
	}
	h.stats.Pairing.PairWaits[i]++
}

// PoolInfo is one pairing pool for operators: its game, time control
// (clock options, space-separated), rated flag and how many wait in it.
type PoolInfo struct {
	Game    string
	Clock   string
	Rated   bool
	Waiting int
}

// Pools appends the pairing pools that have someone waiting, by game, time
// control and rated flag.
func (h *Hub) Pools(buf []PoolInfo) []PoolInfo {
	start := len(buf)
	for _, sk := range h.seekers {
		i := slices.IndexFunc(buf[start:], func(p PoolInfo) bool {
			return p.Game == sk.game && p.Clock == sk.clock && p.Rated == sk.rated
		})
		if i < 0 {
			buf = append(buf, PoolInfo{Game: sk.game, Clock: sk.clock, Rated: sk.rated})
			i = len(buf) - 1 - start
		}
		buf[start+i].Waiting++
	}
	slices.SortFunc(buf[start:], func(a, b PoolInfo) int {
		return cmp.Or(cmp.Compare(a.Game, b.Game), cmp.Compare(a.Clock, b.Clock), cmp.Compare(b2i(a.Rated), b2i(b.Rated)))
	})
	return buf
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
