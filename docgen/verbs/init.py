"""``docgen init``: scaffold a small working project that passes ``check`` at once."""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from docgen.config import load_project
from docgen.errors import ConfigError, Location
from docgen.sync import DRIFTED

#: Files and folders whose presence means a project is already there.
EXISTING = ("profiles.yaml", "templates", "docgen.toml", "mkdocs.yml", "changelog")
EMPTY_FOLDERS = ("changelog", "site_extra", "changelog.d")


def scaffold_files() -> dict[str, str]:
    """Relative path -> text of every file the scaffold ships."""
    root = resources.files("docgen").joinpath("scaffold")
    return dict(_walk(root, ""))


def _walk(node: Traversable, prefix: str) -> list[tuple[str, str]]:
    out = []
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        rel = f"{prefix}{child.name}"
        if child.is_dir():
            out += _walk(child, f"{rel}/")
        elif not child.name.endswith((".pyc",)):
            out.append((rel, child.read_text("utf-8")))
    return out


def init(target: Path) -> list[str]:
    """Write the scaffold into ``target`` (made if missing) and build it; refuse to touch an
    existing project."""
    target.mkdir(parents=True, exist_ok=True)
    for name in EXISTING:
        if (target / name).exists():
            raise ConfigError.at(
                Location(str(target / name)),
                "a project is already here; docgen init never overwrites files",
            )
    written = []
    for rel, text in scaffold_files().items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
        written.append(rel)
    for folder in EMPTY_FOLDERS:
        (target / folder).mkdir(exist_ok=True)
        (target / folder / ".gitkeep").write_text("", "utf-8")
        written.append(f"{folder}/.gitkeep")
    from docgen.verbs.build import build

    built = build(load_project(target))
    written += [c.path for c in built.report.of(*DRIFTED)]
    return written
