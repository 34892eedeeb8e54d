"""The local storage a profile's cold install needs, computed from registry numbers: the
image's compressed and unpacked layers, the model files, and the launcher's staging
reserve and writable allowance (``launcher.storage``)."""

from __future__ import annotations

from dataclasses import dataclass

from docgen.registry.model import Launcher, Profile


@dataclass(frozen=True)
class StorageEstimate:
    """Each part of the estimate, as (what, bytes) in the order a page names them."""

    parts: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(size for _what, size in self.parts)


def estimate(profile: Profile, launcher: Launcher) -> StorageEstimate | None:
    """The estimate for ``profile``, or None when the registry lacks the image's compressed
    size or the model's download size (a figure is never guessed)."""
    image, model = profile.image, profile.model
    if image is None or image.compressed_bytes is None or model.download_bytes is None:
        return None
    parts = [("compressed image layers", image.compressed_bytes)]
    if image.unpacked_bytes is not None:
        parts.append(("unpacked image layers", image.unpacked_bytes))
    parts.append(("model files", model.download_bytes))
    if launcher.storage is not None:
        parts.append(("model-download staging", launcher.storage.staging_reserve_bytes))
        parts.append(("writable allowance", launcher.storage.writable_allowance_bytes))
    return StorageEstimate(tuple(parts))
