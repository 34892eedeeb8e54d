"""One semantic change of the registry, the kinds there are, and which of them a changelog
entry words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from docgen.errors import Problem, one_line, printable_message
from docgen.registry.model import Arg, Source

KINDS = (
    "profile-added", "profile-removed", "profile-renamed", "profile-changed",
    "arg-added", "arg-removed", "arg-changed", "arg-restated", "args-reordered", "arg-moved",
    "env-changed", "launcher-changed", "step-summary-changed",
    "host-default-changed", "support-changed", "selection-changed",
    "override-added", "override-removed", "override-renamed", "override-changed",
    "image-changed", "model-changed", "expect-changed", "evidence-changed",
    "host-changed", "image-updated", "model-added", "model-removed",
    "agent-changed", "product-changed", "vllm-changed",
)  # fmt: skip

#: The kinds a changelog entry leaves out, and why; ``diff`` still shows them. Every
#: other kind needs an entry (``check --changelog-since``) and gets a bullet.
LEFT_OUT = {
    "arg-restated": "the same argv written another way (a mapping or its JSON text): vLLM "
    "runs the same command",
    "args-reordered": "the same args in another order: vLLM reads them the same",
    "arg-moved": "an argument moved between the launcher's shared args and the profiles' "
    "own: every command gives it the same value",
    "expect-changed": "a guard on the command, not a change of it: the command is the same",
    "evidence-changed": "a measurement of a profile, not a change to what it runs",
    "step-summary-changed": "the words a launcher step is described by, not what it runs "
    "(which is launcher-changed)",
    "host-changed": "a host's name, arch, notes or default image: the pages say it anew, "
    "and what runs differently is each profile's image-changed",
    "image-updated": "an image's own fields: what a profile runs differently because of it "
    "is that profile's image-changed",
    "model-added": "a model no profile serves yet: the profile-added change says when one does",
    "model-removed": "a model no profile served any longer: profile-removed said so",
    "override-renamed": "an override's id, with the same args: operators set the same "
    "thing, and its new heading is the pages' to show",
    "agent-changed": "the agents the docs are written for, not what any of them runs",
    "product-changed": "the product's names and links in the docs, not what it runs",
    "vllm-changed": "what validation accepts, not what any command runs",
}


def guard_hints(changes: Sequence[Change]) -> list[Problem]:
    """For each argument removed from a profile that does not guard against it yet, the
    ``expect: absent`` that keeps a later edit from quietly bringing it back."""
    hints = []
    for change in changes:
        profile = change.extra.get("profile")
        if change.kind != "arg-removed" or profile is None:
            continue
        if change.name in profile.expect_absent:
            continue
        if any(a.name == change.name for a in profile.effective_args):
            continue  # still in the command (the launcher's shared args set it)
        hints.append(
            Problem(
                f"to keep '--{change.name}' out of profile '{profile.id}' in later edits, add "
                f"'{change.name}' to its expect: absent list",
                profile.source.location,
                severity="note",
                rule="changelog-guard",
            )
        )
    return hints


def released(changes: Sequence[Change]) -> list[Change]:
    """The changes a changelog entry words (every kind not ``LEFT_OUT``)."""
    return [c for c in changes if c.kind not in LEFT_OUT]


@dataclass(frozen=True)
class Change:
    """One semantic change: its kind, the profile (or host/model) and old and new values."""

    kind: str
    subject: str  # profile id, host id or model slug
    name: str = ""  # flag, override id, field
    old: Any = None
    new: Any = None
    source: Source | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "subject": self.subject}
        if self.name:
            out["name"] = self.name
        if self.old is not None:
            out["old"] = self.old
        if self.new is not None:
            out["new"] = self.new
        if self.source is not None:
            loc = self.source.location
            out["source"] = {
                "key": self.source.name,
                "file": loc.path,
                "line": loc.line,
                "column": loc.col,
            }
        return out

    def __str__(self) -> str:
        where = f"{self.source.location}: " if self.source else ""
        what = f" {self.name}" if self.name else ""
        values = ""
        if self.old is not None or self.new is not None:
            values = f": {shown(self.old)} -> {shown(self.new)}"
        # Registry text is data: a newline or a terminal's escape is shown, not obeyed,
        # and an invisible character is shown too (a change to one would read as none).
        return printable_message(one_line(f"{where}{self.kind} {self.subject}{what}{values}"))


def counted(changes: Sequence[Change]) -> str:
    """``1 semantic change``, ``3 semantic changes``."""
    return f"{len(changes)} semantic change{'' if len(changes) == 1 else 's'}"


def shown(value: Any) -> str:
    """A change value as `diff` prints it."""
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def arg_value(arg: Arg) -> str:
    """The value an argument's tokens give: the tokens after the flag, or the flag alone."""
    return " ".join(arg.tokens[1:]) if len(arg.tokens) > 1 else arg.tokens[0]
