package harness

import "testing"

func TestTestlogsPath(t *testing.T) {
	const zip = " (in outputs.zip unless --nozip_undeclared_test_outputs)"
	for _, c := range []struct{ target, shard, shards, want string }{
		{"//app:replay_tests", "", "", "bazel-testlogs/app/replay_tests/test.outputs/a.divergence.txt" + zip},
		{"@@//app/sub:replay_tests", "", "", "bazel-testlogs/app/sub/replay_tests/test.outputs/a.divergence.txt" + zip},
		{"//app:replay_tests", "1", "3", "bazel-testlogs/app/replay_tests/shard_2_of_3/test.outputs/a.divergence.txt" + zip},
		{"//app:replay_tests", "0", "1", "bazel-testlogs/app/replay_tests/test.outputs/a.divergence.txt" + zip},
		{"@@//:replay_tests", "", "", "bazel-testlogs/replay_tests/test.outputs/a.divergence.txt" + zip},
	} {
		if got := testlogsPath(c.target, c.shard, c.shards, "a.divergence.txt"); got != c.want {
			t.Errorf("testlogsPath(%q, %q, %q) = %q, want %q", c.target, c.shard, c.shards, got, c.want)
		}
	}
}

func TestKeptOutsideBazel(t *testing.T) {
	t.Setenv("TEST_TARGET", "")
	if got := kept("/tmp/x.txt"); got != "/tmp/x.txt" {
		t.Errorf("kept outside Bazel = %q, want the path itself", got)
	}
}
