package bot

import (
	"cmp"
	"math"
	"slices"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/bomber"
)

// The search minimises the expected number of "paid" guesses still to come:
// singles and wrong doubles. Every plane must be declared by one right
// double in the end, whatever the order, so a right double costs nothing
// beyond that declaration: total guesses = paid guesses + 3 declarations
// (less any plane that singles happen to reveal whole). That makes a double
// on a likely plane a cheap question, which is where most of the gain over
// an entropy guesser comes from.

// searcher holds the tuning of the guess search.
type searcher struct {
	beam    int  // guesses looked at beyond one step, best one-step first
	depth   int  // levels of answers searched; the last level is estimated
	entropy bool // plain highest-entropy single guesses (the baseline)
}

// defaultSearcher is the tuning NewGuesser uses: two levels, six guesses.
var defaultSearcher = searcher{beam: 6, depth: 2}

// candidate is a guess with its estimated paid cost.
type candidate struct {
	score  float64
	double bool
	idx    int // the cell, or the placement index of a double
}

// tally counts, over a set of boards, how each cell answers and how often
// each placement occurs.
type tally struct {
	n          int32
	body, head [bomber.Size * bomber.Size]int32
	place      [256]int32
}

func (t *tally) fill(set []int32) {
	*t = tally{n: int32(len(set))}
	for _, bi := range set {
		b := &geo.boards[bi]
		t.place[b.pl[0]]++
		t.place[b.pl[1]]++
		t.place[b.pl[2]]++
	}
	for p, q := range t.place[:len(geo.places)] {
		if q == 0 {
			continue
		}
		for _, c := range geo.list[p] {
			t.body[c] += q
		}
		h := geo.places[p].Head
		t.body[h] -= q
		t.head[h] += q
	}
}

// estimate is the expected paid cost of singling out one board among m
// equally likely ones, interpolated in log2(m) between costs measured over
// games of the one-step searcher (refitting them under the two-level search,
// or scaling them by 0.93 or 1.08, changed the mean by under 0.07 guesses,
// within noise).
func estimate(m int32) float64 {
	if m <= 1 {
		return 0
	}
	x := math.Log2(float64(m))
	i := int(x)
	if i >= len(estimatePoints)-1 {
		return estimatePoints[len(estimatePoints)-1]
	}
	f := x - float64(i)
	return estimatePoints[i]*(1-f) + estimatePoints[i+1]*f
}

// estimatePoints[k] is the measured paid cost with 2^k candidate boards.
var estimatePoints = [...]float64{0, 0.52, 1.27, 1.93, 2.73, 3.38, 4.06, 4.76, 5.45, 6.04, 6.88, 7.58, 8.10, 8.92, 9.53, 10.38, 11.22, 12.0}

// candidates appends every guess that tells some boards apart, scored by
// its one-step cost (or by negated entropy in baseline mode).
func (s *searcher) candidates(t *tally, buf []candidate) []candidate {
	n := float64(t.n)
	for c := range bomber.Size * bomber.Size {
		b, h := t.body[c], t.head[c]
		w := t.n - b - h
		if b == t.n || h == t.n || w == t.n {
			continue // the answer is known
		}
		var sc float64
		if s.entropy {
			sc = plogp(b, n) + plogp(h, n) + plogp(w, n)
		} else {
			sc = 1 + (float64(b)*estimate(b)+float64(h)*estimate(h)+float64(w)*estimate(w))/n
		}
		buf = append(buf, candidate{score: sc, idx: c})
	}
	if s.entropy {
		return buf
	}
	for p := range geo.places {
		q := t.place[p]
		if q == 0 || q == t.n {
			continue // never right, or certain (declared apart)
		}
		r := t.n - q
		sc := (float64(q)*estimate(q) + float64(r)*(1+estimate(r))) / n
		buf = append(buf, candidate{score: sc, double: true, idx: p})
	}
	return buf
}

func plogp(m int32, n float64) float64 {
	if m == 0 {
		return 0
	}
	p := float64(m) / n
	return p * math.Log2(p)
}

// choose picks the guess for the set of consistent boards (at least two);
// rng breaks ties between equally good guesses.
func (s *searcher) choose(set []int32, rng rules.Rand) Guess {
	var t tally
	t.fill(set)
	cands := s.candidates(&t, nil)
	if len(cands) == 0 {
		panic("bot: several boards but no guess tells them apart")
	}
	if !s.entropy && s.depth > 1 {
		sortCands(cands)
		cands = cands[:min(len(cands), s.beam)]
		for i := range cands {
			cands[i].score = s.expand(set, cands[i], s.depth, math.Inf(1))
		}
	}
	best := math.Inf(1)
	var ties []candidate
	for _, c := range cands {
		switch {
		case c.score < best-1e-9:
			best = c.score
			ties = append(ties[:0], c)
		case c.score <= best+1e-9:
			ties = append(ties, c)
		}
	}
	c := ties[rng.IntN(len(ties))]
	if c.double {
		return Guess{Double: true, Plane: geo.places[c.idx]}
	}
	return Guess{Cell: bomber.Cell(c.idx)}
}

// sortCands orders candidates cheapest first, keeping the order of equal
// ones so that the search stays deterministic.
func sortCands(cs []candidate) {
	slices.SortStableFunc(cs, func(a, b candidate) int { return cmp.Compare(a.score, b.score) })
}

// split partitions set by the answer c would get: Wrong, Body, Head for a
// single; right, wrong for a double.
func split(set []int32, c candidate) [3][]int32 {
	var out [3][]int32
	for _, bi := range set {
		b := &geo.boards[bi]
		k := 0
		switch {
		case c.double && !has(b, c.idx):
			k = 1
		case !c.double:
			k = int(outcome(b, bomber.Cell(c.idx)))
		}
		out[k] = append(out[k], bi)
	}
	return out
}

// expand is the expected paid cost of guessing c on set with depth levels
// of answers searched; it gives up once the cost reaches bound.
func (s *searcher) expand(set []int32, c candidate, depth int, bound float64) float64 {
	parts := split(set, c)
	n := float64(len(set))
	sum := 0.0
	if !c.double {
		sum = 1
	}
	for k, part := range parts {
		if len(part) == 0 {
			continue
		}
		v := s.value(part, depth-1)
		if c.double && k == 1 {
			v++ // a wrong double is paid
		}
		sum += float64(len(part)) / n * v
		if sum >= bound {
			break
		}
	}
	return sum
}

// value is the expected paid cost of singling out one board of set when
// searching depth levels ahead.
func (s *searcher) value(set []int32, depth int) float64 {
	if len(set) <= 1 {
		return 0
	}
	if depth <= 0 {
		return estimate(int32(len(set)))
	}
	var t tally
	t.fill(set)
	cands := s.candidates(&t, make([]candidate, 0, 256))
	best := math.Inf(1)
	if depth == 1 {
		// The one-step costs come straight from the tally.
		for _, c := range cands {
			best = min(best, c.score)
		}
		return best
	}
	sortCands(cands)
	for i, c := range cands {
		if i == s.beam {
			break
		}
		best = min(best, s.expand(set, c, depth, best))
	}
	return best
}
