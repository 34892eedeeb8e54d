"""Everything docgen reads from git: the registry as committed at a revision, and the
files of a folder changed since one."""

from __future__ import annotations

import subprocess
from pathlib import Path

from docgen.config import Project
from docgen.errors import ConfigError, Location

#: The option every git failure is reported against.
SINCE = Location("--since")


def registry_bytes_at(project: Project, ref: str) -> bytes:
    """The registry file's bytes as committed at git revision ``ref``."""
    root = _text(project.root, "rev-parse", "--show-toplevel", what="a git repository").strip()
    rel = project.registry_path.resolve().relative_to(Path(root).resolve()).as_posix()
    _known_revision(project.root, ref)
    return _bytes(
        project.root, "show", f"{ref}:{rel}", what=f"{project.config.registry} at revision '{ref}'"
    )


def changed_since(project: Project, ref: str, folder: str) -> list[str]:
    """The files under ``folder`` changed since ``ref``, then the new ones git does not
    ignore; a git failure gives no files."""
    changed = _run(project.root, "diff", "--name-only", ref, "--", folder)
    untracked = _run(project.root, "ls-files", "--others", "--exclude-standard", "--", folder)
    return _decode(changed.stdout).split() + _decode(untracked.stdout).split()


def _known_revision(cwd: Path, ref: str) -> None:
    """Refuse a revision that is not a commit here, with a hint in a shallow clone."""
    verify = ("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    try:
        _bytes(cwd, *verify, what=f"revision '{ref}'")
    except ConfigError:
        shallow = _text(cwd, "rev-parse", "--is-shallow-repository", what="git").strip()
        hint = (
            " (this is a shallow clone: fetch more history, e.g. `git fetch --unshallow`)"
            if shallow == "true"
            else ""
        )
        raise ConfigError.at(SINCE, f"unknown git revision '{ref}'{hint}") from None


def _text(cwd: Path, *args: str, what: str) -> str:
    return _decode(_bytes(cwd, *args, what=what))


def _bytes(cwd: Path, *args: str, what: str) -> bytes:
    """What ``git args`` prints; a failure is an error saying it cannot read ``what``."""
    done = _run(cwd, *args)
    if done.returncode != 0:
        raise ConfigError.at(
            SINCE, f"cannot read {what}: {_decode(done.stderr).strip() or 'git failed'}"
        )
    return done.stdout


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError:
        raise ConfigError.at(SINCE, "git is not installed") from None


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")
