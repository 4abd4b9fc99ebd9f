package probe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

func TestLogOptionsCompression(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want eventlog.Compression
		err  string
	}{
		{"", eventlog.Zstd, ""},
		{"zstd", eventlog.Zstd, ""},
		{"none", eventlog.Uncompressed, ""},
		{"lz4", 0, `CAPTURE_COMPRESSION="lz4": want zstd (the default) or none`},
		{"ZSTD", 0, `want zstd (the default) or none`},
	} {
		opts, err := logOptions(envOf(EnvCompression, tc.env))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("logOptions(%q): error %v, want one containing %q", tc.env, err, tc.err)
			}
			continue
		}
		if err != nil || opts.Compression != tc.want {
			t.Errorf("logOptions(%q) = %v, %v; want compression %v", tc.env, opts.Compression, err, tc.want)
		}
	}
}

// The same capture written with CAPTURE_COMPRESSION=none and with the
// default: both replayable logs of the same events, the first uncompressed
// (several times larger on these repetitive values).
func TestCaptureCompressionNone(t *testing.T) {
	dir := t.TempDir()
	site := &Site{Name: "example.com/calc.Add", Pos: "calc/add.go:3"}
	sizes := map[string]int64{}
	for _, env := range []string{"zstd", "none"} {
		opts, err := logOptions(envOf(EnvCompression, env))
		if err != nil {
			t.Fatal(err)
		}
		opts.Policy = eventlog.Block // every event, to count them
		opts.AlwaysCompress = true   // a small log is written uncompressed otherwise
		path := filepath.Join(dir, env+".arrow")
		if _, err := CaptureWith(path, opts); err != nil {
			t.Fatal(err)
		}
		for i := range 5000 {
			s := In(site)
			s.Int(int64(i % 7))
			s.String("a repetitive argument of some length")
			f := s.Call()
			s.Int(int64(i%7) + 1)
			s.Return(f)
		}
		Close()
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		sizes[env] = st.Size()
		r, err := eventlog.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			_, err := r.Next()
			if err != nil {
				break
			}
			n++
		}
		r.Close()
		if n != 10000 {
			t.Errorf("%s: read %d events, want 10000", env, n)
		}
	}
	t.Logf("log sizes: none %d bytes, zstd %d", sizes["none"], sizes["zstd"])
	if sizes["none"] < 3*sizes["zstd"] {
		t.Errorf("log sizes: none %d bytes, zstd %d: the uncompressed log should be several times larger", sizes["none"], sizes["zstd"])
	}
}

// envOf is an environment (for openLog and logOptions) holding the given
// key-value pairs alone.
func envOf(kv ...string) func(string) string {
	return func(key string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == key {
				return kv[i+1]
			}
		}
		return ""
	}
}
