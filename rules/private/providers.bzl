"""Providers of rules_capture: the contracts between its rules."""

CaptureModeInfo = provider(
    doc = "Value of the //rules:mode build setting.",
    fields = {"mode": "string: off, capture or replay"},
)

ObservedSetInfo = provider(
    doc = "Value of the //rules:observe build setting.",
    fields = {"entries": "list of strings: canonical labels or import paths of observed packages"},
)

CaptureEntryInfo = provider(
    doc = "Value of the //rules:entry build setting.",
    fields = {"packages": "list of strings: canonical packages (`@repo//pkg`) of the captured binary's main package"},
)

CaptureSourcesInfo = provider(
    doc = """Returned by the source-selection step of a wrapped go_library: which sources the
library compiles in the current configuration and why.""",
    fields = {
        "library": "string: canonical label of the go_library these sources belong to",
        "importpath": "string: import path of the library",
        "mode": "string: the capture mode of the configuration",
        "observed": "bool: True if the library is in the observed set and mode is not off (the sources are transformed)",
        "srcs": "list of File: the sources handed to the compiler (the originals when not observed)",
        "original_srcs": "list of File: the library's own sources (what the log's source hash covers)",
        "constraints": "list of strings: -goos/-goarch/-tags/-cgo arguments of the configuration (empty when not observed)",
    },
)

ObservedSourcesInfo = provider(
    doc = """Collected by observed_sources_aspect over a Go binary's dependencies: the sources of the
observed packages it links, for the stamp of go_capture_binary.""",
    fields = {
        "srcs": "depset of strings `IMPORTPATH=FILE` (exec paths of the original Go sources)",
        "files": "depset of File: those sources",
        "constraints": "depset of tuples of strings: the build-constraint arguments of the observed packages' configuration",
    },
)

CaptureBinaryInfo = provider(
    doc = "Returned by go_capture_binary.",
    fields = {
        "observed": "list of strings: the observed set the binary was built with",
        "entry": "list of strings: packages (`//pkg`) of the binary's main package",
        "executable": "File: the instrumented binary",
    },
)
