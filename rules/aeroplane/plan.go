package aeroplane

// travel is where a piece goes with one face, before captures: the space
// the die count reaches, then any bounce, jump and flight in that order.
// Fields other than from and final are 0 when that part does not happen.
type travel struct {
	from   int // progress before the move (Camp to launch)
	land   int // progress the die count reaches (Start for a launch)
	bounce int // progress after bouncing back from the centre
	jump   int // progress after a jump
	flight int // progress after a flight
	final  int // where the piece comes to rest
}

// plan computes the route of a piece at progress from (its owner's colour
// is implied: every colour's route has the same shape) moved by face. The
// caller has checked that the piece may move.
func plan(from, face int, s Settings) travel {
	t := travel{from: from}
	if from == Camp {
		t.land, t.final = Start, Start
		return t
	}
	q := from + face
	if q >= Centre {
		t.land, t.final = Centre, Centre
		if s.ExactFinish && q > Centre {
			t.bounce = 2*Centre - q
			t.final = t.bounce
		}
		return t
	}
	t.land, t.final = q, q
	if !ownColour(q) || q == LastTrack {
		return t
	}
	if q != Shortcut {
		t.jump = q + JumpLen
		t.final = t.jump
	}
	// A jump may end on the shortcut and fly on; a flight never jumps after.
	if t.final == Shortcut {
		t.flight = FlightEnd
		t.final = FlightEnd
	}
	return t
}
