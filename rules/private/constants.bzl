"""Facts the rules share with rules_capture's Go code, each spelled once in Starlark.

Starlark cannot read a Go constant, so the Go definitions named below are the
other spelling; TestStarlarkFacts (tool/internal/harnessgen) reads this file
and fails when the two differ. (The check levels are replay.bzl's CHECK_LEVELS,
which runtime/probectl's TestCheckLevelsMatchStarlark checks.)
"""

# Import path of the probe runtime (tool/transform.ProbeImport): the linker
# variables of a capture or replay binary are set in this package.
PROBE_IMPORTPATH = "github.com/rules-capture/rules_capture/runtime/probe"
