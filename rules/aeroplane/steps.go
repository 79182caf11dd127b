package aeroplane

// Step kinds, in the order Play reports them. Positions in steps are
// progress values of the piece's own colour (see TrackIndex); Player is the
// owner of the piece the step is about.
const (
	StepRoll       uint8 = iota + 1 // the die rolled: A face, B sixes in a row this turn if it is a six, else 0
	StepLaunch                      // A piece left the camp for the starting space
	StepMove                        // A piece moved B -> C by the die
	StepBounce                      // A piece bounced back from the centre B -> C (exact-finish)
	StepJump                        // A piece jumped B -> C to the next space of its colour
	StepFlight                      // A piece flew its shortcut B -> C
	StepCapture                     // A piece, at B, was sent back to camp by seat C
	StepFinish                      // A piece reached the centre
	StepThreeSixes                  // the third six in a row: unusable, A is the face (6)
	StepReturn                      // A piece, at B, went back to camp for the three sixes
	StepNoMove                      // no piece can use face A; the roll is lost
	StepTurn                        // Player is to roll next; A is 1 for the extra roll after a six, else 0
	StepWin                         // Player has all four pieces home and wins
	StepResign                      // Player resigned and left; its pieces are off the board
)
