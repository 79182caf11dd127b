package main

import (
	"cmp"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
	"github.com/bomber-game/bomber/segment/transcript"
	"github.com/bomber-game/bomber/statemachine/replay"
)

// TestMetricsAndAdmin scrapes /metrics and uses the admin endpoints.
func TestMetricsAndAdmin(t *testing.T) {
	d := startDaemon(t)
	a := dial(t, d.addr)
	if a.login("Albert", "123") != 1 {
		t.Fatal("login")
	}
	b := dial(t, d.addr)
	b.login("Beth", "nope")
	b.nc.Write([]byte{0x42}) // a protocol error: the server closes b
	b.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.Copy(io.Discard, b.nc); err != nil {
		t.Fatalf("the server did not close the connection that broke the framing: %v", err)
	}
	token := daemonToken(t, d)
	code, body := adminDo(t, d, "GET", "/metrics", nil, token, "", "")
	if code != 200 {
		t.Fatalf("GET /metrics: %d %s", code, body)
	}
	for _, want := range []string{
		`bomber_connections 1`,
		`bomber_connections_accepted_total 3`, // the readiness probe of startDaemon dialled once
		`bomber_logins_total{result="ok"} 1`,
		`bomber_logins_total{result="failed"} 1`,
		`bomber_segments_in_total{type="Info"} 2`,
		`bomber_segments_out_total{type="SyncEnd"} 1`,
		`bomber_games_finished_total{reason="won"} 0`,
		`bomber_protocol_errors_total{reason="unknown_type"} 1`,
		`bomber_sessions{state="ServerStandBy"} 1`,
		`bomber_sessions{state="AtTable"} 0`,
		`bomber_build_info{version="` + testVersion + `"} 1`,
		`go_goroutines `,
		`process_resident_memory_bytes `,
		`bomber_account_store_seconds_count{answer="wrong_password",check="verify"} 1`,
		`bomber_loop_seconds_count `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	// Bucket bounds are written as set: le="4e-06", not le="4.0000000000000003e-06".
	les := regexp.MustCompile(`le="([^"]+)"`).FindAllStringSubmatch(body, -1)
	if len(les) == 0 {
		t.Error("no histogram buckets")
	}
	for _, m := range les {
		if digits := regexp.MustCompile(`\d{7,}`); digits.MatchString(m[1]) {
			t.Errorf("bucket label with float noise: le=%q", m[1])
			break
		}
	}
	if !strings.Contains(d.log.String(), `"version": "`+testVersion+`"`) {
		t.Errorf("the start-up log line lacks the version:\n%s", d.log.String())
	}
	if regexp.MustCompile(`(Albert|Beth)`).MatchString(body) {
		t.Error("metrics carry a user name")
	}
	if _, users := adminDo(t, d, "GET", "/users", nil, token, "", ""); !strings.Contains(users, `"user":"Albert","state":"ServerStandBy"`) {
		t.Errorf("/users: %s", users)
	}
	for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ready"} {
		if got, _ := httpGet("http://" + d.admin + path); !strings.Contains(got, want) {
			t.Errorf("%s: %q", path, got)
		}
	}
	if _, got := adminDo(t, d, "GET", "/debug/pprof/cmdline", nil, token, "", ""); !strings.Contains(got, "bomberd") {
		t.Errorf("/debug/pprof/cmdline: %q", got)
	}
	if code, body := adminDo(t, d, "POST", "/kick", url.Values{"user": {"Albert"}}, token, "", ""); code != 200 {
		t.Fatalf("kick: %d %s", code, body)
	}
	a.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, err := a.nc.Read(make([]byte, 64)); err != nil {
			break
		}
	}
	if code, _ := adminDo(t, d, "POST", "/kick", url.Values{"user": {"Albert"}}, token, "", ""); code != http.StatusNotFound {
		t.Fatalf("kick of an offline user: %d", code)
	}
}

func writeCert(t *testing.T, dir string, serial int64) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "bomber test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: nil,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	return certFile, keyFile
}

// TestTLS: the protocol inside TLS shares the hub with plain TCP, and the
// certificate is re-read on SIGHUP.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	cert, key := writeCert(t, dir, 1)
	for _, transport := range []string{"reactor", "net"} {
		t.Run(transport, func(t *testing.T) {
			d := startDaemon(t, "BOMBER_TRANSPORT="+transport, "BOMBER_TLS_LISTEN=127.0.0.1:0", "BOMBER_TLS_CERT_FILE="+cert, "BOMBER_TLS_KEY_FILE="+key)
			tlsAddr := logged(d.log.String(), "listening (TLS)")
			plain := dial(t, d.addr)
			plain.login("Beth", "123")
			tc, err := tls.Dial("tcp", tlsAddr, &tls.Config{InsecureSkipVerify: true})
			if err != nil {
				t.Fatal(err)
			}
			defer tc.Close()
			if s := tc.ConnectionState().PeerCertificates[0].SerialNumber.Int64(); s != 1 {
				t.Fatalf("serial %d", s)
			}
			c := &client{t: t, nc: tc}
			if code := c.login("Albert", "123"); code != segment.CodeOK {
				t.Fatalf("login over TLS: %d", code)
			}
			c.send(segment.Name(segment.SendInvit, "Beth")) // same hub as plain TCP
			plain.expect(segment.RecvInvit)
			writeCert(t, dir, 2)
			d.cmd.Process.Signal(syscall.SIGHUP)
			waitLog(t, d, "TLS certificate reloaded")
			tc2, err := tls.Dial("tcp", tlsAddr, &tls.Config{InsecureSkipVerify: true})
			if err != nil {
				t.Fatal(err)
			}
			defer tc2.Close()
			if s := tc2.ConnectionState().PeerCertificates[0].SerialNumber.Int64(); s != 2 {
				t.Fatalf("after reload serial %d, want 2", s)
			}
			writeCert(t, dir, 1)
			d.cmd.Process.Signal(syscall.SIGTERM)
			<-d.done
			d.done <- nil
		})
	}
}

// TestKill9AndRestart: bomberd killed with SIGKILL mid-game and started
// again on the same store and journal keeps its accounts and the games
// recorded before, once each (the journal replays the finished game: it is
// not stored twice); the reference match that was being played when it
// died is recorded as aborted, as at a shutdown (the reference protocol
// cannot resume it); clients log in again.
func TestKill9AndRestart(t *testing.T) {
	d := startDaemon(t)
	a, b := pair(t, d.addr, "Albert", "Beth")
	// finish one game: Albert finds Beth's three planes by double guesses
	for i, pl := range []string{"0232", "0737", "5282"} {
		seg, _ := segment.Raw(segment.DoubleCoord, []byte(pl))
		a.send(seg)
		b.expect(segment.DoubleCoord)
		if i < 2 {
			guess(b, a, 9, uint8(9-i))
		}
	}
	b.expect(segment.GameOver)
	waitLog(t, d, "game recorded")
	// a second game in progress when the process dies
	a.send(segment.Name(segment.SendInvit, "Beth"))
	b.expect(segment.RecvInvit)
	b.send(segment.Code(segment.InvitResponse, 1))
	a.expect(segment.InvitResponse)
	d.cmd.Process.Kill()
	<-d.done
	d.done <- nil

	log := restart(t, d)
	nc, err := net.Dial("tcp", d.addr)
	if err != nil {
		t.Fatalf("restart: %v\n%s", err, log.String())
	}
	defer nc.Close()
	c := &client{t: t, nc: nc}
	if code := c.login("Albert", "123"); code != segment.CodeOK {
		t.Fatalf("login after restart: %d", code)
	}
	if strings.Contains(log.String(), "created the demo accounts") {
		t.Fatal("the restarted daemon thought its store was fresh")
	}
	s, err := account.OpenSQLite(context.Background(), filepath.Join(d.cmd.Dir, "var/bomber.db"), account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	games, err := s.Games(context.Background(), account.GameFilter{})
	slices.SortFunc(games, func(x, y record.Game) int { return cmp.Compare(x.Start, y.Start) })
	if err != nil || len(games) != 2 || games[0].Reason != "won" || games[0].Seats[0].Name != "Albert" ||
		!slices.Equal(games[0].Outcome.Winners, []rules.Player{0}) || games[1].Reason != "aborted" || games[1].Leaver != rules.Spectator {
		t.Fatalf("games after kill -9: %+v %v", games, err)
	}
	if strings.Contains(log.String(), "game record refused") {
		t.Fatal("the restarted daemon's store refused a replayed record instead of knowing it")
	}
}

// TestCapture: with capture on, a session is recorded as a transcript with
// the password masked, and the file replays through the hub in-process with
// no difference.
func TestCapture(t *testing.T) {
	dir := t.TempDir()
	d := startDaemon(t, "BOMBER_CAPTURE_ENABLED=true", "BOMBER_CAPTURE_DIR="+dir)
	a, b := pair(t, d.addr, "Albert", "Beth")
	guess(a, b, 9, 9)
	b.nc.Close()
	a.expect(segment.GameOver)
	d.cmd.Process.Signal(syscall.SIGTERM)
	<-d.done
	d.done <- nil
	files, _ := filepath.Glob(filepath.Join(dir, "capture-*.txt"))
	if len(files) != 1 {
		t.Fatalf("capture files %v", files)
	}
	raw, _ := os.ReadFile(files[0])
	text := string(raw)
	if strings.Contains(text, "02 00 03 31 32 33") || !strings.Contains(text, "02 00 03 2a 2a 2a") {
		t.Fatalf("password not masked:\n%s", text)
	}
	entries, err := transcript.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := replay.ConfigFromNotes(entries)
	if err != nil {
		t.Fatal(err)
	}
	masked := replay.Accounts{}
	for u := range replay.DemoAccounts() {
		masked[u] = "***"
	}
	got := replay.Run(cfg, masked, entries)
	// the readiness probe's connection and the shutdown's closes are in the
	// file too; across connections the daemon's order depends on timing (an
	// answer from the account workers may come after another client
	// connected), within each it must be the same
	if diff := transcript.DiffByConn(entries, got); diff != "" && !onlyCloses(diff) {
		t.Fatalf("capture does not replay:\n%s\n--- capture:\n%s", diff, text)
	}
}

// onlyCloses: the differences are "closed" lines the shutdown wrote, which
// an in-process replay does not produce.
func onlyCloses(diff string) bool {
	for _, l := range strings.Split(strings.TrimSpace(diff), "\n") {
		if strings.HasPrefix(l, "connection ") {
			continue // DiffByConn's heading
		}
		if !strings.HasSuffix(strings.Fields(l)[len(strings.Fields(l))-1], "closed") && !strings.Contains(l, " closed ") && !strings.Contains(l, "closed  ") {
			if !strings.Contains(l, "closed") {
				return false
			}
		}
	}
	return true
}
