package frontend

import "testing"

func TestHarnessParent(t *testing.T) {
	for _, c := range []struct {
		observed []string
		want     string
		fails    bool
	}{
		{[]string{"m/a", "m/b"}, ".", false},
		{[]string{"m/deep/internal/x"}, "deep", false},
		{[]string{"m/deep/internal/x", "m/a"}, "deep", false},
		{[]string{"m/internal/x", "m/deep/internal/y"}, "deep", false},
		{[]string{"m/a/internal/x", "m/b/internal/y"}, "", true},
	} {
		got, err := harnessParent("m", c.observed)
		if (err != nil) != c.fails || got != c.want {
			t.Errorf("%v: got %q, %v; want %q (fails %v)", c.observed, got, err, c.want, c.fails)
		}
	}
}
