"""``docgen init`` checks everything before it writes, writes nothing through a link, and a
refused ``init`` leaves the folder exactly as it found it (exit 2, one located line)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from conftest import invoke_cli


def everything(folder: Path) -> dict[str, str]:
    """Every file, folder and link under ``folder``."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[rel] = f"-> {os.readlink(path)}"
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[rel] = "folder"
    return out


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """A project folder with an ``outside/`` folder beside it."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "proj").mkdir()
    return tmp_path / "proj"


def refused_init(tmp_path: Path, target: str, lines: int = 1) -> str:
    before = everything(tmp_path)
    result = invoke_cli(["--root", str(tmp_path), "init", target])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.stderr.count("\n") == lines
    assert everything(tmp_path) == before
    return result.stderr


@pytest.mark.parametrize("name", ["profiles.yaml", "mkdocs.yml", "site_extra/.gitkeep"])
def test_a_dangling_link_where_the_scaffold_writes_is_refused(tmp_path, place, name):
    link = place / name
    link.parent.mkdir(exist_ok=True)
    link.symlink_to(tmp_path / "outside" / "made.txt")
    stderr = refused_init(tmp_path, str(place))
    assert stderr.startswith(f"{link}: error: ")
    assert stderr.endswith("(a symbolic link); docgen init never overwrites files\n")
    assert not (tmp_path / "outside" / "made.txt").exists()


def test_a_folder_of_the_scaffold_linked_outside_is_refused_before_any_write(
    tmp_path, place, monkeypatch
):
    """Named from the current folder, as the pages a build of the scaffold refuses are
    (it was named from the project folder, which the command line did not name)."""
    (place / "site_extra").symlink_to(tmp_path / "outside", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    stderr = refused_init(tmp_path, "proj")
    assert stderr == (
        "proj/site_extra/.gitkeep:1:1: error: refusing to write site_extra/.gitkeep: it leads "
        "outside the project root (through a symbolic link)\n"
    )


@pytest.mark.parametrize(
    ("table", "name", "what"),
    [
        ("", "profiles.yaml", "a project is already here"),
        (
            "[tool.docgen]\n",
            "pyproject.toml",
            "a project is already here (its [tool.docgen] table)",
        ),
        ("", "mkdocs.yml", "this file is already here"),
    ],
)
def test_a_file_already_there_is_named_from_the_current_folder(
    tmp_path, place, monkeypatch, table, name, what
):
    """``init proj`` over a project said ``proj/proj/profiles.yaml``, a file that is not
    there (a hostile round's finding)."""
    (place / name).write_text(table or "x: 1\n")
    before = everything(tmp_path)
    for here, target, shown in ((tmp_path, "proj", f"proj/{name}"), (place, ".", name)):
        monkeypatch.chdir(here)
        result = invoke_cli(["init", target])
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == f"{shown}: error: {what}; docgen init never overwrites files\n"
    assert everything(tmp_path) == before


def test_a_project_folder_that_is_a_dangling_link_is_said_to_be_one(tmp_path):
    """It said "cannot make the project folder: File exists"."""
    (tmp_path / "dl").symlink_to(tmp_path / "nowhere", target_is_directory=True)
    stderr = refused_init(tmp_path, str(tmp_path / "dl"))
    assert stderr == (
        f"{tmp_path / 'dl'}: error: the project folder is a symbolic link to "
        f"'{tmp_path / 'nowhere'}', which leads nowhere: make the folder it names, or remove "
        "the link\n"
    )
    assert not (tmp_path / "nowhere").exists()


def test_init_over_hand_written_docs_removes_exactly_what_it_wrote(tmp_path, place, monkeypatch):
    page = place / "docs/inference/set-up-vllm.mdx"
    page.parent.mkdir(parents=True)
    page.write_text("---\ntitle: Mine\n---\n\nHand written.\n", "utf-8")
    (place / "site_extra").mkdir()  # an empty folder that was there stays
    monkeypatch.chdir(tmp_path)  # the page is named from here, as init's own lines are
    stderr = refused_init(tmp_path, "proj", lines=2)  # the error, then how to adopt
    assert stderr.startswith(
        "proj/docs/inference/set-up-vllm.mdx:1:1: error: written by hand (it has no docgen notice)"
    )
    assert "note: docgen init scaffolds a new project" in stderr.splitlines()[1]
    assert sorted(p.name for p in place.iterdir()) == ["docs", "site_extra"]


@pytest.mark.parametrize(
    ("target", "reason"),
    [("/dev/null/x", "Not a directory"), ("/dev/null", "File exists")],
)
def test_init_where_no_folder_can_be_made_is_located(tmp_path, target, reason):
    stderr = refused_init(tmp_path, target)
    assert stderr == f"{target}: error: cannot make the project folder: {reason}\n"


def test_pages_already_there_that_the_scaffold_cannot_build_get_a_note(
    tmp_path, place, monkeypatch
):
    # An existing docs tree whose pages name other agents: init says why it cannot be
    # built that way and where adopting docgen is described, and leaves the tree as it was.
    page = '---\ntitle: T\n---\n\n<AgentOnly variant="openclaw">\nOnly OpenClaw.\n</AgentOnly>\n'
    (place / "docs").mkdir()
    (place / "docs/page.mdx").write_text(page, "utf-8")
    before = everything(tmp_path)
    monkeypatch.chdir(place)
    result = invoke_cli(["--root", str(place), "init"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith("docs/page.mdx:5: error: unknown agent 'openclaw'"), lines
    assert lines[-1].endswith(
        ": note: docgen init scaffolds a new project, and its registry (agents 'main' and "
        "'lite', the CLI token '$$example') cannot build the pages that were already here; "
        "to adopt docgen in an existing docs tree, write its profiles.yaml and templates for "
        "that tree instead (README: Adopting an existing docs tree)"
    ), lines
    assert everything(tmp_path) == before


def test_init_inside_a_folder_of_another_project_is_refused(tmp_path):
    outer = tmp_path / "outer"
    assert invoke_cli(["init", "-q", str(outer)]).exit_code == 0
    before = everything(tmp_path)
    result = invoke_cli(["--root", str(outer / "docs"), "init", "guide"])
    assert result.exit_code == 2
    assert result.stderr == (
        f"{outer / 'docs' / 'guide'}: error: this folder lies in the docs folder of the "
        f"project at {outer}: its build would take the new project's files for its own; "
        "make the new project elsewhere\n"
    )
    assert everything(tmp_path) == before
    beside = invoke_cli(["--root", str(outer), "init", "-q", "site2"])  # not in its folders
    assert beside.exit_code == 0, beside.output
    # A path that leaves the docs folder with ".." lies outside it, however it is written.
    away = invoke_cli(["--root", str(outer / "docs"), "init", "-q", "../../away"])
    assert away.exit_code == 0, away.output
    assert (tmp_path / "away" / "profiles.yaml").is_file()


@pytest.mark.parametrize("table", ["[tool.docgen]\n", '[tool.docgen]\nregistry = "reg/p.yaml"\n'])
def test_a_pyproject_with_a_docgen_table_is_a_project_init_refuses(tmp_path, place, table):
    """A ``[tool.docgen]`` table makes a folder a project, empty or not (README)."""
    (place / "pyproject.toml").write_text(f'[project]\nname = "x"\n\n{table}')
    stderr = refused_init(tmp_path, str(place))
    assert stderr == (
        f"{place / 'pyproject.toml'}: error: a project is already here (its [tool.docgen] "
        "table); docgen init never overwrites files\n"
    )


def test_a_scaffold_file_already_there_is_named_as_a_file_not_a_project(tmp_path, place):
    (place / "mkdocs.yml").write_text("site_name: mine\n")
    (place / "templates").mkdir()
    stderr = refused_init(tmp_path, str(place))
    assert stderr == (
        f"{place / 'templates'}: error: this folder is already here; docgen init never "
        "overwrites files\n"
    )


@pytest.mark.parametrize("kind", ["link out", "fifo", "device"])
def test_a_gitignore_that_is_no_file_of_the_folder_is_kept_and_never_read(place, kind):
    """A ``.gitignore`` leading out of the folder is not read (nothing outside is), nor
    is a FIFO (which would block) or a device (``/dev/zero`` never ends): ``init`` keeps
    it and says which lines to add."""
    ignore = place / ".gitignore"
    if kind == "link out":
        (place.parent / "outside/ignore").write_text("/.cache/\n/site/\n", "utf-8")
        ignore.symlink_to(place.parent / "outside/ignore")
    elif kind == "fifo":
        os.mkfifo(ignore)
    else:
        ignore.symlink_to("/dev/zero")
    result = invoke_cli(["--root", str(place.parent), "init", str(place)])
    assert result.exit_code == 0, result.output
    assert "note: kept .gitignore as it was; add /.cache/ and /site/ to it\n" in result.stdout
    assert os.path.islink(ignore) or not ignore.is_file()


def test_a_build_that_cannot_write_its_pages_gets_no_note_on_adopting(tmp_path, place):
    """The adopting note is for pages the folder already held; a docs folder linked out of
    the project holds none, and the build only could not write there."""
    (place.parent / "outside/docs").mkdir()
    (place / "docs").symlink_to(place.parent / "outside/docs")
    stderr = refused_init(tmp_path, str(place), lines=4)  # each page it would write
    assert ": error: it leads outside the project root" in stderr and "note:" not in stderr
    assert os.listdir(place.parent / "outside/docs") == []
