"""Everything docgen reads from git: the registry (or another file) as committed at a
revision, the files of a folder changed since one, which files git ignores, and which
files hold a text no commit holds (a hand edit, told from a checkout)."""

from __future__ import annotations

import os
import re
import stat
import subprocess
from pathlib import Path

from docgen.config import Project
from docgen.errors import ConfigError, Location, RegistryError, one_line
from docgen.io.files import MAX_BYTES, as_lf_text

#: The option a git failure is reported against, unless the caller names another.
SINCE = "--since"
#: What ``git cat-file --batch-check`` prints of an object it finds (and what it matches).
_OBJECT_FORMAT = "%(objectname) %(objecttype) %(objectsize)"
_LIMIT_MB = f"{MAX_BYTES / 1e6:.0f}"
_OBJECT = re.compile(r"([0-9a-f]{40,64}) ([a-z]+) ([0-9]+)\n")
_OBJECT_ID = re.compile(r"\b[0-9a-f]{40,64}\b")


def registry_bytes_at(project: Project, ref: str, option: str = SINCE) -> tuple[bytes, str]:
    """The registry file's bytes as committed at git revision ``ref`` (a file, a blob, of
    at most ``MAX_BYTES``, its size asked of git before it is read) and the name git gives
    them (``HEAD:site/profiles.yaml``, from the repository's top, where its locations
    are). A failure is reported against the command-line ``option`` that gave ``ref``."""
    from docgen.registry.load import refuse_setting_of_no_file

    at = Location(option)
    refuse_setting_of_no_file(project)  # a setting's slip (no file, a folder) is said there
    if not os.path.lexists(project.registry_path):  # what the committed one is compared with
        raise RegistryError.at(Location(project.config.registry), "registry file not found")
    root = _text(project.root, "rev-parse", "--show-toplevel", what="a git repository", at=at)
    try:
        rel = project.registry_path.resolve().relative_to(Path(root.strip()).resolve())
    except ValueError:  # a link that leaves the repository: git holds no such file
        raise ConfigError.at(
            at,
            f"{project.config.registry} leads outside the git repository: git has no history of it",
        ) from None
    _known_revision(project.root, ref, at)
    what = f"{project.config.registry} at revision '{one_line(ref)}'"
    spec = f"{ref}:{rel.as_posix()}"
    found = _object(project.root, spec, at)
    if found is None and not _listed(project.root, ref, rel.as_posix()):
        raise NewSince.at(at, f"{what} did not exist: there is no older registry to compare with")
    if found is None:  # git printed "<spec> missing" (or "ambiguous")
        _bytes(project.root, "show", spec, what=what, at=at)  # git says why, in its words
        raise ConfigError.at(at, f"cannot read {what}")
    raw = _blob(project.root, found, what, at, "registries")
    if len(raw) <= LINK_MAX and _committed_link(project.root, ref, rel.as_posix()):
        raise ConfigError.at(
            at,
            f"{what} is a symbolic link (to '{one_line(_decode(raw))}'), not a file: docgen "
            "reads no registry through a link in history",
        )
    return raw, spec


#: Longest text of a symbolic link git may hold (a path on Linux): a blob this small may
#: be one, and git's tree is asked.
LINK_MAX = 4096


def _committed_link(cwd: Path, ref: str, path: str) -> bool:
    """Whether ``path`` (from the repository's top) is a symbolic link in ``ref``'s tree
    (whose blob holds the link's target as its text)."""
    listed = _decode(_run(cwd, "ls-tree", "--full-tree", ref, "--", path).stdout)
    return listed.startswith("120000 ")


def merge_base(project: Project, ref: str, option: str = SINCE) -> str:
    """Where the history of ``HEAD`` meets that of ``ref`` (``git merge-base``): what a
    branch changed is measured from there, not from a ``ref`` that has moved on since.
    ``ref`` itself where git finds no such commit (unrelated history, no commit yet); in
    a shallow clone that is an error (the commit may lie in history not fetched), and an
    unknown ``ref`` is refused as ``_known_revision`` refuses it."""
    at = Location(option)
    itself = _known_revision(project.root, ref, at)
    found = _run(project.root, "merge-base", ref, "HEAD")
    base = _decode(found.stdout).strip()
    if found.returncode == 0 and base:
        return ref if base == itself else base  # named as given where it is that commit
    if _shallow(project.root, at):  # the meeting point may lie in history not fetched
        raise ConfigError.at(
            at,
            f"this shallow clone does not hold where the history of HEAD meets "
            f"'{one_line(ref)}', so what this branch changed cannot be told from what "
            f"'{one_line(ref)}' changed since: fetch the history between them (`git fetch "
            "--unshallow`, or `fetch-depth: 0` with actions/checkout)",
        )
    return ref


def release_headings_at(project: Project, ref: str, folder: str, option: str = SINCE) -> set[str]:
    """Every release version a ``## vX.Y.Z`` heading names in an MDX file of the
    project-relative ``folder`` as committed at ``ref`` (a heading in code counts too:
    more known releases only make a new one harder to claim)."""
    pattern = r"^## (v[0-9]+\.[0-9]+\.[0-9]+)[[:space:]]*$"
    spec = f"{folder.rstrip('/')}/*.mdx"
    found = _run(project.root, "grep", "-h", "-E", pattern, ref, "--", spec, at=Location(option))
    return {line.split()[1] for line in _decode(found.stdout).splitlines() if len(line.split()) > 1}


def _listed(cwd: Path, ref: str, path: str) -> bool:
    """Whether the tree of ``ref`` has anything at ``path`` (from the repository's top)."""
    return bool(_run(cwd, "ls-tree", "--full-tree", ref, "--", path).stdout)


class NewSince(ConfigError):
    """The registry was not committed at the revision asked for: it is new since then."""


def text_at(project: Project, ref: str, path: str, option: str = SINCE) -> str | None:
    """The text of the file at project-relative ``path`` as committed at revision ``ref``
    (read as the registry is: a file of at most ``MAX_BYTES``); None where it was no file
    then."""
    at = Location(option)
    found = _object(project.root, f"{ref}:./{path}", at)
    if found is None or found[1] != "blob":
        return None
    text = _decode(_blob(project.root, found, f"{path} at revision '{one_line(ref)}'", at))
    return as_lf_text(text)  # as the file on disk is read


def _object(cwd: Path, spec: str, at: Location) -> tuple[str, str, str] | None:
    """The name, type and size of the object ``spec`` names; None where there is none."""
    batch = f"--batch-check={_OBJECT_FORMAT}"
    found = _OBJECT.fullmatch(
        _decode(_run(cwd, "cat-file", batch, given=f"{spec}\n", at=at).stdout)
    )
    return None if found is None else (found[1], found[2], found[3])


def _blob(
    cwd: Path, found: tuple[str, str, str], what: str, at: Location, limited: str = "files"
) -> bytes:
    """The bytes of a file git found, asked its size before it is read (``limited``: what
    the size limit is for, in its message)."""
    name, kind, size = found
    if kind != "blob":
        raise ConfigError.at(at, f"cannot read {what}: it is a {kind}, not a file")
    if int(size) > MAX_BYTES:
        raise ConfigError.at(
            at, f"{what} is {int(size) / 1e6:.1f} MB; docgen reads {limited} up to {_LIMIT_MB} MB"
        )
    return _bytes(cwd, "cat-file", "blob", name, what=what, at=at)


def changed_since(project: Project, ref: str, folder: str, option: str = SINCE) -> list[str]:
    """The files under ``folder`` changed (or deleted) since ``ref``, then the new ones
    git does not ignore, each relative to the project root; a git failure gives no files
    (no git is an error at ``option``)."""
    at = Location(option)
    # Without renames, a moved file is its old name deleted and its new name added.
    # -z: each name as it is (a space, or a name git would quote), ended by NUL
    diff = ("diff", "-z", "--name-only", "--no-renames", "--relative", ref, "--", folder)
    changed = _run(project.root, *diff, at=at)
    others = ("ls-files", "-z", "--others", "--exclude-standard", "--", folder)
    untracked = _run(project.root, *others, at=at)
    names = _decode(changed.stdout).split("\0") + _decode(untracked.stdout).split("\0")
    return [name for name in names if name]


def ignored(project: Project, paths: list[str]) -> set[str]:
    """Those of ``paths`` (relative to the project root) that git ignores; none when git
    cannot say (no git, not a repository). A tracked file is not ignored."""
    try:
        done = _run(project.root, "check-ignore", "-z", "--stdin", given="\0".join(paths) + "\0")
    except ConfigError:
        return set()
    return set(_decode(done.stdout).split("\0")) & set(paths) if done.returncode == 0 else set()


#: Most files whose history ``never_committed`` looks through: a checkout that changed more
#: is told by blame alone.
MOST_LOOKED_UP = 1000


def never_committed(project: Project, paths: list[str]) -> set[str]:
    """Those of ``paths`` (relative to the project root) whose text on disk no commit
    holds at that path: an edit made in the working tree, staged or not (a checkout of an
    older commit's file is committed); none when git cannot say (no git, no repository,
    more than ``MOST_LOOKED_UP`` files)."""
    paths = [p for p in paths if _regular_file(project.root / p)]  # a FIFO would block git
    if not paths or len(paths) > MOST_LOOKED_UP:
        return set()
    # Every text each path had in any commit, both sides of every change to it.
    history = ("log", "--all", "--root", "-m", "--format=", "--raw", "--no-abbrev", "--no-renames")
    try:
        hashed = _run(project.root, "hash-object", "--stdin-paths", given="\n".join(paths) + "\n")
        texts = _decode(hashed.stdout).split()
        if hashed.returncode != 0 or len(texts) != len(paths):
            return set()
        logged = _run(project.root, "--literal-pathspecs", *history, "--", *paths)
    except ConfigError:
        return set()
    if logged.returncode != 0:
        return set()
    committed = set(_OBJECT_ID.findall(_decode(logged.stdout)))
    return {path for path, text in zip(paths, texts, strict=True) if text not in committed}


def _regular_file(path: Path) -> bool:
    """Whether ``path`` itself (not through a link) is a regular file."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _known_revision(cwd: Path, ref: str, at: Location) -> str:
    """The commit ``ref`` names; refuse a revision that is not a commit here, with a hint
    in a shallow clone."""
    verify = ("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    try:
        return _text(cwd, *verify, what=f"revision '{one_line(ref)}'", at=at).strip()
    except ConfigError:
        if not ref.strip():  # ``--changelog-since "$BASE_REF"`` with the variable unset
            hint = " (an empty revision: is the variable that names it set?)"
        elif _shallow(cwd, at):
            hint = " (this is a shallow clone: fetch more history, e.g. `git fetch --unshallow`)"
        elif _run(cwd, "rev-parse", "--verify", "--quiet", "HEAD").returncode != 0:
            hint = (
                " (the repository has no commit yet: commit the registry first; a first "
                "release is written from a note, see `docgen changelog --help`)"
            )
        else:
            hint = ""
        raise ConfigError.at(at, f"unknown git revision '{one_line(ref)}'{hint}") from None


def _shallow(cwd: Path, at: Location) -> bool:
    """Whether the repository at ``cwd`` is a shallow clone."""
    return _text(cwd, "rev-parse", "--is-shallow-repository", what="git", at=at).strip() == "true"


def _text(cwd: Path, *args: str, what: str, at: Location) -> str:
    return _decode(_bytes(cwd, *args, what=what, at=at))


def _bytes(cwd: Path, *args: str, what: str, at: Location) -> bytes:
    """What ``git args`` prints; a failure is an error at ``at`` saying it cannot read
    ``what``."""
    done = _run(cwd, *args, at=at)
    if done.returncode != 0:
        said = " ".join(_decode(done.stderr).split())  # git's lines, on the error's one
        hint = "" if _in_a_repository(cwd) else _NO_REPOSITORY
        raise ConfigError.at(at, f"cannot read {what}: {said or 'git failed'}{hint}")
    return done.stdout


_NO_REPOSITORY = " (the project is in no git repository yet: `git init`, then commit the registry)"


def _in_a_repository(cwd: Path) -> bool:
    return _run(cwd, "rev-parse", "--git-dir").returncode == 0


def _run(
    cwd: Path, *args: str, given: str = "", at: Location | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``git args`` run in ``cwd``, with ``given`` on its standard input (no git is an
    error at ``at``)."""
    try:
        return subprocess.run(
            ["git", *args], cwd=cwd, input=given.encode(), capture_output=True, check=False
        )
    except FileNotFoundError:
        raise ConfigError.at(at or Location(SINCE), "git is not installed") from None


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")
