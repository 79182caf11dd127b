package paisho

import "testing"

func TestBoardHas249Points(t *testing.T) {
	if n := len(Points()); n != 249 {
		t.Fatalf("%d playable points, want 249", n)
	}
	// The traditional board's rows, from the edge to the centre line.
	wantWidth := map[int]int{8: 9, 7: 11, 6: 13, 5: 15, 4: 17, 3: 17, 2: 17, 1: 17, 0: 17}
	for y := -8; y <= 8; y++ {
		width, lo, hi := 0, 9, -9
		for x := -8; x <= 8; x++ {
			if (Point{int8(x), int8(y)}).OnBoard() {
				width++
				lo, hi = min(lo, x), max(hi, x)
			}
		}
		if width != wantWidth[abs(y)] || lo != -hi || hi-lo+1 != width {
			t.Errorf("row y=%d: %d points from x=%d to %d, want %d centred and contiguous", y, width, lo, hi, wantWidth[abs(y)])
		}
	}
}

func TestBoardClippingRule(t *testing.T) {
	tests := []struct {
		p    Point
		want bool
	}{
		{Point{0, 0}, true},
		{Point{4, 8}, true},   // 16+64 = 80, the outermost kept
		{Point{5, 8}, false},  // 89
		{Point{8, 4}, true},   // 80
		{Point{6, 6}, true},   // 72
		{Point{7, 6}, false},  // 85
		{Point{5, 7}, true},   // 74
		{Point{6, 7}, false},  // 85
		{Point{8, 8}, false},  // a corner of the grid
		{Point{0, 9}, false},  // outside the grid
		{Point{-9, 0}, false}, // outside the grid
	}
	for _, tt := range tests {
		if got := tt.p.OnBoard(); got != tt.want {
			t.Errorf("%v.OnBoard() = %v, want %v", tt.p, got, tt.want)
		}
	}
}

func TestTemples(t *testing.T) {
	want := map[Point]bool{{0, 8}: true, {0, -8}: true, {8, 0}: true, {-8, 0}: true}
	got := map[Point]bool{}
	for _, p := range Points() {
		if p.IsTemple() {
			got[p] = true
		}
	}
	if len(got) != 4 {
		t.Errorf("%d temples on the board, want 4: %v", len(got), got)
	}
	for p := range want {
		if !got[p] {
			t.Errorf("%v is not a temple", p)
		}
	}
	for _, p := range Temples() {
		if !want[p] || !p.OnBoard() {
			t.Errorf("Temples() lists %v", p)
		}
	}
}

func TestPointCodeRoundTrip(t *testing.T) {
	for _, p := range Points() {
		if back := PointFromCode(PointCode(p)); back != p {
			t.Fatalf("PointFromCode(PointCode(%v)) = %v", p, back)
		}
	}
}
