package statemachine

// StepTime lets time pass in h at now as the shell does: it steps the
// inputs TickInputs gives, in order.
func StepTime(h *Hub, now int64) {
	for _, in := range h.TickInputs(now, nil) {
		h.Step(now, in)
	}
}
