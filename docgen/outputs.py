"""What a plan is: every output docgen owns (its path, text or digest, and the registry
nodes behind it), with the pages it publishes and what each page read."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from docgen import stamps
from docgen.io import reads
from docgen.io.files import as_lf
from docgen.registry.model import Registry, Source

if TYPE_CHECKING:
    from docgen.incremental import Record
    from docgen.navigation import Navigation


@dataclass(frozen=True)
class Output:
    """One file docgen owns: project-relative POSIX path, full text, provenance."""

    path: str
    text: str
    origin: str
    sources: tuple[Source, ...] = ()
    kind: str = "page"  # page | region | variant | export
    #: In a cached plan: the SHA-256 of the UTF-8 text, which is then left out ("").
    digest: str = ""
    #: What its sources are: ``registry`` nodes, or the ``changelog`` entries (whose
    #: overview only takes the product's name and links from the registry).
    basis: str = "registry"
    #: In a digest-only output of a kept page: its frontmatter (the navigation's titles).
    head: str = ""
    #: Whether the plan found its file on disk holding exactly its text (what a check
    #: renders; see ``verified_on_disk``), so comparing it again is not needed.
    verified: bool = False
    #: Where a build staged its text as it rendered it (see ``docgen.prestage``).
    staged: str = ""
    #: When ``verified``: its file's stat (``docgen.stamps``), taken before the read that
    #: found the text there.
    stat: tuple[int, ...] = ()

    @property
    def owned(self) -> bool:
        """Whether docgen owns the whole file (a region page is the author's)."""
        return self.kind != "region"

    @property
    def text_digest(self) -> str:
        """The SHA-256 of its text: ``digest`` in a cached plan, else worked out."""
        return self.digest or hashlib.sha256(self.text.encode()).hexdigest()

    def digest_only(self, verified: bool = False, stat: tuple[int, ...] = ()) -> Output:
        """This output as the SHA-256 of its text, with its frontmatter and no sources
        (``verified``: its file on disk, of ``stat``, holds that text), staged nowhere."""
        if self.digest:
            fits = self.verified == verified and not self.staged and self.stat == stat
            return self if fits else replace(self, verified=verified, staged="", stat=stat)
        digest = self.text_digest
        head = _frontmatter(self.text)
        return replace(
            self, text="", sources=(), digest=digest, head=head, verified=verified, stat=stat
        )

    @property
    def frontmatter(self) -> str:
        """Its frontmatter with the opening marker ("" for a page without one), from its
        text or, for a digest-only output, as kept in ``head``."""
        return _frontmatter(self.text) if self.text else self.head


def _frontmatter(text: str) -> str:
    return text.split("\n---", 1)[0] if text.startswith("---") else ""


def on_disk(root: reads.Inside, output: Output) -> os.stat_result | None:
    """The stat of the file at ``output``'s path, inside ``root``, taken before it was
    read, when it holds exactly its text; else None (also for a file that cannot be read
    there, or leads outside, or stands at a symbolic link: a file of its own goes there)."""
    try:
        real, info, link = reads.lookup_link(os.path.join(root.root, output.path), root)
        raw = None if real is None or link else reads.read_bytes(real)
        if raw is None:
            return None
        text = output.text.encode()
        # A checkout's Windows line ends (``core.autocrlf``) hold the same text.
        same = raw == text or (b"\r\n" in raw and as_lf(raw) == as_lf(text))
        return info if same else None
    except OSError:  # it cannot be read (comparing it again says why)
        return None


def verified(root: reads.Inside, output: Output) -> Output:
    """``output`` as its digest (``verified``, with its file's stat) when its file already
    holds exactly its text, so neither the process that rendered it nor the plan holds
    that text, and comparing skips it; else as it is."""
    info = None if output.digest else on_disk(root, output)
    if info is None:
        return output
    return output.digest_only(verified=True, stat=stamps.of(info))


def verified_on_disk(root: reads.Inside) -> Callable[[Output], Output]:
    """What a check passes each output through as it is rendered (see ``verified``)."""
    return partial(verified, root)


@dataclass(frozen=True)
class Plan:
    registry: Registry
    outputs: tuple[Output, ...]
    #: Every published page (not variants) with the ids of the agents it is published for.
    pages: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: False for a cached plan: no profiles in the registry, and each output has only the
    #: digest of its text and no sources; enough to prove a tree in sync, nothing more.
    complete: bool = True
    #: The text of each published page docgen does not write (a hand-written page without
    #: regions), so the preview serves every page from the plan; empty in a cached plan.
    texts: tuple[tuple[str, str], ...] = ()
    #: The project's Fern navigation, when it has one: what it publishes, and where.
    navigation: Navigation | None = None
    #: What each page read, for the next plan to skip what an edit cannot reach.
    record: Record | None = None

    @property
    def full_registry(self) -> Registry | None:
        """The registry, unless it is a cached plan's slim one (no entries)."""
        return self.registry if self.registry.hosts else None

    def by_path(self) -> dict[str, Output]:
        return {o.path: o for o in self.outputs}
