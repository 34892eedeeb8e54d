"""What sync owns and where it may write: the files it prunes, and the root it stays in.

A build deletes only files under the docs and changelog folders that carry docgen's
notice, the export (a ``.json`` file) among them, so an export moved by its setting
leaves no copy behind. Every write and every deletion stays inside the project root,
judged by real paths: a sibling folder whose name starts with the root's name
(``proj-evil`` beside ``proj``) is outside, reached by a setting or a symbolic link.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY, MINIMAL_TEMPLATE, Outcome, Project

from docgen.cache import FOLDER as CACHE

LEADS_OUT = (
    "it leads outside the project root (through a symbolic link), where docgen neither reads "
    "nor writes: replace the link with a file or folder inside the root"
)
PROFILE_PAGE = "---\ntitle: x\n---\n\n{{ profile.id | mdx_code }}\n"
TEMPLATES = {"models.mdx.j2": MINIMAL_TEMPLATE, "profiles/[profile].mdx.j2": PROFILE_PAGE}
Run = Callable[..., Outcome]
VARIANTS = "docs/_build/agent-variants"
SHARED = 'Run `$$acme onboard`.\n\n<AgentOnly variant="alpha">\nAlpha only.\n</AgentOnly>\n'


def everything(folder: Path) -> dict[str, str]:
    """Every file and symbolic link under ``folder`` (links by target, files by content),
    but the plan cache (a build may store its plan under a new key)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if CACHE in path.parts:
            continue
        if path.is_symlink():
            out[rel] = f"-> {os.readlink(path)}"
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    """``proj-evil`` beside the project root ``proj``: its path string starts with the
    root's, and nothing in it may ever be written or deleted."""
    folder = tmp_path / "proj-evil"
    folder.mkdir()
    (folder / "keep.mdx").write_text("## Not docgen's\n", "utf-8")
    return folder


# -- the export is one of docgen's files -------------------------------------------------


def test_an_export_moved_by_its_setting_is_pruned_from_its_old_place(
    make_project: Callable[..., Project], run: Run
) -> None:
    project = make_project()
    assert run(project, "build").exit_code == 0
    old = project.root / "docs/_build/registry.json"
    exported = old.read_text("utf-8")
    project.write("docgen.toml", 'export = "docs/data/registry.json"\n')
    result = run(project, "check")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "docs/data/registry.json:1:1: error: missing: docgen would create it",
        "docs/_build/registry.json:1:1: error: stale: no template or registry entry "
        "produces it any more",
    ]
    result = run(project, "build")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "write docs/data/registry.json",
        "delete docs/_build/registry.json",
        "1 written, 0 updated, 1 pruned, 3 unchanged",
    ]
    assert not old.exists()
    assert project.read("docs/data/registry.json") == exported
    assert run(project, "check").stdout == "4 generated files match the registry\n"


def test_variants_outside_the_docs_folder_are_pruned_with_their_page(
    example: Project, run: Run
) -> None:
    example.edit("pyproject.toml", "[tool.docgen]\n", '[tool.docgen]\nvariants = "variants"\n')
    # The navigation lists the variants where the setting now puts them.
    nav = example.read("docs/index.yml").replace("_build/agent-variants/", "../variants/")
    example.write("docs/index.yml", nav)
    assert run(example, "build").exit_code == 0
    gone = "vllm.dgx-station-gb300.single.deepseek-r1-distill-70b"
    variants = sorted((example.root / "variants/profiles").glob(f"{gone}.*"))
    assert len(variants) == 3
    text = example.read("profiles.yaml")
    start = text.index(f"  {gone}:")
    end = text.index("\nlauncher:", start)  # the last profile
    example.write("profiles.yaml", text[:start] + text[end:])
    check = run(example, "check")
    assert check.exit_code == 1
    for variant in variants:
        stale = f"{variant.relative_to(example.root).as_posix()}:1:1: error: stale"
        assert any(line.startswith(stale) for line in check.stdout.splitlines()), check.stdout
    assert run(example, "build").exit_code == 0
    assert not any(v.exists() for v in variants)


def test_a_bom_an_editor_put_before_the_notice_is_drift_a_build_undoes(
    example: Project, run: Run
) -> None:
    """A Windows editor's BOM before a generated page's frontmatter made it read as
    written by hand: ``check`` and ``build`` refused it (exit 2), and docgen would never
    write the page again. It is drift: ``check`` shows it, ``build`` writes the page."""
    assert run(example, "build").exit_code == 0
    page = "docs/inference/set-up-vllm.mdx"
    built = example.read(page)
    (example.root / page).write_bytes(b"\xef\xbb\xbf" + built.encode())
    check = run(example, "check")
    assert check.exit_code == 1, check.stdout + check.stderr
    assert f"{page}:1:1: error: edited since docgen wrote it" in check.stdout
    assert run(example, "build").exit_code == 0
    assert (example.root / page).read_bytes() == built.encode()
    stale = "docs/stale.mdx"  # a page docgen no longer makes, BOM and all: pruned
    (example.root / stale).write_bytes(b"\xef\xbb\xbf" + built.encode())
    assert run(example, "build").exit_code == 0
    assert not (example.root / stale).exists()


def test_an_overview_kept_by_hand_is_never_pruned(example: Project, run: Run) -> None:
    """``overview = "none"``: the file (even one that carries docgen's notice, as a
    generated overview the project now keeps) is neither written nor pruned."""
    assert run(example, "build").exit_code == 0
    kept = example.read("changelog/overview.mdx")
    example.edit("pyproject.toml", "[tool.docgen]\n", '[tool.docgen]\noverview = "none"\n')
    assert run(example, "check").exit_code == 0
    result = run(example, "build")
    assert result.exit_code == 0 and "delete" not in result.stdout, result.stdout
    assert example.read("changelog/overview.mdx") == kept


def test_a_json_file_without_the_notice_is_never_pruned(
    make_project: Callable[..., Project], run: Run
) -> None:
    project = make_project(files={"docs/_build/data.json": '{"mine": true}\n'})
    result = run(project, "build")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "4 written, 0 updated, 0 pruned, 0 unchanged"
    assert project.read("docs/_build/data.json") == '{"mine": true}\n'


# -- inside the root means inside it, not a name that starts the same ----------------------


def test_a_docs_setting_that_climbs_to_a_sibling_is_refused(
    make_project: Callable[..., Project], run: Run, tmp_path: Path, evil: Path
) -> None:
    project = make_project(files={"docgen.toml": 'docs = "../proj-evil"\n'})
    before = everything(tmp_path)
    for command in ("build", "check"):
        result = run(project, command)
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == (
            "docgen.toml:1:1: error: path '../proj-evil' must be relative and stay "
            "inside the project\n"
        )
    assert everything(tmp_path) == before


@pytest.mark.parametrize("command", ["build", "check"])
def test_a_docs_folder_linked_to_a_sibling_is_refused(
    make_project: Callable[..., Project], run: Run, tmp_path: Path, evil: Path, command: str
) -> None:
    project = make_project(files={"docgen.toml": 'docs = "site"\n'})
    (project.root / "site").symlink_to("../proj-evil", target_is_directory=True)
    before = everything(tmp_path)
    result = run(project, command)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"site/models.mdx:1:1: error: {LEADS_OUT}\n"
    assert everything(tmp_path) == before
    assert everything(evil) == {"keep.mdx": before["proj-evil/keep.mdx"]}


@pytest.mark.parametrize("command", ["build", "check"])
def test_an_output_folder_linked_to_a_sibling_is_refused(
    make_project: Callable[..., Project], run: Run, tmp_path: Path, evil: Path, command: str
) -> None:
    project = make_project(templates=TEMPLATES)
    (project.root / "docs").mkdir()
    (project.root / "docs/profiles").symlink_to("../../proj-evil", target_is_directory=True)
    before = everything(tmp_path)
    result = run(project, command)
    page = "docs/profiles/vllm.box.tiny.mdx"
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"{page}:1:1: error: {LEADS_OUT}\n"
    assert everything(tmp_path) == before


@pytest.mark.parametrize("command", ["build", "check"])
def test_a_folder_where_an_output_goes_is_refused_by_both(
    make_project: Callable[..., Project], run: Run, tmp_path: Path, command: str
) -> None:
    """check called it missing ("docgen would create it") and build then failed to write
    there: a folder may hold a person's files, so both say it is in the way."""
    project = make_project()
    project.write("docs/models.mdx/notes.txt", "mine\n")
    before = everything(tmp_path)
    result = run(project, command)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "docs/models.mdx:1:1: error: a folder stands where docgen generates this file from "
        "templates/models.mdx.j2: move it away or delete it to let docgen generate it\n"
    )
    assert everything(tmp_path) == before


def _socket(path: Path) -> None:
    import socket

    with socket.socket(socket.AF_UNIX) as bound:
        bound.bind(str(path))


@pytest.mark.parametrize(
    ("what", "make"),
    [("a FIFO", lambda path: os.mkfifo(path, 0o600)), ("a socket", _socket)],
    ids=["fifo", "socket"],
)
def test_what_is_no_file_where_an_output_goes_is_said_and_build_replaces_it(
    make_project: Callable[..., Project], run: Run, monkeypatch: pytest.MonkeyPatch, what, make
) -> None:
    """check called a FIFO there missing ("docgen would create it"), though something
    stands there, and a socket stopped check and build (opening it failed); neither holds
    anything to lose, so a build writes the file in its place."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    page = project.root / "docs/models.mdx"
    page.unlink()
    monkeypatch.chdir(page.parent)  # a socket's path must be short: bind it by its name
    make(Path(page.name))
    result = run(project, "check")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        f"docs/models.mdx:1:1: error: {what} stands where docgen writes a file of its own: "
        "`docgen build` replaces it"
    )
    assert run(project, "build").exit_code == 0
    assert page.is_file() and run(project, "check").exit_code == 0


def test_a_link_to_a_socket_where_an_output_goes_is_replaced_without_opening_it(
    make_project: Callable[..., Project], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening the socket the link led to stopped check and build ("No such device or
    address"; a fresh-eyes review's finding); the socket itself is left alone."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    page = project.root / "docs/models.mdx"
    page.unlink()
    monkeypatch.chdir(page.parent)
    _socket(Path("sock"))
    page.symlink_to("sock")
    result = run(project, "check")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        "docs/models.mdx:1:1: error: a symbolic link to docs/sock, where docgen writes a file "
        "of its own: `docgen build` replaces the link"
    )
    assert run(project, "build").exit_code == 0
    assert page.is_file() and not page.is_symlink() and Path("sock").is_socket()


def test_an_output_file_linked_into_a_sibling_is_refused(
    make_project: Callable[..., Project], run: Run, tmp_path: Path, evil: Path
) -> None:
    project = make_project()
    (project.root / "docs").mkdir()
    (project.root / "docs/models.mdx").symlink_to("../../proj-evil/keep.mdx")
    before = everything(tmp_path)
    result = run(project, "build")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"docs/models.mdx:1:1: error: {LEADS_OUT}\n"
    assert everything(tmp_path) == before


def test_generated_files_in_a_sibling_behind_a_linked_folder_are_never_pruned(
    make_project: Callable[..., Project], run: Run, tmp_path: Path, evil: Path
) -> None:
    project = make_project()
    assert run(project, "build").exit_code == 0
    (evil / "keep.mdx").unlink()  # a changelog entry there would be refused, not read
    # Files another docgen project generated, notice and all, in the sibling folder.
    (evil / "old.json").write_bytes((project.root / "docs/_build/registry.json").read_bytes())
    (evil / "old.md").write_bytes((project.root / "docs/models.mdx").read_bytes())
    (project.root / "changelog").symlink_to("../proj-evil", target_is_directory=True)
    before = everything(tmp_path)
    for command in ("check", "build"):  # the folder is refused before it is listed
        result = run(project, command)
        assert (result.exit_code, result.stderr) == (
            2,
            "changelog: error: the changelog folder is a symbolic link that leaves the "
            "project root; docgen reads only files inside it\n",
        )
    assert everything(tmp_path) == before


def test_a_docs_folder_linked_inside_the_root_is_still_pruned(
    make_project: Callable[..., Project], run: Run
) -> None:
    project = make_project(templates=TEMPLATES)
    (project.root / "pages").mkdir()
    (project.root / "docs").symlink_to("pages", target_is_directory=True)
    assert run(project, "build").exit_code == 0
    assert (project.root / "pages/profiles/vllm.box.tiny.mdx").is_file()
    (project.root / "templates/profiles/[profile].mdx.j2").unlink()
    result = run(project, "build")
    assert result.stdout.splitlines() == [
        "delete docs/_build/agent-variants/profiles/vllm.box.tiny.alpha.generated.mdx",
        "delete docs/_build/agent-variants/profiles/vllm.box.tiny.beta.generated.mdx",
        "delete docs/profiles/vllm.box.tiny.mdx",
        "0 written, 0 updated, 3 pruned, 4 unchanged",
    ]
    assert not (project.root / "pages/profiles/vllm.box.tiny.mdx").exists()


# -- variants of removed pages, profiles and agents are pruned ---------------------------


def test_deleting_a_shared_page_fails_check_and_build_prunes_its_variants(make_project, run):
    project = make_project(files={"docs/guide/start.mdx": SHARED})
    run(project, "build")
    (project.root / "docs/guide/start.mdx").unlink()
    result = run(project, "check")
    assert result.exit_code == 1
    assert (
        f"{VARIANTS}/guide/start.alpha.generated.mdx:1:1: error: stale: no template or "
        "registry entry produces it any more"
    ) in result.output
    build = run(project, "build")
    assert f"delete {VARIANTS}/guide/start.beta.generated.mdx" in build.output
    assert list((project.root / VARIANTS / "guide").glob("*.mdx")) == []
    assert run(project, "check").exit_code == 0


def test_removed_profile_and_agent_prune_their_pages(make_project, run):
    project = make_project(templates={"p/[profile].mdx.j2": "{{ profile.id }}\n"})
    run(project, "build")
    assert (project.root / VARIANTS / "p/vllm.box.tiny.beta.generated.mdx").exists()
    fewer = MINIMAL_REGISTRY.replace(
        "  - id: beta\n    title: Acme for Beta\n    cli: acme-beta\n", ""
    )
    project.write("profiles.yaml", fewer)
    result = run(project, "build")
    assert f"delete {VARIANTS}/p/vllm.box.tiny.beta.generated.mdx" in result.output
    assert run(project, "check").exit_code == 0


def test_hand_written_file_in_variants_folder_is_never_deleted(make_project, run):
    project = make_project(files={f"{VARIANTS}/notes.mdx": "mine\n"})
    run(project, "build")
    assert project.read(f"{VARIANTS}/notes.mdx") == "mine\n"


def test_only_a_file_that_differs_from_its_planned_text_is_looked_at_for_the_notice(
    example: Project, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file holding exactly its planned text holds the notice that text carries, so
    comparing thousands of files reads the notice only of those that drifted; a file at
    a generated path without the notice is still refused."""
    import docgen.sync

    assert run(example, "build").exit_code == 0
    page = "docs/inference/set-up-vllm.mdx"
    example.edit(page, "vLLM", "VLLM")
    looked_at: list[bytes] = []
    notice_on = docgen.sync._notice_on
    monkeypatch.setattr(
        docgen.sync, "_notice_on", lambda raw, path: looked_at.append(raw) or notice_on(raw, path)
    )
    assert run(example, "check").exit_code == 1
    # (compared twice: a cached plan that finds drift is planned again, for its text)
    assert set(looked_at) == {(example.root / page).read_bytes()}
    (example.root / page).write_text("# Mine, not docgen's\n", "utf-8")
    refused = run(example, "check")
    assert refused.exit_code == 2 and f"{page}:1:1: error:" in refused.output


@pytest.mark.parametrize("verb", ["check", "build"])
def test_a_generated_file_that_cannot_be_read_is_a_located_error(
    example: Project, run: Run, monkeypatch: pytest.MonkeyPatch, verb: str
) -> None:
    """docgen can neither compare nor overwrite a file it cannot read (permissions, an I/O
    error): exit 2 at its path, nothing written, not a bug report."""
    import docgen.io.reads

    page = "docs/inference/set-up-vllm.mdx"
    regular = docgen.io.reads._regular

    def unreadable(path, size):
        if str(path).endswith(page):
            raise PermissionError(13, "Permission denied")
        return regular(path, size)

    monkeypatch.setattr(docgen.io.reads, "_regular", unreadable)
    before = example.snapshot()
    result = run(example, verb)
    assert result.exit_code == 2, result.output
    assert f"{page}: error: cannot read it to compare it: Permission denied" in result.output
    assert example.snapshot() == before


def test_a_folder_this_user_may_not_look_into_is_a_located_error(
    example: Project, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``chmod 000`` on a folder of generated pages (seen as another user): exit 2."""
    from docgen.io import files

    assert run(example, "build").exit_code == 0
    example.edit("profiles.yaml", "max-num-seqs: 4\n", "max-num-seqs: 6\n")
    real = files.lookup_link

    def denied(text: str, inside: object) -> object:
        if "/docs/profiles/" in text:
            raise PermissionError(13, "Permission denied")
        return real(text, inside)  # type: ignore[arg-type]

    monkeypatch.setattr(files, "lookup_link", denied)
    before = example.snapshot()
    result = run(example, "build")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("docs/profiles/")
    assert result.stderr.endswith(": error: cannot read it to compare it: Permission denied\n")
    assert example.snapshot() == before


def test_outputs_reached_through_a_folder_linked_inside_the_root_are_not_stale(make_project, run):
    """``docs/_build`` a link to ``docs/b``: each variant is one file by two names, kept
    and compared once (a build used to prune it by one name and write it by the other)."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    docs = project.root / "docs"
    (docs / "_build").rename(docs / "b")
    (docs / "_build").symlink_to("b")
    before = _docs_of(project)
    for _ in range(2):
        built = run(project, "build")
        assert built.exit_code == 0
        assert "pruned" not in built.stdout or " 0 pruned" in built.stdout
        assert run(project, "check").exit_code == 0
    assert _docs_of(project) == before


def _docs_of(project) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The project's files but docgen's own cache folder (a build stamps there)."""
    return {k: v for k, v in project.snapshot().items() if not k.startswith(".docgen-cache/")}


def test_a_folder_whose_name_only_begins_with_another_folders_is_looked_through(make_project, run):
    """``docs-changelog`` is no folder of ``docs``: a stale generated file there is
    found and pruned as in any output folder."""
    project = make_project(files={"docgen.toml": 'changelog = "docs-changelog"\n'})
    assert run(project, "build").exit_code == 0
    project.write("docs-changelog/old.json", project.read("docs/_build/registry.json"))
    check = run(project, "check")
    assert check.exit_code == 1
    assert "docs-changelog/old.json:1:1: error: stale" in check.stdout
    assert run(project, "build").exit_code == 0
    assert not (project.root / "docs-changelog/old.json").exists()


@pytest.mark.parametrize("cached", [True, False], ids=["with the cache", "fresh clone"])
def test_an_output_that_is_a_link_to_a_copy_is_drift_and_build_writes_the_file(
    make_project, run, cached
):
    """A link inside the root at an output's path, to a copy of that page: ``check`` read
    the page through it and passed, then ``build`` pruned the copy as a stale generated
    file, left the link dangling and said the tree was in sync."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    if not cached:
        shutil.rmtree(project.root / ".docgen-cache")
    page = project.root / "docs/models.mdx"
    (project.root / "docs/copy.mdx").write_bytes(page.read_bytes())
    page.unlink()
    page.symlink_to("copy.mdx")
    check = run(project, "check")
    assert check.exit_code == 1
    assert [line for line in check.stdout.splitlines() if ": error: " in line] == [
        "docs/models.mdx:1:1: error: a symbolic link to docs/copy.mdx, where docgen writes a "
        "file of its own: `docgen build` replaces the link",
        "docs/copy.mdx:1:1: error: stale: no template or registry entry produces it any more",
    ]
    report = json.loads(run(project, "check", "--format", "json").stdout)
    linked = [f for f in report["files"] if f["path"] == "docs/models.mdx"]
    assert [(f["status"], f["link"]) for f in linked] == [("changed", "docs/copy.mdx")]
    assert run(project, "build").exit_code == 0
    assert not page.is_symlink() and not (project.root / "docs/copy.mdx").exists()
    assert run(project, "check").exit_code == 0


def test_a_build_sweeps_what_a_killed_write_left_beside_pages_no_output_has_now(
    make_project: Callable[..., Project], run: Run
) -> None:
    """Without a usable own folder a write stages beside its targets; a build killed then,
    and a template removed after, left those files: no sweep looked beside pages that no
    output has any more."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    left = [
        "docs/gone/.page.mdx.4242.docgen-tmp",
        "docs/gone/deeper/.page.mdx.4242-3.docgen-old",
    ]
    for path in left:
        project.write(path, "half a page\n")
    project.write("docs/gone/.keep.mdx.docgen-tmp.txt", "not docgen's\n")
    # a person's, committed, named like a temporary but not as docgen names one (a
    # hostile round: a build deleted it, even one that exited 2)
    project.write("docs/gone/.draft.docgen-tmp", "mine\n")
    project.write("docs/.todo.docgen-old", "mine\n")
    project.write("docs/.notes.2024.docgen-old", "mine\n")
    checked = run(project, "check")
    assert checked.exit_code == 0 and all((project.root / p).exists() for p in left)
    assert run(project, "build").exit_code == 0
    assert not any((project.root / p).exists() for p in left)
    assert (project.root / "docs/gone/.keep.mdx.docgen-tmp.txt").exists()
    assert (project.root / "docs/gone/.draft.docgen-tmp").exists()
    assert (project.root / "docs/.todo.docgen-old").exists()
    assert (project.root / "docs/.notes.2024.docgen-old").exists()
