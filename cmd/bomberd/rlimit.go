package main

import (
	"errors"
	"fmt"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/cmd/internal/config"
	"github.com/bomber-game/bomber/server"
)

// errNoDescriptors: the open-file limit leaves no room for a connection.
var errNoDescriptors = errors.New("the open-file limit (RLIMIT_NOFILE) leaves no descriptor for connections")

// fitConnections raises the soft open-file limit to the hard one and checks
// that limits.max_connections fits in it next to the listeners and the
// daemon's own descriptors. When it does not, the connection limit is
// lowered to what fits, with a warning that says how to raise the limit, so
// the daemon refuses connections cleanly at its limit (counted as
// rejected) instead of failing accept with EMFILE.
func fitConnections(scfg *server.Config, cfg *config.Config, log *zap.Logger) error {
	listeners := 1 // the game port (socket activation may bring more; the reserve covers them)
	if cfg.TLS.Listen != "" {
		listeners++
	}
	if cfg.Admin.Listen != "" {
		listeners++
	}
	fl, err := server.FitFileLimit(listeners)
	if err != nil {
		log.Warn("cannot read the open-file limit; max_connections not checked", zap.Error(err))
		return nil
	}
	if fl.Raised {
		log.Info("raised the open-file soft limit to the hard limit", zap.Uint64("limit", fl.Soft))
	}
	want := scfg.MaxConns
	if want <= 0 {
		want = server.DefaultMaxConns
	}
	switch {
	case fl.Fit <= 0:
		return fmt.Errorf("%w (soft %d, hard %d; %d are reserved): raise LimitNOFILE= or ulimit -n", errNoDescriptors, fl.Soft, fl.Hard, listeners+server.ReservedDescriptors)
	case want > fl.Fit:
		log.Warn("limits.max_connections does not fit in the open-file limit; lowering it to what fits (raise LimitNOFILE= in the unit, or ulimit -Hn, to serve more)",
			zap.Int("max_connections", want), zap.Int("lowered_to", fl.Fit), zap.Uint64("rlimit_nofile", fl.Soft),
			zap.Int("listeners", listeners), zap.Int("reserved", server.ReservedDescriptors))
		scfg.MaxConns = fl.Fit
	}
	return nil
}
