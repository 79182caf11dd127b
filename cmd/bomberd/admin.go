package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"go.uber.org/zap"
)

// adminServer is the operators' HTTP listener (loopback by default).
type adminServer struct {
	srv *http.Server
}

func startAdmin(addr string, d *daemonState) (*adminServer, error) {
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
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	a := &adminServer{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}}
	d.log.Info("admin listening", zap.String("addr", l.Addr().String()))
	go func() {
		if err := a.srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.log.Error("admin listener", zap.Error(err))
		}
	}()
	return a, nil
}

func (a *adminServer) shutdown(ctx context.Context) { a.srv.Shutdown(ctx) }
