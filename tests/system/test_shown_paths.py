"""Run from a folder below the project (``docs/``: the project is found above it), the
file each line of text output leads with is named from there, as compilers and linters
do, so a terminal or an editor opens the file a line names. With ``--root`` paths are
the root's, as ``git -C`` shows them, and so they are at the root. Data stays as it was:
a message's own text, JSON and GitHub annotations name files from the root and the
workflow's workspace, a diff's header from the root (as git's), and a command-line
option or a file at a git revision is no file to name from here."""

from __future__ import annotations

import os
import re

import pytest
from conftest import invoke_cli

LOCATED = re.compile(r"^(\S+?):(\d+):(\d+): error: ", re.M)


def _drifted(example) -> None:
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 12")


def test_a_check_run_from_docs_names_each_drifted_file_and_entry_from_there(example, monkeypatch):
    _drifted(example)
    here = example.root / "docs"
    monkeypatch.chdir(here)
    drift = invoke_cli(["check"])
    assert drift.exit_code == 1, drift.output
    named = [m[1] for m in LOCATED.finditer(drift.stdout)]
    assert named, drift.stdout
    assert all((here / path).is_file() for path in named), named
    assert "_build/registry.json" in named  # docs/_build/registry.json, from docs/
    behind = set(re.findall(r"behind it: (\S+?):\d+:\d+ ", drift.stdout))
    assert behind == {"../profiles.yaml"}, drift.stdout
    # A diff's header names the file from the root, as git's does from any folder.
    assert "--- a/docs/_build/registry.json" in drift.stdout


def test_an_input_error_names_the_registry_from_the_folder_docgen_runs_in(example, monkeypatch):
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: sixteen")
    monkeypatch.chdir(example.root / "docs" / "inference")
    broken = invoke_cli(["check"])
    assert broken.exit_code == 2, broken.output
    assert LOCATED.match(broken.stderr)[1] == "../../profiles.yaml", broken.stderr
    given = invoke_cli(["--root", str(example.root), "validate"])
    assert LOCATED.match(given.stderr)[1] == "profiles.yaml", given.stderr


def test_build_and_validate_name_files_from_the_folder_docgen_runs_in(example, monkeypatch):
    _drifted(example)
    monkeypatch.chdir(example.root / "docs")
    built = invoke_cli(["build"])
    assert built.exit_code == 0, built.output
    updated = re.findall(r"^update (\S+)$", built.stdout, re.M)
    assert "_build/registry.json" in updated, built.stdout
    assert all((example.root / "docs" / path).is_file() for path in updated)
    assert invoke_cli(["validate"]).stdout.startswith("../profiles.yaml: ok (")


def test_run_at_the_root_paths_are_as_they_always_were(example, monkeypatch):
    _drifted(example)
    monkeypatch.chdir(example.root)
    drift = invoke_cli(["check"])
    named = {m[1] for m in LOCATED.finditer(drift.stdout)}
    assert "docs/_build/registry.json" in named
    assert "behind it: profiles.yaml:" in drift.stdout


@pytest.mark.parametrize("fmt", ["json", "github"])
def test_machine_formats_name_files_as_data_wherever_docgen_runs(example, monkeypatch, fmt):
    _drifted(example)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(example.root))
    monkeypatch.chdir(example.root / "docs")
    drift = invoke_cli(["check", "--format", fmt])
    assert drift.exit_code == 1
    if fmt == "json":
        assert '"path": "docs/_build/registry.json"' in drift.stdout
        assert '"file": "profiles.yaml"' in drift.stdout
    else:
        assert "::error file=docs/_build/registry.json," in drift.stdout
        assert "::error file=profiles.yaml," in drift.stdout


def test_an_option_or_a_revision_is_no_file_to_name_from_here(example, monkeypatch):
    monkeypatch.chdir(example.root / "docs")
    unknown = invoke_cli(["check", "--changelog-since", "no-such-revision"])
    assert unknown.exit_code == 2, unknown.output
    assert unknown.stderr.startswith("--changelog-since: error: "), unknown.stderr


def test_every_location_docgen_names_by_a_word_is_no_file():
    """A location docgen makes from a literal (an option, a command, ``overview``) names
    no file, so it is never rewritten as a path: each literal in docgen's code is one."""
    from conftest import REPO

    from docgen.errors import names_file

    code = "\n".join(p.read_text("utf-8") for p in (REPO / "docgen").rglob("*.py"))
    literals = set(re.findall(r'Location\("([^"]*)"', code))
    assert {"--site-url", "release-notes", "docgen"} <= literals
    assert [name for name in sorted(literals) if names_file(name)] == []
    assert names_file("docs/profiles/x.mdx") and names_file("profiles.yaml")
    assert not names_file("HEAD~1:profiles.yaml") and not names_file("<stdin>")


def test_a_command_named_as_the_place_of_its_error_is_no_file_to_name_from_here(
    example, monkeypatch
):
    monkeypatch.chdir(example.root / "docs")
    missing = invoke_cli(["release-notes", "v9.9.9"])
    assert missing.exit_code == 2, missing.output
    assert missing.stderr.startswith("release-notes: error: no release v9.9.9"), missing.stderr


def test_a_project_file_with_a_colon_in_its_name_is_named_from_here_too(example, monkeypatch):
    """A colon marks a file at a git revision (``HEAD:profiles.yaml``) unless a file of
    that name lies in the project: a template ``a:b.mdx.j2`` is one."""
    example.write("templates/inference/a:b.mdx.j2", '---\ntitle: "x"\n---\n\nhello {{ 1 + }}\n')
    monkeypatch.chdir(example.root / "docs")
    broken = invoke_cli(["check"])
    assert broken.exit_code == 2, broken.output
    assert broken.stderr.startswith("../templates/inference/a:b.mdx.j2:5:"), broken.stderr


def test_init_names_what_it_creates_from_the_current_folder(tmp_path, monkeypatch):
    """``init sub/site`` says ``create sub/site/profiles.yaml``, as its next step says
    ``cd sub/site``; its ``--root`` help gives the current folder as the default."""
    monkeypatch.chdir(tmp_path)
    made = invoke_cli(["init", "sub/site"])
    assert made.exit_code == 0, made.output
    created = re.findall(r"^create (\S+)$", made.stdout, re.M)
    assert "sub/site/profiles.yaml" in created
    assert all((tmp_path / path).exists() for path in created), created
    assert "next: cd sub/site && docgen check" in made.stdout
    helped = " ".join(invoke_cli(["init", "--help"]).stdout.split())
    assert "--root DIRECTORY The folder DIRECTORY is taken from" in helped
    assert "[default: .]" in helped and "nearest project" not in helped


def test_init_names_a_folder_with_control_characters_by_their_escapes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    made = invoke_cli(["init", "a\x1b[31mb"])
    assert made.exit_code == 0, made.output
    assert "create a\\x1b[31mb/profiles.yaml\n" in made.stdout
    assert "next: cd $'a\\x1b[31mb' && docgen check" in made.stdout


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("bad\nname", "$'bad\\x0aname'"),
        ("it's\tx", "$'it\\'s\\x09x'"),
        ("back\\slash\x85", "$'back\\\\slash\\xc2\\x85'"),  # U+0085's UTF-8 bytes: any locale
        ("caf\udce9", "$'caf\\xe9'"),  # the byte 0xE9, which is no UTF-8
    ],
)
def test_init_says_how_to_enter_a_folder_as_bash_reads_the_name_back(tmp_path, name, word):
    """``cd 'bad\\nname'`` (the newline shown as its escape inside plain quotes) named a
    folder that is not there; bash's ``$'...'`` reads each escape back."""
    import subprocess
    import sys

    made = subprocess.run(
        [sys.executable, "-m", "docgen", "init", os.fsencode(name)],
        capture_output=True,
        cwd=tmp_path,
        check=True,
    )
    hint = made.stdout.decode("utf-8").splitlines()[-1]
    assert hint == f"next: cd {word} && docgen check && mkdocs serve"
    for locale in ("C", "C.UTF-8"):  # bash's \u escapes need a UTF-8 locale; bytes do not
        entered = subprocess.run(
            ["bash", "-c", f"cd {word} && pwd"],
            capture_output=True,
            cwd=tmp_path,
            check=True,
            env={**os.environ, "LC_ALL": locale},
        )
        assert entered.stdout == os.fsencode(tmp_path / name) + b"\n"


def test_a_file_a_message_names_stays_the_roots(example, monkeypatch):
    """A message is data too (the JSON report and the annotations carry it): a file it
    names inside its text is named from the root, wherever docgen runs; only the location
    a line leads with is named from the current folder."""
    page = "docs/profiles/vllm.dgx-station-gb300.single.deepseek-v4-flash.mdx"
    example.write(page, "---\ntitle: mine\n---\n\nWritten by hand.\n")
    monkeypatch.chdir(example.root / "docs")
    blocked = invoke_cli(["check"])
    assert blocked.exit_code == 2, blocked.output
    assert blocked.stderr.startswith("profiles/vllm.dgx-station-gb300"), blocked.stderr
    assert "generates this path from templates/profiles/[profile].mdx.j2 " in blocked.stderr
    data = invoke_cli(["check", "--format", "json"])
    assert "generates this path from templates/profiles/[profile].mdx.j2 " in data.stdout
