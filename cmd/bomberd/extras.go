package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/cmd/internal/config"
	"github.com/bomber-game/bomber/server"
)

// tlsListener is the optional TLS listener; its certificate is re-read on
// SIGHUP without dropping connections.
type tlsListener struct {
	cert atomic.Pointer[tls.Certificate]
	l    net.Listener
}

func (t *tlsListener) load(c config.TLS) error {
	cert, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
	if err != nil {
		return fmt.Errorf("tls: %w", err)
	}
	t.cert.Store(&cert)
	return nil
}

// extend adds the optional parts to the transport configuration.
func (d *daemonState) extend(scfg *server.Config, cfg *config.Config) error {
	if cfg.Capture.Enabled {
		c, err := newCapture(cfg, d.log)
		if err != nil {
			return err
		}
		d.capture, scfg.Tap = c, c
	}
	return nil
}

// startExtras starts the TLS and admin listeners.
func (d *daemonState) startExtras(cfg *config.Config, _ server.Config) error {
	if cfg.TLS.Listen != "" {
		t := &tlsListener{}
		if err := t.load(cfg.TLS); err != nil {
			return err
		}
		raw, err := net.Listen("tcp", cfg.TLS.Listen)
		if err != nil {
			return fmt.Errorf("tls listen %s: %w", cfg.TLS.Listen, err)
		}
		t.l = tls.NewListener(raw, &tls.Config{
			MinVersion:     tls.VersionTLS12,
			GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return t.cert.Load(), nil },
		})
		d.tls = t
		d.log.Info("listening (TLS)", zap.String("addr", raw.Addr().String()))
		go func() { d.errc <- d.tr.Serve(t.l) }()
	}
	if cfg.Web.Listen != "" {
		if err := d.startWeb(cfg); err != nil {
			return err
		}
	}
	if cfg.Admin.Listen != "" {
		a, err := startAdmin(cfg.Admin, d)
		if err != nil {
			return err
		}
		d.admin = a
	}
	return nil
}

func (d *daemonState) reloadExtras(cfg *config.Config) {
	if d.web != nil && d.web.cert != nil {
		if err := d.web.cert.load(cfg.TLS); err != nil {
			d.log.Error("reload: keeping the old web TLS certificate", zap.Error(err))
		}
	}
	if d.tls != nil {
		if err := d.tls.load(cfg.TLS); err != nil {
			d.log.Error("reload: keeping the old TLS certificate", zap.Error(err))
		} else {
			d.log.Info("TLS certificate reloaded", zap.String("cert_file", cfg.TLS.CertFile))
		}
	}
}

func (d *daemonState) stopExtras(ctx context.Context) {
	if d.admin != nil {
		d.admin.shutdown(ctx)
	}
	if d.tls != nil {
		d.tls.l.Close()
	}
	if d.web != nil {
		d.web.stop(ctx)
	}
}

// closeCapture runs after the transport's shutdown, so the last closes are
// in the file.
func (d *daemonState) closeCapture() {
	if d.capture != nil {
		if err := d.capture.Close(); err != nil {
			d.log.Warn("closing the capture", zap.Error(err))
		}
	}
}
