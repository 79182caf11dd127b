package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/cmd/internal/config"
	"github.com/bomber-game/bomber/server/ws"
	"github.com/bomber-game/bomber/web"
)

// webListener is the HTTP listener of the web client and the WebSocket
// gateway; with web.tls its certificate (tls.cert_file, tls.key_file) is
// re-read on SIGHUP like the TLS listener's.
type webListener struct {
	srv  *http.Server
	cert *tlsListener // nil without web.tls
	cap  *connCap
}

// The web listener's timeouts: the request's headers must arrive within
// webHeaderTimeout, and an idle keep-alive connection is closed after
// webIdleTimeout (a WebSocket, once upgraded, is the server's, under its
// own limits).
const (
	webHeaderTimeout = 10 * time.Second
	webIdleTimeout   = 30 * time.Second
)

// webHosts are the host patterns the web listener answers to besides IP
// addresses and localhost: web.hosts, and the host of web.listen.
func webHosts(c config.Web) []string {
	hosts := slices.Clone(c.Hosts)
	if h, _, err := net.SplitHostPort(c.Listen); err == nil && h != "" {
		hosts = append(hosts, h)
	}
	return hosts
}

func (d *daemonState) startWeb(cfg *config.Config) error {
	g, err := ws.New(ws.Config{
		Transport:      d.tr,
		AllowedOrigins: cfg.Web.AllowedOrigins,
		Hosts:          webHosts(cfg.Web),
		MaxMessage:     int64(cfg.Web.MaxMessage),
		Files:          web.FS(),
		Logger:         d.log,
	})
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	l, err := net.Listen("tcp", cfg.Web.Listen)
	if err != nil {
		return fmt.Errorf("web listen %s: %w", cfg.Web.Listen, err)
	}
	w := &webListener{srv: &http.Server{
		Handler:           g,
		ReadHeaderTimeout: webHeaderTimeout,
		IdleTimeout:       webIdleTimeout,
		ErrorLog:          zap.NewStdLog(d.log.Named("web")),
		ConnContext:       ws.ConnContext,
	}}
	// at most the fitted web.max_connections at once (counted in the
	// open-file limit with the game port's), web.max_connections_per_ip
	// from one address
	w.cap = newConnCap(l, d.webConns, cfg.Web.MaxConnectionsPerIP)
	l = w.cap
	scheme := "http"
	if cfg.Web.TLS {
		w.cert = &tlsListener{}
		if err := w.cert.load(cfg.TLS); err != nil {
			l.Close()
			return err
		}
		l = tls.NewListener(l, &tls.Config{
			MinVersion:     tls.VersionTLS12,
			NextProtos:     []string{"http/1.1"}, // WebSockets upgrade over HTTP/1.1
			GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return w.cert.cert.Load(), nil },
		})
		scheme = "https"
	}
	d.web = w
	d.log.Info("web listening", zap.String("addr", l.Addr().String()))
	d.log.Info("web client at " + scheme + "://" + l.Addr().String() + "/")
	go func() {
		if err := w.srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.errc <- fmt.Errorf("web: %w", err)
		}
	}()
	return nil
}

// stopWeb stops accepting; open WebSockets end with the transport's shutdown.
func (w *webListener) stop(ctx context.Context) { w.srv.Shutdown(ctx) }
