package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"
	"golang.org/x/net/netutil"

	"github.com/bomber-game/bomber/cmd/internal/config"
)

// adminServer is the operators' HTTP listener (loopback by default).
type adminServer struct {
	srv *http.Server
}

// adminLimits bound the admin listener's connections and requests.
type adminLimits struct {
	maxConns          int // connections at once
	busy              int // requests at once other than health checks
	readHeaderTimeout time.Duration
	readTimeout       time.Duration
	writeTimeout      time.Duration // a response; a profile or trace gets profileTimeout
	idleTimeout       time.Duration
}

var defaultAdminLimits = adminLimits{
	maxConns:          64,
	busy:              16,
	readHeaderTimeout: 5 * time.Second,
	readTimeout:       10 * time.Second,
	writeTimeout:      10 * time.Second,
	idleTimeout:       30 * time.Second,
}

// profileTimeout is how long a pprof profile or trace response may take:
// longer than pprof's default 30 s profile.
const profileTimeout = 2 * time.Minute

// healthPaths are answered outside the busy slots: a liveness probe must
// not wait behind clients that read their responses slowly or never.
var healthPaths = []string{"/healthz", "/readyz"}

// serveAdmin serves h on l within lim: at most lim.maxConns connections at
// once (more wait in the kernel's backlog), none held open idle, at most
// lim.busy requests at once besides health checks (more get 503 at once),
// and no response written for longer than lim.writeTimeout to a client
// that does not read it.
func serveAdmin(l net.Listener, h http.Handler, lim adminLimits, log *zap.Logger) *adminServer {
	if lim.busy <= 0 {
		lim.busy = lim.maxConns
	}
	slots := make(chan struct{}, lim.busy)
	limited := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slices.Contains(healthPaths, r.URL.Path) {
			h.ServeHTTP(w, r)
			return
		}
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
		default:
			w.Header().Set("Retry-After", "1")
			http.Error(w, "admin listener busy", http.StatusServiceUnavailable)
			return
		}
		if r.URL.Path == "/debug/pprof/profile" || r.URL.Path == "/debug/pprof/trace" {
			http.NewResponseController(w).SetWriteDeadline(time.Now().Add(profileTimeout))
		}
		h.ServeHTTP(w, r)
	})
	a := &adminServer{srv: &http.Server{
		Handler:           limited,
		ReadHeaderTimeout: lim.readHeaderTimeout,
		ReadTimeout:       lim.readTimeout,
		WriteTimeout:      lim.writeTimeout,
		IdleTimeout:       lim.idleTimeout,
		ErrorLog:          zap.NewStdLog(log),
	}}
	go func() {
		if err := a.srv.Serve(netutil.LimitListener(l, lim.maxConns)); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("admin listener", zap.Error(err))
		}
	}()
	return a
}

// adminGuard protects the admin listener from the browsers of the
// operators who can reach it and from the other users of its machine:
// every request must name a loopback host (or the configured one) in its
// Host header, so a DNS-rebinding page cannot use it; a request that
// carries a foreign Origin is refused; and every request but the health
// checks (/healthz, /readyz) must carry the admin token as
// "Authorization: Bearer TOKEN" (GET /metrics: or the metrics token, when
// one is set), since /users, /metrics and pprof tell who plays and what
// the daemon holds.
func adminGuard(next http.Handler, hosts []string, token, metricsToken string, log *zap.Logger) http.Handler {
	allowed := func(hostport string) bool {
		host := hostport
		if h, _, err := net.SplitHostPort(hostport); err == nil {
			host = h
		}
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
		return slices.ContainsFunc(hosts, func(a string) bool { return strings.EqualFold(a, host) })
	}
	// refuse answers and ends the connection (net/http closes it after a
	// response saying Connection: close), so a stranger pipelining requests
	// gets one refusal per connection instead of keeping the daemon
	// writing refusals for as long as the kernel takes them
	refuse := func(w http.ResponseWriter, msg string, code int) {
		w.Header().Set("Connection", "close")
		http.Error(w, msg, code)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowed(r.Host) {
			log.Warn("admin request refused: foreign Host header", zap.String("host", r.Host), zap.String("remote", r.RemoteAddr))
			refuse(w, "forbidden host", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			u, err := url.Parse(o)
			if err != nil || u.Host == "" || !allowed(u.Host) {
				log.Warn("admin request refused: foreign Origin", zap.String("origin", o), zap.String("remote", r.RemoteAddr))
				refuse(w, "forbidden origin", http.StatusForbidden)
				return
			}
		}
		health := slices.Contains(healthPaths, r.URL.Path) && (r.Method == http.MethodGet || r.Method == http.MethodHead)
		if !health {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			match := func(tok string) bool { return tok != "" && subtle.ConstantTimeCompare([]byte(got), []byte(tok)) == 1 }
			scrape := r.URL.Path == "/metrics" && (r.Method == http.MethodGet || r.Method == http.MethodHead) && match(metricsToken)
			if !ok || !match(token) && !scrape {
				log.Warn("admin request refused: no valid token", zap.String("method", r.Method), zap.String("path", r.URL.Path), zap.String("remote", r.RemoteAddr))
				refuse(w, "admin token required (Authorization: Bearer; see admin.token_file)", http.StatusUnauthorized)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// adminHosts are the names the admin listener answers to: loopback, and
// the host it is configured to listen on.
func adminHosts(listen string) []string {
	hosts := []string{"localhost", "127.0.0.1", "::1"}
	if h, _, err := net.SplitHostPort(listen); err == nil && h != "" {
		hosts = append(hosts, h)
	}
	return hosts
}

func startAdmin(cfg config.Admin, d *daemonState) (*adminServer, error) {
	token, err := adminToken(cfg, d.log)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		// alive when the engine loop answers
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if _, err := d.tr.Stats(ctx); err != nil {
			http.Error(w, "loop not answering: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if !d.ready.Load() {
			http.Error(w, "not ready: starting or shutting down", http.StatusServiceUnavailable)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := d.store.Ping(ctx); err != nil {
			http.Error(w, "not ready: account store unreachable: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		if d.node != nil {
			if err := d.node.Ready(); err != nil {
				http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
				return
			}
		}
		w.Write([]byte("ready\n"))
	})
	mux.HandleFunc("GET /users", func(w http.ResponseWriter, r *http.Request) {
		ss, err := d.tr.Sessions(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		type user struct {
			Conn     uint64 `json:"conn"`
			User     string `json:"user,omitempty"`
			State    string `json:"state"`
			Opponent string `json:"opponent,omitempty"`
		}
		out := make([]user, 0, len(ss))
		for _, s := range ss {
			out = append(out, user{uint64(s.Conn), s.User, s.State.String(), s.Opponent})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("POST /kick", func(w http.ResponseWriter, r *http.Request) {
		name := r.FormValue("user")
		if name == "" {
			http.Error(w, "missing user", http.StatusBadRequest)
			return
		}
		ok, err := d.tr.Kick(r.Context(), name)
		switch {
		case err != nil:
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
		case !ok:
			http.Error(w, "not online: "+name, http.StatusNotFound)
		default:
			d.log.Info("kicked by an operator", zap.String("user", name))
			w.Write([]byte("kicked " + name + "\n"))
		}
	})
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	d.registerMetrics(mux)
	l, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, err
	}
	d.log.Info("admin listening", zap.String("addr", l.Addr().String()))
	return serveAdmin(l, adminGuard(mux, adminHosts(cfg.Listen), token, cfg.MetricsToken, d.log), defaultAdminLimits, d.log), nil
}

// adminToken is the token state-changing admin requests must carry:
// admin.token (BOMBER_ADMIN_TOKEN) when set, else the contents of
// admin.token_file, which is generated (32 random bytes, hex, mode 0600)
// when it does not exist yet.
func adminToken(cfg config.Admin, log *zap.Logger) (string, error) {
	if cfg.Token != "" {
		return cfg.Token, nil
	}
	tok, err := config.ReadAdminToken(cfg)
	if err == nil {
		return tok, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	var b [32]byte
	rand.Read(b[:])
	tok = hex.EncodeToString(b[:])
	if err := os.MkdirAll(filepath.Dir(cfg.TokenFile), 0o700); err != nil {
		return "", fmt.Errorf("admin token: %w", err)
	}
	f, err := os.OpenFile(cfg.TokenFile, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("admin token: %w", err)
	}
	_, err = f.WriteString(tok + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(cfg.TokenFile)
		return "", fmt.Errorf("admin token: %w", err)
	}
	log.Info("generated the admin token", zap.String("token_file", cfg.TokenFile))
	return tok, nil
}

func (a *adminServer) shutdown(ctx context.Context) { a.srv.Shutdown(ctx) }
