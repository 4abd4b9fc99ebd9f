"""Offline stand-in for @package_metadata//providers:package_metadata_info.bzl.

Gazelle >= 0.45 attaches package metadata (bazel-contrib/supply-chain) to every
go_repository. That repository is neither packaged by Debian nor served by the Go
module proxy, so the offline setup substitutes this provider with the same fields.
"""

PackageMetadataInfo = provider(
    doc = "Metadata of an external package (offline stand-in).",
    fields = ["metadata", "files_to_build", "purl"],
)
