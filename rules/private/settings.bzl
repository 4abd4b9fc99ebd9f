"""Build settings of rules_capture: the capture mode and the observed set.

Both are ordinary Starlark flags, so they can be set on the command line
(`--@rules_capture//rules:mode=capture`) as well as by the transitions in
transition.bzl, which is how go_capture_binary and go_replay_test set them.
"""

load(":providers.bzl", "CaptureEntryInfo", "CaptureModeInfo", "ObservedSetInfo")

CAPTURE_MODES = ["off", "capture", "replay"]

def _capture_mode_flag_impl(ctx):
    mode = ctx.build_setting_value
    if mode not in CAPTURE_MODES:
        fail("{}: capture mode must be one of {}, got {}".format(
            ctx.label,
            ", ".join(CAPTURE_MODES),
            repr(mode),
        ))
    return [CaptureModeInfo(mode = mode)]

capture_mode_flag = rule(
    implementation = _capture_mode_flag_impl,
    build_setting = config.string(flag = True),
    doc = "The capture mode: `off` (normal build), `capture` or `replay`.",
)

def _observed_set_flag_impl(ctx):
    return [ObservedSetInfo(entries = ctx.build_setting_value)]

observed_set_flag = rule(
    implementation = _observed_set_flag_impl,
    build_setting = config.string_list(flag = True),
    doc = """The observed set: labels of go_library targets (`//pkg:name`, `@repo//pkg:name`)
or Go import paths. Only libraries wrapped by rules_capture's `go_library` can be observed.""",
)

def _entry_packages_flag_impl(ctx):
    return [CaptureEntryInfo(packages = ctx.build_setting_value)]

entry_packages_flag = rule(
    implementation = _entry_packages_flag_impl,
    build_setting = config.string_list(flag = False),
    doc = """Packages (`//pkg`) holding the main package of the binary being captured: their
wrapped go_library targets of package main get `defer probe.Close()` in main and
os.Exit routed through probe.Exit, so the log is complete when the program ends.""",
)
