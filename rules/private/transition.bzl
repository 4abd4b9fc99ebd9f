"""The one configuration transition of rules_capture.

Every rule that builds something in capture or replay mode declares the same
two attributes, `observed` (the observed set, canonical strings) and
`_capture_mode`, and puts `capture_transition` on the edge to the Go target it
wraps. Setting both settings together keeps one configuration per
(mode, observed set) pair, so two wrappers with the same observed set share
every compiled package, as rules_go's race mode shares its configuration.
"""

MODE_SETTING = "//rules:mode"
OBSERVE_SETTING = "//rules:observe"
ENTRY_SETTING = "//rules:entry"

def _capture_transition_impl(_settings, attr):
    # Sorted and deduplicated: the configuration depends on the set, not on
    # the order the user wrote it in.
    observed = sorted({e: None for e in attr.observed}.keys())
    return {
        MODE_SETTING: attr._capture_mode,
        OBSERVE_SETTING: observed,
        ENTRY_SETTING: sorted(getattr(attr, "entry", [])),
    }

capture_transition = transition(
    implementation = _capture_transition_impl,
    inputs = [],
    outputs = [MODE_SETTING, OBSERVE_SETTING, ENTRY_SETTING],
)

def _capture_off_transition_impl(_settings, _attr):
    return {MODE_SETTING: "off", OBSERVE_SETTING: [], ENTRY_SETTING: []}

# Used on tool edges (the transform front end): tools must not be rebuilt once
# per observed set, and must never be instrumented themselves.
capture_off_transition = transition(
    implementation = _capture_off_transition_impl,
    inputs = [],
    outputs = [MODE_SETTING, OBSERVE_SETTING, ENTRY_SETTING],
)

TRANSITION_ATTRS = {
    "_allowlist_function_transition": attr.label(
        default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
    ),
}
