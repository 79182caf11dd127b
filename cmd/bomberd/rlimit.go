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
// that limits.max_connections fits in it next to the listeners, the
// connections of the web and admin listeners and the daemon's own
// descriptors. When it does not, the connection limits are lowered to what
// fits (the web listener's to at most a quarter of it), with a warning
// that says how to raise the limit, so the daemon refuses connections
// cleanly at its limits (counted as rejected) instead of failing accept
// with EMFILE, and the web port cannot take the game port's descriptors.
// It returns the web listener's connection limit.
func fitConnections(scfg *server.Config, cfg *config.Config, log *zap.Logger) (webConns int, err error) {
	listeners := 1 // the game port (socket activation may bring more; the reserve covers them)
	if cfg.TLS.Listen != "" {
		listeners++
	}
	admin := 0
	if cfg.Admin.Listen != "" {
		listeners++
		admin = defaultAdminLimits.maxConns
	}
	if cfg.Web.Listen != "" {
		listeners++
		webConns = cfg.Web.MaxConnections
	}
	fl, err := server.FitFileLimit(listeners)
	if err != nil {
		log.Warn("cannot read the open-file limit; max_connections not checked", zap.Error(err))
		return webConns, nil
	}
	if fl.Raised {
		log.Info("raised the open-file soft limit to the hard limit", zap.Uint64("limit", fl.Soft))
	}
	want := scfg.MaxConns
	if want <= 0 {
		want = server.DefaultMaxConns
	}
	room := fl.Fit - admin
	if webConns > 0 && want+webConns > room {
		if w := max(room/4, 1); webConns > w {
			log.Warn("web.max_connections does not fit in the open-file limit next to limits.max_connections; lowering it to a quarter of what fits (raise LimitNOFILE= in the unit, or ulimit -Hn, to serve more)",
				zap.Int("web_max_connections", webConns), zap.Int("lowered_to", w), zap.Uint64("rlimit_nofile", fl.Soft))
			webConns = w
		}
	}
	fit := room - webConns
	switch {
	case fit <= 0:
		return webConns, fmt.Errorf("%w (soft %d, hard %d; %d are reserved): raise LimitNOFILE= or ulimit -n", errNoDescriptors, fl.Soft, fl.Hard, listeners+server.ReservedDescriptors+admin+webConns)
	case want > fit:
		log.Warn("limits.max_connections does not fit in the open-file limit; lowering it to what fits (raise LimitNOFILE= in the unit, or ulimit -Hn, to serve more)",
			zap.Int("max_connections", want), zap.Int("lowered_to", fit), zap.Uint64("rlimit_nofile", fl.Soft),
			zap.Int("listeners", listeners), zap.Int("reserved", server.ReservedDescriptors), zap.Int("admin_connections", admin), zap.Int("web_connections", webConns))
		scfg.MaxConns = fit
	}
	return webConns, nil
}
