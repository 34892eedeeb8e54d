"""Reading a settings file (docgen.toml, pyproject.toml): its text, and where in it a
setting or a table is written, for located errors."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from docgen.errors import ConfigError, Location, RegistryError, decode


def tool_location(path: Path) -> Location:
    """Where pyproject.toml gives ``tool.docgen`` something else than a table: an array
    of tables ``[[tool.docgen]]``, or ``docgen = ...`` under ``[tool]``."""
    table = ""
    for number, line in enumerate(settings_text(path).splitlines(), start=1):
        stripped = line.strip()
        if re.match(r"\[\[\s*tool\s*\.\s*docgen\s*\]\]", stripped):
            return Location(path.name, number, line.index("[") + 1)
        if stripped.startswith("["):
            table = re.sub(r"\s", "", stripped)
        elif table == "[tool]" and re.match(r"docgen\s*=", stripped):
            return Location(path.name, number, line.index("docgen") + 1)
    return Location(path.name)


def docgen_table(tool: object, path: Path, alone: bool = True) -> dict[str, Any] | None:
    """pyproject.toml's ``tool.docgen`` table, or None. Anything else there is a located
    error; so, when the file is ``alone`` (no docgen.toml), is a table named as docgen
    spelt otherwise (``[tool.doc-gen]``, ``[tool.DocGen]``), whose settings went unread."""
    if not isinstance(tool, dict):
        return None
    table = tool.get("docgen")
    if table is not None and not isinstance(table, dict):
        raise ConfigError.at(tool_location(path), "[tool.docgen] must be a table of settings")
    for name in tool if alone else ():  # beside [tool.docgen.routes] too
        if name != "docgen" and re.sub(r"[-_.]", "", str(name).lower()) == "docgen":
            raise ConfigError.at(
                _table_location(path, str(name)),
                f"[tool.{name}] is no table docgen reads: its settings go in [tool.docgen]",
            )
    return table


def _table_location(path: Path, name: str) -> Location:
    for number, line in enumerate(settings_text(path).splitlines(), start=1):
        if re.match(rf"\s*\[+\s*tool\s*\.\s*[\"']?{re.escape(name)}\b", line):
            return Location(path.name, number, line.index("[") + 1)
    return Location(path.name)


def settings_text(path: Path) -> str:
    """The settings file as text, or a located error at its first byte that is not UTF-8
    (or when it is a link that leaves the project root: docgen reads nothing outside)."""
    if not path.resolve().is_relative_to(path.parent.resolve()):
        raise ConfigError.at(
            Location(path.name),
            "the settings file is a symbolic link that leaves the project root; "
            "docgen reads only files inside it",
        )
    try:
        return decode(path.read_bytes(), path.name)
    except OSError as exc:
        raise ConfigError.at(
            Location(path.name), f"cannot read the settings file: {exc.strerror or exc}"
        ) from None
    except RegistryError as exc:
        raise ConfigError([replace(p, rule=ConfigError.rule) for p in exc.problems]) from None


def toml_position(message: str) -> tuple[int, int]:
    match = re.search(r"line (\d+), column (\d+)", message)
    return (int(match[1]), int(match[2])) if match else (1, 1)


def key_location(path: Path, key: str) -> Location:
    """Where ``key`` is set: its ``key = ...`` line, else a table header that names it
    (``[routes]``, ``[tool.docgen.routes]``); else the file alone."""
    lines = settings_text(path).splitlines()
    for number, line in enumerate(lines, start=1):
        if re.match(rf"\s*([\"']?){re.escape(key)}\1\s*=", line):
            return Location(path.name, number, line.index(key) + 1)
    for number, line in enumerate(lines, start=1):
        if re.match(rf"\s*\[+[^\]]*\b{re.escape(key)}\b[^\]]*\]", line):
            return Location(path.name, number, line.index("[") + 1)
    return Location(path.name)
