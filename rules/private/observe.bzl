"""Canonical spelling of observed-set entries (evaluated in the BUILD file's package)."""

def canonical_observe(observe):  # buildifier: disable=unnamed-macro
    """Returns the observed set as canonical strings.

    Labels (starting with `//`, `@` or `:`) become canonical label strings,
    resolved against the calling package; anything else is a Go import path and
    is kept as written.

    Args:
      observe: list of go_library labels (strings or Labels) or Go import paths.

    Returns:
      The sorted, deduplicated list of canonical strings.
    """
    if type(observe) != "list" or not observe:
        fail("observe must be a non-empty list of go_library labels or import paths, got {}".format(repr(observe)))
    out = []
    for entry in observe:
        if type(entry) == "Label":
            s = str(entry)
        elif entry.startswith("//") or entry.startswith("@") or entry.startswith(":"):
            s = str(native.package_relative_label(entry))
        else:
            s = entry
        if s not in out:
            out.append(s)
    return sorted(out)

def package_key(label):
    """The canonical package of a Label: `//pkg` in the main repository, `@repo//pkg` elsewhere."""
    return "{}//{}".format("@" + label.workspace_name if label.workspace_name else "", label.package)
