"""vLLM's start-time rules between flags: what ``validate_parsed_serve_args`` refuses
before a server starts (vLLM 0.34.0, ``vllm/entrypoints/common/cli_args.py``), checked
statically so that ``validate`` catches it without the 1.9 GB parser venv.

``verify-vllm`` runs vLLM's own parser; ``tests/integrations/test_vllm_verify.py`` proves
on a corpus of commands that this table gives the verdicts vLLM gives.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Requirement:
    """``flag``, when on, needs ``needs`` on, or ``excludes`` off."""

    flag: str
    needs: str = ""
    excludes: str = ""

    def problem(self) -> str:
        if self.needs:
            return f"--{self.flag} requires --{self.needs}"
        return f"--{self.flag} cannot be combined with --{self.excludes}"


RULES = (
    Requirement("enable-auto-tool-choice", needs="tool-call-parser"),
    Requirement("enable-log-outputs", needs="enable-log-requests"),
    Requirement("enable-per-request-metrics", excludes="disable-log-stats"),
)


def is_on(values: Mapping[str, Any], name: str) -> bool:
    """Whether registry args ``values`` (the last value of each flag) turn ``name`` on: set
    to anything but false, null or an empty value."""
    value = values.get(name)
    if value is None or value is False:
        return False
    return not (isinstance(value, (str, list, dict)) and not value)


def broken(values: Mapping[str, Any]) -> Iterator[Requirement]:
    """The rules that registry args ``values`` break, in table order."""
    for rule in RULES:
        missing = bool(rule.needs) and not is_on(values, rule.needs)
        clash = bool(rule.excludes) and is_on(values, rule.excludes)
        if is_on(values, rule.flag) and (missing or clash):
            yield rule
