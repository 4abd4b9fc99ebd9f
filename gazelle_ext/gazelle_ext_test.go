package gazelle_ext

import (
	"bytes"
	"log"
	"reflect"
	"strings"
	"testing"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

func directives(kvs ...string) []rule.Directive {
	var ds []rule.Directive
	for i := 0; i < len(kvs); i += 2 {
		ds = append(ds, rule.Directive{Key: kvs[i], Value: kvs[i+1]})
	}
	return ds
}

func TestApplyDirectives(t *testing.T) {
	inherited := &Config{Observe: []string{"example.com/app/store"}, LogsDir: "logs"}
	for _, tc := range []struct {
		name    string
		parent  *Config
		ds      []rule.Directive
		want    *Config
		wantErr []string // substrings, one per expected error
	}{{
		name:   "no directives keeps the defaults",
		parent: defaultConfig(),
		want:   &Config{LogsDir: "testdata/capture"},
	}, {
		name:   "no directives inherits the parent",
		parent: inherited,
		want:   &Config{Observe: []string{"example.com/app/store"}, LogsDir: "logs"},
	}, {
		name:   "observe lists several import paths",
		parent: defaultConfig(),
		ds:     directives("capture_observe", "example.com/app/store   example.com/app/pricing"),
		want:   &Config{Observe: []string{"example.com/app/store", "example.com/app/pricing"}, LogsDir: "testdata/capture"},
	}, {
		name:   "observe replaces the inherited set and drops duplicates",
		parent: inherited,
		ds:     directives("capture_observe", "example.com/b example.com/a example.com/b"),
		want:   &Config{Observe: []string{"example.com/b", "example.com/a"}, LogsDir: "logs"},
	}, {
		name:   "empty observe clears the inherited set",
		parent: inherited,
		ds:     directives("capture_observe", ""),
		want:   &Config{Observe: nil, LogsDir: "logs"},
	}, {
		name:   "the last directive of a file wins",
		parent: defaultConfig(),
		ds:     directives("capture_logs", "first", "capture_logs", "second/./dir/"),
		want:   &Config{LogsDir: "second/dir"},
	}, {
		name:   "other languages' directives are ignored",
		parent: inherited,
		ds:     directives("prefix", "example.com/other", "exclude", "vendor"),
		want:   &Config{Observe: []string{"example.com/app/store"}, LogsDir: "logs"},
	}, {
		name:    "an invalid import path keeps the inherited set",
		parent:  inherited,
		ds:      directives("capture_observe", "example.com/ok ../store"),
		want:    &Config{Observe: []string{"example.com/app/store"}, LogsDir: "logs"},
		wantErr: []string{`"../store" is not a Go import path`},
	}, {
		name:    "a logs directory outside the package is rejected",
		parent:  inherited,
		ds:      directives("capture_logs", "a/../../elsewhere"),
		want:    &Config{Observe: []string{"example.com/app/store"}, LogsDir: "logs"},
		wantErr: []string{"must be inside the package"},
	}, {
		name:    "an absolute logs directory is rejected",
		parent:  defaultConfig(),
		ds:      directives("capture_logs", "/var/logs"),
		want:    &Config{LogsDir: "testdata/capture"},
		wantErr: []string{"must be relative to the package"},
	}, {
		name:    "logs takes exactly one directory",
		parent:  defaultConfig(),
		ds:      directives("capture_logs", "a b", "capture_logs", ""),
		want:    &Config{LogsDir: "testdata/capture"},
		wantErr: []string{"exactly one directory, got 2", "exactly one directory, got 0"},
	}, {
		name:    "errors do not stop later valid directives",
		parent:  defaultConfig(),
		ds:      directives("capture_observe", "not a//path", "capture_logs", "field-logs"),
		want:    &Config{LogsDir: "field-logs"},
		wantErr: []string{"is not a Go import path"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			before := *tc.parent
			before.Observe = append([]string(nil), tc.parent.Observe...)
			got, errs := applyDirectives(tc.parent, tc.ds)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("config = %+v, want %+v", got, tc.want)
			}
			if len(errs) != len(tc.wantErr) {
				t.Fatalf("errors = %v, want %d errors containing %q", errs, len(tc.wantErr), tc.wantErr)
			}
			for i, err := range errs {
				if !strings.Contains(err.Error(), tc.wantErr[i]) {
					t.Errorf("error %d = %q, want it to contain %q", i, err, tc.wantErr[i])
				}
			}
			if !reflect.DeepEqual(*tc.parent, before) {
				t.Errorf("parent config changed to %+v, want %+v", *tc.parent, before)
			}
		})
	}
}

// TestConfigureInheritance drives Configure the way Gazelle's walk does: each
// directory gets a clone of its parent's config.Config, then every extension's
// Configure sees the directory's BUILD file (or nil when it has none).
func TestConfigureInheritance(t *testing.T) {
	type dir struct {
		rel, parent, build string // build "" means: no BUILD file
	}
	dirs := []dir{
		{rel: "", build: "# gazelle:capture_observe example.com/app/store example.com/app/pricing\n"},
		{rel: "app", parent: "", build: `go_library(name = "app")` + "\n"},
		{rel: "app/cmd", parent: "app"},
		{rel: "app/cmd/server", parent: "app/cmd", build: "# gazelle:capture_logs field\n"},
		{rel: "lib", parent: "", build: "# gazelle:capture_observe example.com/lib\n# gazelle:capture_logs ../x\n"},
		{rel: "lib/sub", parent: "lib", build: "# gazelle:capture_observe\n"},
	}
	want := map[string]Config{
		"":               {Observe: []string{"example.com/app/store", "example.com/app/pricing"}, LogsDir: "testdata/capture"},
		"app":            {Observe: []string{"example.com/app/store", "example.com/app/pricing"}, LogsDir: "testdata/capture"},
		"app/cmd":        {Observe: []string{"example.com/app/store", "example.com/app/pricing"}, LogsDir: "testdata/capture"},
		"app/cmd/server": {Observe: []string{"example.com/app/store", "example.com/app/pricing"}, LogsDir: "field"},
		"lib":            {Observe: []string{"example.com/lib"}, LogsDir: "testdata/capture"},
		"lib/sub":        {Observe: nil, LogsDir: "testdata/capture"},
	}

	var logged bytes.Buffer
	out := log.Writer()
	log.SetOutput(&logged)
	defer log.SetOutput(out)
	flags := log.Flags()
	log.SetFlags(0)
	defer log.SetFlags(flags)

	lang := NewLanguage()
	configs := map[string]*config.Config{}
	for _, d := range dirs {
		var c *config.Config
		if d.rel == "" {
			c = config.New()
		} else {
			c = configs[d.parent].Clone()
		}
		var f *rule.File
		if d.build != "" {
			var err error
			f, err = rule.LoadData(d.rel+"/BUILD.bazel", d.rel, []byte(d.build))
			if err != nil {
				t.Fatalf("%s: %v", d.rel, err)
			}
		}
		lang.Configure(c, d.rel, f)
		configs[d.rel] = c
	}
	for rel, w := range want {
		if got := GetConfig(configs[rel]); !reflect.DeepEqual(*got, w) {
			t.Errorf("%q: config = %+v, want %+v", rel, *got, w)
		}
	}
	if got := logged.String(); !strings.Contains(got, "lib/BUILD.bazel: # gazelle:capture_logs ../x: the directory must be inside the package") ||
		strings.Count(got, "\n") != 1 {
		t.Errorf("log = %q, want exactly the capture_logs error of lib/BUILD.bazel", got)
	}
}

func TestKnownDirectives(t *testing.T) {
	got := NewLanguage().KnownDirectives()
	want := []string{"capture_observe", "capture_logs"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("KnownDirectives() = %q, want %q", got, want)
	}
}

func TestGetConfigWithoutConfigure(t *testing.T) {
	if got := GetConfig(config.New()); !reflect.DeepEqual(*got, Config{LogsDir: DefaultLogsDir}) {
		t.Errorf("GetConfig(new config) = %+v, want the defaults", *got)
	}
}
