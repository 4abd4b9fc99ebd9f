"""Offline stand-in for @package_metadata//rules:package_metadata.bzl."""

load("//providers:package_metadata_info.bzl", "PackageMetadataInfo")

def _package_metadata_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".package-metadata.json")
    ctx.actions.write(out, json.encode({"purl": ctx.attr.purl}))
    return [
        DefaultInfo(files = depset([out])),
        PackageMetadataInfo(metadata = out, files_to_build = depset([out]), purl = ctx.attr.purl),
    ]

_package_metadata = rule(
    implementation = _package_metadata_impl,
    attrs = {
        "attributes": attr.label_list(),
        "purl": attr.string(mandatory = True),
    },
)

def package_metadata(name, purl, attributes = [], visibility = None, **_kwargs):
    # applicable_licenses = []: the repository's default_package_metadata would
    # otherwise apply to this target itself and form a dependency cycle.
    _package_metadata(
        name = name,
        purl = purl,
        attributes = attributes,
        visibility = visibility,
        applicable_licenses = [],
    )
