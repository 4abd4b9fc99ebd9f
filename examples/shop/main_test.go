package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/examples/shop/storage"
)

// When this variable is set, the test binary runs the shop's main instead
// of the tests, so the test can run the real command as a child process
// without the go command.
const runMainEnv = "SHOP_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Args = append([]string{"shop"}, strings.Fields(os.Getenv("SHOP_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// SIGTERM stops the shop gracefully: the in-flight work finishes, main
// returns normally (so a capture runtime could flush), the exit status is 0
// and the database is closed and reusable.
func TestSIGTERMShutsDownGracefully(t *testing.T) {
	dir := t.TempDir()
	dbPath, addrFile := filepath.Join(dir, "shop.db"), filepath.Join(dir, "addr")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), runMainEnv+"=1",
		"SHOP_TEST_ARGS=-addr 127.0.0.1:0 -addr-file "+addrFile+" -db "+dbPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()

	var addr string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(addrFile); err == nil && strings.HasSuffix(string(b), "\n") {
			addr = strings.TrimSpace(string(b))
			break
		}
	}
	if addr == "" {
		t.Fatalf("shop did not write its address; stderr:\n%s", stderr.String())
	}
	resp, err := http.Post("http://"+addr+"/orders", "application/json",
		strings.NewReader(`{"customer":"c","region":"DE","items":[{"sku":"MER-MUG","quantity":1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /orders = %s", resp.Status)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shop exited with %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("shop still running 20s after SIGTERM; stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "shop stopped cleanly") {
		t.Errorf("no clean-stop message; stderr:\n%s", stderr.String())
	}

	db, err := storage.Open(dbPath) // fails if the lock was not released
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	orders, err := db.Orders(context.Background())
	if err != nil || len(orders) != 1 {
		t.Fatalf("after shutdown the database holds %d orders (%v), want 1", len(orders), err)
	}
}

func TestBadFlagsExitWithUsage(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "SHOP_TEST_ARGS=stray")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "unexpected arguments") {
		t.Fatalf("shop stray = %v, output %s; want exit 2 naming the stray argument", err, out)
	}
}
