"""Every input is opened by one root-confined read (``docgen.io.files.read_input``): inside
the project root through any link, a regular file, size-capped, UTF-8; anything else is a
located error with exit 2, and nothing outside the root is read or touched.

Each test has a sibling ``outside/`` folder whose files must come out unread and unchanged.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY, MINIMAL_TEMPLATE

from docgen.errors import ConfigError, PageError, RegistryError
from docgen.io import files
from docgen.registry.load import MAX_BYTES

SECRET = "TOPSECRET-123"
LEAVES = "the project root; docgen reads only files inside it"
REGULAR = "not a file; docgen reads only regular files"


def everything(folder: Path) -> dict[str, str]:
    """Every file and link under ``folder`` (links by target, files by content)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[rel] = f"-> {os.readlink(path)}"
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(f"{SECRET}\n", "utf-8")
    return folder


@pytest.fixture(autouse=True)
def _no_hang() -> Iterator[None]:
    """A read that blocks (a FIFO opened for reading) fails the test instead of hanging."""

    def expire(_signum: int, _frame: object) -> None:
        raise TimeoutError("a read blocked")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def refused(run, project, tmp_path: Path, *args: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Run a command that must fail with exit 2, one located line, changing nothing."""
    before = everything(tmp_path)
    result = run(project, *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert everything(tmp_path) == before
    return result.stderr.splitlines()


# -- the one read ----------------------------------------------------------------------------


def test_read_input_refuses_every_kind_of_file_that_is_not_a_small_regular_one(
    tmp_path: Path, outside: Path
) -> None:
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    inside = files.Inside(root)
    os.mkfifo(root / "notes/pipe.md")
    (root / "notes/dir.md").mkdir()
    (root / "notes/zero.md").symlink_to("/dev/zero")
    (root / "notes/leak.md").symlink_to(outside / "secret.txt")
    (root / "linked").symlink_to(outside, target_is_directory=True)
    (root / "notes/big.md").write_bytes(b"x" * (MAX_BYTES + 1))
    (root / "notes/bad.md").write_bytes(b"- fine\n- adds \xff here\n")
    cases = {
        "notes/pipe.md": f"the changelog note is a FIFO, {REGULAR}",
        "notes/dir.md": f"the changelog note is a folder, {REGULAR}",
        "notes/leak.md": f"the changelog note is a symbolic link that leaves {LEAVES}",
        "linked/secret.txt": f"the changelog note lies in a linked folder that leaves {LEAVES}",
        "notes/big.md:1:1": (
            "the changelog note is 4.0 MB; docgen reads changelog notes up to 4 MB"
        ),
        "notes/bad.md:2:8": "invalid UTF-8 byte 0xff in the changelog note",
        "notes/missing.md": "cannot read changelog note: No such file or directory",
    }
    for where, message in cases.items():
        path = root / where.split(":")[0]
        with pytest.raises(ConfigError) as info:
            files.read_input(path, inside, "changelog note")
        assert str(info.value) == f"{where}: error: {message}"
    with pytest.raises(ConfigError) as info:
        files.read_input(root / "notes/zero.md", None, "note")  # a file the user named
    assert str(info.value).endswith(f"error: the note is a device, {REGULAR}")


def test_read_input_refuses_a_link_into_gits_own_folder(tmp_path: Path) -> None:
    """``.git/config`` may hold a CI token: no input is read from git's folder, whatever
    the case of its name, through a link to the file or to a folder that leads there."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / ".git/config").write_text(f"{SECRET}\n", "utf-8")
    (root / ".gitkeep").write_text("fine\n", "utf-8")
    (root / "notes").mkdir()
    (root / "notes/config.md").symlink_to("../.git/config")
    (root / "notes/upper.md").symlink_to("../.GIT/config")
    (root / "gitfolder").symlink_to(".git", target_is_directory=True)
    (root / "notes/kept.md").symlink_to("../.gitkeep")
    (root / "vendor/other/.git").mkdir(parents=True)  # a second repository checked out
    (root / "vendor/other/.git/config").write_text(f"{SECRET}\n", "utf-8")
    (root / "notes/nested.md").symlink_to("../vendor/other/.git/config")
    inside = files.Inside(root)
    into = "the changelog note leads into git's own folder (.git); docgen never reads it"
    for rel in ("notes/config.md", "notes/upper.md", "gitfolder/config", "notes/nested.md"):
        with pytest.raises(ConfigError) as info:
            files.read_input(root / rel, inside, "changelog note")
        assert str(info.value) == f"{rel}: error: {into}"
    assert files.read_input(root / "notes/kept.md", inside, "changelog note") == "fine\n"


def test_read_input_reads_inside_the_root_through_links_and_drops_a_bom(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "shared").mkdir(parents=True)
    (root / "shared/n.md").write_bytes("\ufeff- adds \u00e9.\n".encode())
    (root / "notes").symlink_to("shared", target_is_directory=True)
    inside = files.Inside(root)
    assert files.read_input(root / "notes/n.md", inside, "note") == "- adds \u00e9.\n"
    with pytest.raises(PageError) as info:
        files.read_input(root / "notes/gone.md", inside, "page", display="x.mdx", error=PageError)
    assert str(info.value) == "x.mdx: error: cannot read page: No such file or directory"


def test_the_root_is_not_inside_itself_through_a_trailing_dot_dot(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    inside = files.Inside(root)
    assert inside.real(str(root / ".."), link=False) is None
    assert not inside.contains(str(root / "docs" / ".." / ".."))


# -- the registry ----------------------------------------------------------------------------


def test_a_registry_in_a_folder_linked_outside_is_refused(make_project, run, tmp_path, outside):
    (outside / "reg").mkdir()
    (outside / "reg/profiles.yaml").write_text(MINIMAL_REGISTRY, "utf-8")
    project = make_project()
    (project.root / "reg").symlink_to(outside / "reg", target_is_directory=True)
    for verb in ("validate", "build"):
        lines = refused(run, project, tmp_path, "--registry", "reg/profiles.yaml", verb)
        assert lines == [
            f"reg/profiles.yaml: error: the registry lies in a linked folder that leaves {LEAVES}"
        ]


def test_a_registry_that_is_a_folder_or_a_fifo_is_located(tmp_path: Path) -> None:
    from docgen.registry.load import load

    (tmp_path / "dir.yaml").mkdir()
    os.mkfifo(tmp_path / "pipe.yaml")
    for name, kind in (("dir.yaml", "a folder"), ("pipe.yaml", "a FIFO")):
        with pytest.raises(RegistryError) as info:
            load(tmp_path / name, root=tmp_path)
        assert str(info.value) == (
            f"{name}: error: the registry is {kind}, not a file; docgen reads only regular files"
        )


# -- the registry's old state: --since-file and --since --------------------------------------


#: Runs the docgen command line in a child whose address space is capped, so a read that
#: never ends fails fast instead of taking the machine's memory.
CAPPED = """\
import resource, sys
cap = 1 << 30
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
from docgen.cli import main
sys.argv[0] = "docgen"
main()
"""


def capped(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CAPPED, "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=50,  # a backstop: a FIFO would block, the refusal takes well under a second
        check=False,
    )


def test_since_file_is_read_as_a_registry_is(make_project, tmp_path) -> None:
    project = make_project()
    big = tmp_path / "big.yaml"
    big.write_text(MINIMAL_REGISTRY + "# padding\n" * 500_000, "utf-8")
    os.mkfifo(tmp_path / "pipe.yaml")
    cases = [
        ("/dev/zero", "/dev/zero: error: the registry is a device, not a file; "),
        # read as a pipe (a process substitution is one), without waiting for a writer
        (str(tmp_path / "pipe.yaml"), f"{tmp_path}/pipe.yaml:1:1: error: the file is empty"),
        (str(big), f"{big}:1:1: error: the registry is 5.0 MB; docgen reads registries up to 4 MB"),
    ]
    before = everything(tmp_path)
    for given, start in cases:
        done = capped(project.root, "diff", "--since-file", given)
        assert done.returncode == 2, done.stderr
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(start), lines
    assert everything(tmp_path) == before


def test_since_a_revision_whose_registry_is_too_large_is_refused_before_it_is_read(
    make_project, run, tmp_path
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    project = make_project()
    (project.root / "profiles.yaml").write_text(MINIMAL_REGISTRY + "# pad\n" * 800_000, "utf-8")
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=n"]
    subprocess.run([*git, "init", "-q"], cwd=project.root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=project.root, check=True)
    subprocess.run([*git, "commit", "-qm", "big"], cwd=project.root, check=True)
    (project.root / "profiles.yaml").write_text(MINIMAL_REGISTRY, "utf-8")
    lines = refused(run, project, tmp_path, "diff", "--since", "HEAD")
    assert lines == [
        "--since: error: profiles.yaml at revision 'HEAD' is 4.8 MB; docgen reads registries "
        "up to 4 MB"
    ]


# -- templates -------------------------------------------------------------------------------


def test_a_template_linked_outside_is_never_read(make_project, run, tmp_path, outside):
    page = MINIMAL_TEMPLATE + '{% include "_leak.j2" %}\n'
    project = make_project(templates={"models.mdx.j2": page})
    (project.root / "templates/_leak.j2").symlink_to(outside / "secret.txt")
    lines = refused(run, project, tmp_path, "build")
    link = "the template is a symbolic link that leaves"
    assert lines == [f"templates/_leak.j2: error: {link} {LEAVES}"]


def test_a_templates_folder_linked_outside_is_never_read(make_project, run, tmp_path, outside):
    project = make_project()
    shutil.move(project.root / "templates", outside / "templates")
    (project.root / "templates").symlink_to(outside / "templates", target_is_directory=True)
    lines = refused(run, project, tmp_path, "build")
    assert lines == [
        f"templates/models.mdx.j2: error: the template lies in a linked folder that leaves {LEAVES}"
    ]


def test_a_folder_where_a_template_is_expected_is_located(make_project, run, tmp_path):
    project = make_project()
    (project.root / "templates/dir.mdx.j2").mkdir()
    lines = refused(run, project, tmp_path, "build")
    assert lines == [
        "templates/dir.mdx.j2: error: the template is a folder, not a file; "
        "docgen reads only regular files"
    ]


@pytest.mark.parametrize(
    "folder", ["templates", "templates/more", "docs/guides", "changelog", "changelog/old"]
)
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_folder_docgen_cannot_list_is_located_not_skipped(
    folder, command, make_project, run, tmp_path, monkeypatch
):
    """An unreadable folder (or one too deep for the system to open) hides what it holds:
    skipped, its generated pages read as stale and a build deleted them. ``os.scandir``
    is made to fail as it does for a folder of mode 000 (the tests may run as root)."""
    project = make_project(
        templates={"models.mdx.j2": MINIMAL_TEMPLATE, "more/extra.mdx.j2": MINIMAL_TEMPLATE}
    )
    project.write("docs/guides/guide.mdx", "---\ntitle: Guide\n---\n\nText.\n")
    project.write("changelog/old/README.md", "Old notes.\n")
    assert run(project, "build").exit_code == 0
    real = os.scandir

    def scandir(path=".", *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.fspath(path).endswith(folder.replace("/", os.sep)):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "scandir", scandir)
    lines = refused(run, project, tmp_path, command)
    assert lines == [f"{folder}: error: cannot list this folder: Permission denied"]


def test_a_notes_folder_docgen_cannot_list_is_located(make_project, run, tmp_path, monkeypatch):
    """Notes it cannot see would be left out of the release, and kept for ever after."""
    tuned = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
    project = make_project(registry=tuned, files={"old.yaml": MINIMAL_REGISTRY})
    project.write("changelog.d/fix.md", "A fix.\n")
    real = os.scandir

    def scandir(path=".", *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.fspath(path).endswith("changelog.d"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "scandir", scandir)
    args = ["changelog", "--since-file", "old.yaml", "--version", "v0.1.0", "--date", "2026-12-01"]
    lines = refused(run, project, tmp_path, *args)
    assert lines == ["changelog.d: error: cannot list this folder: Permission denied"]


def test_a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(tmp_path: Path):
    from docgen.io.reads import Refused, load

    (tmp_path / "ten.txt").write_bytes(b"0123456789")
    assert load(tmp_path / "ten.txt", None, "page", limit=10) == b"0123456789"
    with pytest.raises(Refused) as refused:
        load(tmp_path / "ten.txt", None, "page", limit=9)
    assert (refused.value.line, refused.value.col) == (1, 1)
