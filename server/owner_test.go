package server

import (
	"slices"
	"testing"
)

// TestTablesOwnersSpreadAndStay: rendezvous hashing, which gives the tables
// whose node has gone to the members left, spreads 4,000 tables over four
// members within a tenth of a quarter each; when one member goes, only its
// tables change owner, and when a fifth comes, a table changes owner only
// to the newcomer.
func TestTablesOwnersSpreadAndStay(t *testing.T) {
	const tables = 4000
	four := []uint32{1, 2, 5, 9}
	owners := func(members []uint32) map[uint32]uint32 {
		m := make(map[uint32]uint32, tables)
		for id := uint32(1); id <= tables; id++ {
			o, ok := rendezvous(members, id)
			if !ok || !slices.Contains(members, o) {
				t.Fatalf("table %d: owner %d (%v) among %v", id, o, ok, members)
			}
			m[id] = o
		}
		return m
	}
	before := owners(four)
	count := map[uint32]int{}
	for _, o := range before {
		count[o]++
	}
	for _, m := range four {
		if n := count[m]; n < tables/4*9/10 || n > tables/4*11/10 {
			t.Errorf("member %d owns %d of %d tables, want about a quarter", m, n, tables)
		}
	}
	for id, o := range owners([]uint32{1, 2, 9}) {
		if before[id] != 5 && o != before[id] {
			t.Fatalf("member 5 left and table %d moved from %d to %d", id, before[id], o)
		}
	}
	for id, o := range owners([]uint32{1, 2, 5, 9, 12}) {
		if o != before[id] && o != 12 {
			t.Fatalf("member 12 came and table %d moved from %d to %d", id, before[id], o)
		}
	}
	if _, ok := rendezvous(nil, 1); ok {
		t.Fatal("a table had an owner in a world of no members")
	}
}
