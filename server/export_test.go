package server

import "context"

// RecordsKept is how many finished games the engine of tr would put in a
// snapshot taken now (those its recorder has not settled).
func RecordsKept(ctx context.Context, tr Transport) (n int, err error) {
	d := tr.(interface {
		engine() *engine
		do(context.Context, func()) error
	})
	err = d.do(ctx, func() {
		d.engine().forgetSettled()
		n = len(d.engine().cl.recs)
	})
	return n, err
}
