"""What comparing a plan with the files on disk found: each file's status, why it fails
``check``, and (``docgen.blame``) the registry entries behind it; ``docgen.sync``
compares, ``docgen.report`` shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from docgen.errors import Problem, one_line
from docgen.outputs import Output
from docgen.registry.model import Source
from docgen.render.file_kinds import SUFFIXES
from docgen.stamps import Stamps, Stat

if TYPE_CHECKING:
    from docgen.drift_diff import LineDiff

NEW, CHANGED, UNCHANGED, STALE = "new", "changed", "unchanged", "stale"
#: The statuses of a file that is not as docgen would write it.
DRIFTED = (NEW, CHANGED, STALE)
#: Why a file that is not unchanged fails ``check``, in the words every report uses
#: (``Change.why`` names the changelog entries instead where they are the cause).
WHY = {
    NEW: "missing: docgen would create it",
    CHANGED: "out of date with the registry",
    STALE: "stale: no template or registry entry produces it any more",
}
REGISTRY, CHANGELOG = "the registry", "the changelog entries"
#: A line of the changelog overview, with the release it lists.
_RELEASE_LINE = re.compile(r"^- \[?(v[0-9]+\.[0-9]+\.[0-9]+)[\] ]", re.MULTILINE)
#: The kinds of file docgen writes, and so may find stale and prune.
OWNABLE = SUFFIXES


@dataclass(frozen=True)
class Shown:
    """What a report shows of a changed file (see ``Change.shown``)."""

    line: int  # the first line that differs
    diff: str
    behind: list[Source]


@dataclass(frozen=True)
class Change:
    """What would happen to one path: new, changed, unchanged or stale."""

    path: str
    status: str
    output: Output | None = None
    old: str | None = None
    #: Registry values removed since the text on disk was built (located in the older
    #: registry), which a pure removal's drift is blamed on.
    gone: tuple[Source, ...] = ()
    #: The (key path, text) of every value of that older registry: a value it holds
    #: unchanged cannot be behind the drift.
    kept: frozenset[tuple[Any, str]] = frozenset()
    #: Whether the plan kept this output's digest from the build that stored it (nothing
    #: it is made of changed since): known only with the build's cache.
    kept_as_built: bool = False
    #: Whether its text on disk is one no commit holds at its path: it was edited in the
    #: working tree (staged or not), not checked out.
    never_committed: bool = False
    #: Where the link that stands at this output's path leads (project-relative), if one does.
    link: str = ""
    #: What stands at its path that is no file (``a FIFO``), which a build replaces.
    stands: str = ""

    def shown(self, name: str | None = None) -> Shown:
        """What a report shows of this changed file: where it first differs, a unified
        diff from the file on disk to the planned text (its headers name the file ``name``;
        default: its path; a report may pass the path escaped; see ``docgen.drift_diff``)
        and the entries behind it (see ``behind``). Both texts are split into lines once,
        and let go after: a report holds every change, some of them whole large pages."""
        from docgen.drift_diff import LineDiff

        lines = LineDiff(self.old or "", self.output.text if self.output else "")
        first = 1 if self.link else lines.first_line  # a link may lead to the same text
        return Shown(first, lines.unified(name or self.path), self._behind(lines))

    def behind(self) -> list[Source]:
        """The registry entries (or changelog entries) whose text appears in the lines
        that differ."""
        return self._behind(None)

    def _behind(self, lines: LineDiff | None) -> list[Source]:
        if self.output is None or self.old is None or self._edited_here:
            return []
        from docgen.blame import attribute

        return attribute(self.old, self.output, self.gone, self.kept, lines, self.kept_as_built)

    @property
    def cause(self) -> str:
        """What the drift comes from: the registry, or the changelog entries (which are
        behind it, or which releases it lists changed: an entry deleted is no source)."""
        if self.output is None or self.output.basis != "changelog":
            return REGISTRY
        if self.status != CHANGED or self.behind():
            return CHANGELOG
        listed = [set(_RELEASE_LINE.findall(t)) for t in (self.old or "", self.output.text)]
        return CHANGELOG if listed[0] != listed[1] else REGISTRY

    @cached_property  # asked by the verdict, the file's line and the JSON alike
    def edited(self) -> bool:
        """Whether this changed file reads as a hand edit: its output was kept as built
        (nothing it is made of changed since), and no commit holds its text, or no
        registry entry is behind what differs (pages a checkout brought back from another
        registry state are not)."""
        return self._changed_as_built and (self.never_committed or not self.behind())

    @property
    def _changed_as_built(self) -> bool:
        """A file (no link) that differs from what the build's cache kept as built."""
        return not self.link and self.status == CHANGED and self.kept_as_built

    @property
    def _edited_here(self) -> bool:
        """Kept as built, yet holding a text no commit holds: whatever registry values its
        changed lines show, none of them changed since the build."""
        return self._changed_as_built and self.never_committed

    @property
    def why(self) -> str:
        """Why this file fails ``check``, naming its real cause."""
        if self.link:
            return (
                f"a symbolic link to {one_line(self.link)}, where docgen writes a file of its "
                "own: `docgen build` replaces the link"
            )
        if self.stands:
            return (
                f"{self.stands} stands where docgen writes a file of its own: "
                "`docgen build` replaces it"
            )
        if self.edited:
            return (
                "edited since docgen wrote it, though nothing it is made of changed: "
                f"`docgen build` would undo the edit; make it in {self.made_in} instead"
            )
        if self.status == CHANGED:
            return f"out of date with {self.cause}"
        return WHY[self.status]

    @property
    def made_in(self) -> str:
        """Where an edit of this output belongs: its template, the changelog entries, the
        registry, or (a variant, a region) the file its notice names."""
        made = self.output.origin if self.output else ""
        if self.output is not None and self.output.basis == "changelog":
            return "the changelog entries"
        if self.output is not None and self.output.kind == "export":
            return "the registry"
        if made.endswith(".j2"):
            return f"{one_line(made)} or the registry"
        return "the file its notice names (or a template), or the registry"

    @property
    def behind_label(self) -> str:
        """How a report introduces each of ``behind()``: "registry entry" or "changelog entry"."""
        changelog = self.output is not None and self.output.basis == "changelog"
        return "changelog entry" if changelog else "registry entry"


def causes(changes: list[Change]) -> str:
    """``the registry``, ``the changelog entries`` or both, for a summary line."""
    found = {c.cause for c in changes}
    return " and ".join(c for c in (REGISTRY, CHANGELOG) if c in found) or REGISTRY


@dataclass
class Report:
    changes: list[Change] = field(default_factory=list)
    #: Broken rules found by check beyond drift (changelog history, the changelog gate).
    findings: list[Problem] = field(default_factory=list)
    #: The planned build products left out of the comparison (setting ``build_products``).
    not_compared: list[str] = field(default_factory=list)
    #: Each output found holding its text: its digest and its file's stat before the read.
    held: dict[str, tuple[str, Stat]] = field(default_factory=dict)
    #: How many of them the stamps already held as they are (the rest are news to them).
    known: int = 0

    def hold(self, path: str, digest: str, stat: Stat, known: Stamps | None) -> None:
        """Note that the file at ``path`` (of ``stat``) holds the text of ``digest``."""
        self.held[path] = entry = (digest, stat)
        self.known += known is not None and known.entries.get(path) == entry

    def of(self, *statuses: str) -> list[Change]:
        return [c for c in self.changes if c.status in statuses]

    @property
    def in_sync(self) -> bool:
        return not self.of(NEW, CHANGED, STALE) and not self.findings
