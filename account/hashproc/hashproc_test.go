package hashproc

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"testing"

	"go.uber.org/zap"

	"github.com/bomber-game/bomber/account"
)

// childEnv makes the test binary a child: "serve" runs Serve; "die" reads
// one request and exits without answering.
const childEnv = "HASHPROC_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "serve":
		if err := Serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "die":
		io.ReadFull(os.Stdin, make([]byte, requestHeader))
		os.Exit(3)
	}
	os.Exit(m.Run())
}

func childCmd(mode string) func() *exec.Cmd {
	return func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+mode)
		cmd.Stderr = os.Stderr
		return cmd
	}
}

func cheap() account.Params {
	return account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
}

func newClient(t *testing.T, mode string) *Client {
	t.Helper()
	c := NewClient(childCmd(mode), zap.NewNop())
	t.Cleanup(func() { c.Close() })
	return c
}

// gone reports whether no process with pid exists (it was reaped).
func gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

func TestPasswordsHashedByTheChildVerifyInTheDaemon(t *testing.T) {
	c := newClient(t, "serve")
	ctx := context.Background()
	remote := account.NewHasherWith(cheap(), 2, c)
	local := account.NewHasher(cheap(), 2)

	stored, err := remote.Hash(ctx, "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if ok, _, err := local.Verify(ctx, stored, "s3cret"); err != nil || !ok {
		t.Fatalf("a hash made by the child does not verify here: ok=%v err=%v", ok, err)
	}
	made, err := local.Hash(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	if ok, _, err := remote.Verify(ctx, made, "other"); err != nil || !ok {
		t.Fatalf("the child does not verify a hash made here: ok=%v err=%v", ok, err)
	}
	if ok, _, _ := remote.Verify(ctx, made, "wrong"); ok {
		t.Fatal("the child verified a wrong password")
	}
	if started, here := c.Stats(); started != 1 || here != 0 {
		t.Fatalf("children started %d, hashed in the parent %d; want 1 and 0", started, here)
	}
}

func TestConcurrentRequestsGetTheirOwnKeys(t *testing.T) {
	c := newClient(t, "serve")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pw := []byte(fmt.Sprintf("password-%d", i))
			salt := bytes.Repeat([]byte{byte(i)}, 16)
			got, err := c.Derive(context.Background(), pw, salt, cheap())
			want, _ := account.LocalDeriver{}.Derive(context.Background(), pw, salt, cheap())
			if err != nil || !bytes.Equal(got, want) {
				errs <- fmt.Errorf("request %d: key %x, err %v; want %x", i, got, err, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if _, here := c.Stats(); here != 0 {
		t.Fatalf("%d requests were hashed in the parent", here)
	}
}

// The point of the child: a hash's scratch memory is not garbage in the
// daemon's heap.
func TestScratchMemoryIsNotTheDaemons(t *testing.T) {
	c := newClient(t, "serve")
	p := account.Params{Memory: 8 << 10, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	salt := make([]byte, 16)
	const hashes = 10
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range hashes {
		if _, err := c.Derive(context.Background(), []byte("pw"), salt, p); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	scratch := uint64(hashes) * uint64(p.Memory) << 10
	if got := after.TotalAlloc - before.TotalAlloc; got > scratch/20 {
		t.Fatalf("the parent allocated %d bytes for %d hashes of %d KiB (their scratch is %d bytes)", got, hashes, p.Memory, scratch)
	}
}

func TestALoginOutlivesTheChild(t *testing.T) {
	c := newClient(t, "die")
	pw, salt := []byte("pw"), make([]byte, 16)
	want, _ := account.LocalDeriver{}.Derive(context.Background(), pw, salt, cheap())
	for i := range giveUpAfter + 2 {
		got, err := c.Derive(context.Background(), pw, salt, cheap())
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("request %d after a child died: key %x, err %v; want %x", i, got, err, want)
		}
	}
	started, here := c.Stats()
	if started != giveUpAfter || here != giveUpAfter+2 {
		t.Fatalf("children started %d, hashed in the parent %d; want %d and %d", started, here, giveUpAfter, giveUpAfter+2)
	}
}

func TestAChildThatCannotStartLeavesHashingHere(t *testing.T) {
	c := NewClient(func() *exec.Cmd { return exec.Command("/nonexistent/bomberd", "hash-worker") }, zap.NewNop())
	defer c.Close()
	pw, salt := []byte("pw"), make([]byte, 16)
	want, _ := account.LocalDeriver{}.Derive(context.Background(), pw, salt, cheap())
	got, err := c.Derive(context.Background(), pw, salt, cheap())
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("key %x, err %v; want %x", got, err, want)
	}
}

func TestCloseEndsTheChild(t *testing.T) {
	c := NewClient(childCmd("serve"), zap.NewNop())
	if _, err := c.Derive(context.Background(), []byte("pw"), make([]byte, 16), cheap()); err != nil {
		t.Fatal(err)
	}
	pids := c.Pids()
	if len(pids) != 1 || gone(pids[0]) {
		t.Fatalf("children after a request: %v, want one running", pids)
	}
	pid := pids[0]
	c.Close()
	if !gone(pid) {
		t.Fatalf("child %d still exists after Close", pid)
	}
}

// The example in the package's documentation, byte for byte.
func TestServeAnswersTheDocumentedRequest(t *testing.T) {
	req, err := hex.DecodeString("00000001" + "00000040" + "00000001" + "01" + "00000020" + "0003" + "0010" + "313233" + "01010101010101010101010101010101")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Serve(bytes.NewReader(req), &out); err != nil {
		t.Fatal(err)
	}
	key, _ := account.LocalDeriver{}.Derive(context.Background(), []byte("123"), bytes.Repeat([]byte{1}, 16), cheap())
	want := append([]byte{0, 0, 0, 1, 0, 0x20}, key...)
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("answer %x, want %x", out.Bytes(), want)
	}
	// Parameters argon2id cannot use are refused with an empty key.
	bad := bytes.Clone(req)
	bad[12] = 0 // no lanes
	out.Reset()
	if err := Serve(bytes.NewReader(bad), &out); err != nil {
		t.Fatal(err)
	}
	if want := "000000010000"; hex.EncodeToString(out.Bytes()) != want {
		t.Fatalf("refusal %x, want %s", out.Bytes(), want)
	}
}

// BenchmarkDerive compares a hash in the child with one in this process,
// at the bench's cost and at the shipped one.
func BenchmarkDerive(b *testing.B) {
	salt := make([]byte, 16)
	for _, cost := range []struct {
		name string
		p    account.Params
	}{{"64KiB", cheap()}, {"OWASP", account.OWASPParams()}} {
		b.Run(cost.name+"/child", func(b *testing.B) {
			c := NewClient(childCmd("serve"), zap.NewNop())
			defer c.Close()
			for b.Loop() {
				c.Derive(context.Background(), []byte("pw"), salt, cost.p)
			}
		})
		b.Run(cost.name+"/local", func(b *testing.B) {
			for b.Loop() {
				account.LocalDeriver{}.Derive(context.Background(), []byte("pw"), salt, cost.p)
			}
		})
	}
}
