"""docgen.report: one report, worded for a terminal, a JSON reader, GitHub and pytest."""

from __future__ import annotations

import json

import pytest

from docgen import report
from docgen.changes import CHANGED, UNCHANGED, Change
from docgen.config import load_project
from docgen.errors import Location, Problem
from docgen.outputs import Output
from docgen.verbs.build import build, check

EDIT = ("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
BEHIND = "profiles.yaml:40:7 profiles.vllm.box.tiny.args.gpu-memory-utilization"


@pytest.fixture
def drifted(make_project):
    """A built minimal project whose registry was then edited (four outputs drift)."""
    project = make_project()
    build(load_project(project.root))
    project.edit("profiles.yaml", *EDIT)
    return check(load_project(project.root))


def test_build_lines_say_what_was_done_then_the_counts(make_project):
    project = make_project()
    built = build(load_project(project.root), dry_run=True)
    lines = report.build_lines(built, verbose=False)
    assert lines[-1] == report.Line("would write 4, update 0 and prune 0; 0 unchanged", "info")
    # What a dry run would change is the drift: -q (which drops "info") still prints it.
    assert lines[0] == report.Line("would write docs/models.mdx", "out")
    built = build(load_project(project.root))
    again = build(load_project(project.root))
    assert report.build_lines(again, verbose=False) == [
        report.Line("0 written, 0 updated, 0 pruned, 4 unchanged", "info")
    ]
    kept = report.build_lines(again, verbose=True)
    assert kept[0] == report.Line("keep docs/models.mdx", "info") and len(kept) == 5


def test_check_text_in_sync_is_one_line(make_project):
    project = make_project()
    build(load_project(project.root))
    found = check(load_project(project.root))
    assert report.check_text(found, verbose=False) == [
        report.Line("4 generated files match the registry", "info")
    ]
    verbose = report.check_text(found, verbose=True)
    assert report.Line("docs/models.mdx: in sync", "info") in verbose


@pytest.mark.parametrize(("products", "said"), [(1, "1 build product "), (2, "2 build products ")])
def test_build_products_not_compared_are_counted_in_words(products, said):
    from docgen.changes import Report

    found = Report(not_compared=[f"docs/x{n}.json" for n in range(products)])
    lines = [line.text for line in report.check_text(found, verbose=False)]
    assert lines[-1].startswith(f"{said}(setting build_products) not compared")


def test_check_text_on_drift(drifted):
    lines = report.check_text(drifted, verbose=False)
    first = lines[0]
    assert first == report.Line("docs/models.mdx:14:1: error: out of date with the registry")
    diff = [line.text for line in lines if line.channel == "diff"]
    assert "-  --gpu-memory-utilization 0.5 \\" in diff
    assert "+  --gpu-memory-utilization 0.6 \\" in diff
    assert lines.count(report.Line(f"  registry entry behind it: {BEHIND}")) == 4
    assert lines[-1] == report.Line(
        "4 generated files are out of sync with the registry: run `docgen build`", "err"
    )


def test_drift_line_is_the_first_line_that_differs(drifted):
    change = next(c for c in drifted.changes if c.path == "docs/models.mdx")
    line = change.shown().line
    old, new = change.old.splitlines(), change.output.text.splitlines()
    assert old[: line - 1] == new[: line - 1] and old[line - 1] != new[line - 1]


def test_check_json_shape(drifted):
    drifted.findings.append(Problem("broken", Location("changelog/x.mdx", 3), rule="r-id"))
    hint = Problem("add this", Location("profiles.yaml", 5, 3), severity="note", rule="hint")
    drifted.findings.append(hint)
    data = json.loads(json.dumps(report.check_json(drifted)))
    assert data["version"] == 1 and data["in_sync"] is False
    changed = next(f for f in data["files"] if f["path"] == "docs/models.mdx")
    assert changed["status"] == "changed" and changed["line"] > 1
    assert changed["sources"] == [
        {
            "key": "profiles.vllm.box.tiny.args.gpu-memory-utilization",
            "file": "profiles.yaml",
            "line": 40,
            "column": 7,
        }
    ]
    assert data["findings"] == [
        {
            "file": "changelog/x.mdx",
            "line": 3,
            "column": None,
            "message": "broken",
            "severity": "error",
            "rule": "r-id",
        },
        {
            "file": "profiles.yaml",
            "line": 5,
            "column": 3,
            "message": "add this",
            "severity": "note",
            "rule": "hint",
        },
    ]


def test_github_annotations_keep_each_findings_severity(drifted):
    """A finding that is a note (how to guard a removed argument) is a notice, not an
    error; each stands at its place."""
    drifted.findings[:0] = [
        Problem("broken", Location("changelog/x.mdx", 3), rule="r-id"),
        Problem("add this", Location("profiles.yaml", 5, 3), severity="note", rule="hint"),
        Problem("odd", None, severity="warning", rule="w"),
    ]
    lines = [line.text for line in report.check_github(drifted)]
    assert lines[:3] == [
        "::error file=changelog/x.mdx,line=3::broken",
        "::notice file=profiles.yaml,line=5,col=3::add this",
        "::warning::odd",
    ]


def test_github_format_in_sync_says_so_in_the_log_without_an_annotation(make_project):
    project = make_project()
    build(load_project(project.root))
    found = check(load_project(project.root))
    assert report.check_github(found) == [
        report.Line("4 generated files match the registry", "info")
    ]


def test_github_annotations_one_per_file_and_per_registry_line(drifted):
    lines = [line.text for line in report.check_github(drifted)]
    errors = [t for t in lines if t.startswith("::error")]
    assert len(errors) == 4 + 1  # four drifted files, one registry line behind them all
    assert errors[-1] == (
        "::error file=profiles.yaml,line=40,col=7::profiles.vllm.box.tiny.args."
        "gpu-memory-utilization changed; run docgen build to update "
        "docs/models.mdx and 3 other generated files"
    )
    assert lines.count("::endgroup::") == 4
    assert (
        "::notice::4 generated files are out of sync with the registry; run docgen build" in lines
    )


def test_github_annotations_name_files_from_the_workspace(drifted, tmp_path, monkeypatch):
    """A project in a subfolder of the repository (a monorepo): each file is named as the
    pull request's files are, from the workspace, so the annotation lands on it."""
    root = tmp_path / "repo" / "site"
    root.mkdir(parents=True)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path / "repo"))
    errors = [t.text for t in report.check_github(drifted, root) if t.text.startswith("::error")]
    assert errors[0].startswith("::error file=site/docs/models.mdx,line=")
    assert errors[-1].startswith("::error file=site/profiles.yaml,line=40,col=7::")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(root))  # the project is the repository
    assert report.workspace_prefix(root) == ""
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path / "elsewhere"))
    assert report.workspace_prefix(root) == ""  # outside the workspace: named as before


def test_annotation_escapes_data_and_properties():
    line = report.annotation("50% done\r\nnext", "a:b,c.mdx", 3, 1)
    assert line.text == "::error file=a%3Ab%2Cc.mdx,line=3,col=1::50%25 done%0D%0Anext"
    assert report.annotation("note", level="notice").text == "::notice::note"


def test_drift_failure_for_pytest(drifted):
    change = next(c for c in drifted.changes if c.path == "docs/models.mdx")
    text = report.drift_failure(change)
    assert text.startswith(
        "docs/models.mdx:14:1: error: out of date with the registry\n--- a/docs/models.mdx"
    )
    assert text.endswith(
        f"registry entry behind it: {BEHIND}\nrun `docgen build` to bring the docs back in sync"
    )


@pytest.mark.parametrize("fmt", ["json", "github"])
def test_an_input_error_is_reported_in_the_format_asked_for(make_project, run, fmt):
    """CI asks for JSON or annotations: a broken registry is a finding there too (exit 2,
    nothing written), not only a line on stderr."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    project.edit("profiles.yaml", "gpu-memory-utilization:", "gpu-memory-utilisation:")
    before = project.snapshot()
    result = run(project, "check", "--format", fmt)
    assert result.exit_code == 2
    assert project.snapshot() == before
    message = "unknown vLLM flag '--gpu-memory-utilisation'; did you mean"
    if fmt == "json":
        data = json.loads(result.stdout)
        assert (data["in_sync"], data["files"]) == (False, [])
        [finding] = data["findings"]
        assert finding["message"].startswith(message)
        assert (finding["file"], finding["line"], finding["column"]) == ("profiles.yaml", 40, 7)
        assert (finding["severity"], finding["rule"]) == ("error", "registry")
        assert f"profiles.yaml:40:7: error: {message}" in result.stderr
    else:
        assert result.stdout.startswith(f"::error file=profiles.yaml,line=40,col=7::{message}")
        assert result.stdout.count("\n") == 1


def test_a_lone_surrogate_in_an_input_error_is_escaped_in_annotations(make_project, run):
    """A registry key may hold any code point, a lone surrogate too, which no UTF-8
    output can carry: the annotation shows its escape (exit 2, not a crash)."""
    project = make_project()
    project.edit("profiles.yaml", "gpu-memory-utilization:", '"gpu-memory\\ud800": 0.5\n      x:')
    result = run(project, "check", "--format", "github")
    assert result.exit_code == 2, result.output
    assert "gpu-memory\\ud800" in result.stdout and result.stdout.startswith("::error file=")


def test_an_option_is_no_file_in_a_finding(make_project, run):
    """An error of a command-line option (or of a file at a git revision) names no file
    of the tree: JSON gives no file, GitHub no file property, and the message says where."""
    import subprocess

    project = make_project()
    for args in (
        ["init", "-q"],
        ["add", "."],
        ["-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "x"],
    ):
        subprocess.run(["git", *args], cwd=project.root, check=True)  # fmt: skip
    found = run(project, "check", "--format", "json", "--changelog-since", "nope")
    assert found.exit_code == 2
    [finding] = json.loads(found.stdout)["findings"]
    assert (finding["file"], finding["line"], finding["column"]) == (None, None, None)
    assert finding["message"] == "--changelog-since: unknown git revision 'nope'"
    shown = run(project, "check", "--format", "github", "--changelog-since", "nope")
    assert shown.stdout == "::error::--changelog-since: unknown git revision 'nope'\n"


def test_the_in_sync_line_counts_in_words():
    assert report.matching(1) == "1 generated file matches the registry"
    assert report.matching(31) == "31 generated files match the registry"


def test_a_file_of_the_tree_with_a_colon_in_its_name_is_a_file_in_a_finding(tmp_path):
    """``a:b.mdx.j2`` is a template there, not a file at a git revision: JSON and GitHub
    name it; ``HEAD:profiles.yaml`` (no such file there) still leads the message."""
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates/a:b.mdx.j2").write_text("{{ nope.x }}\n", "utf-8")
    found = report.Report(
        findings=[
            Problem("template failed", Location("templates/a:b.mdx.j2", 1)),
            Problem("not a mapping", Location("HEAD:profiles.yaml", 3, 1)),
        ]
    )
    files = [f["file"] for f in report.check_json(found, tmp_path)["findings"]]
    assert files == ["templates/a:b.mdx.j2", None]
    lines = [line.text for line in report.check_github(found, tmp_path)]
    assert lines[0] == "::error file=templates/a%3Ab.mdx.j2,line=1::template failed"
    assert lines[1] == "::error::HEAD:profiles.yaml:3:1: not a mapping"


def test_a_printed_problem_never_holds_a_character_that_rewrites_its_line():
    """Whatever a message quotes, a carriage return or a bidirectional override is
    printed as its escape: raw, it would make the terminal show another line than the
    one printed. Newlines and tabs of a message stay as they are."""
    problem = Problem("got '4\u202e' and '\r--rm'\n\tsee above", Location("p.yaml", 3, 5))
    assert str(problem) == "p.yaml:3:5: error: got '4\\u202e' and '\\r--rm'\n\tsee above"


def test_json_for_the_console_escapes_what_a_terminal_acts_on_and_keeps_the_data():
    """``diff`` and ``serve-command`` print JSON beyond ASCII on a UTF-8 console: JSON
    escapes C0 controls, but leaves DEL, C1 and the bidirectional controls raw."""
    import json

    from docgen.terminal import json_text

    value = {"label": "Qwen \u202eR \u2066x \u061cy \x9b31m \x7f \x1b é"}
    printed = json_text(value, indent=2)
    assert json.loads(printed) == value
    assert not any(c in printed for c in "\u202e\u2066\u061c\x9b\x7f\x1b")
    assert "é" in printed or "\\u00e9" in printed


def test_the_arabic_letter_mark_is_a_bidirectional_control_like_the_others():
    """U+061C reorders what a terminal shows as U+200F does: escaped wherever docgen
    prints an input, refused in a registry name, dropped from generated MDX text."""
    from docgen.errors import CONTROL, one_line, printable
    from docgen.render.mdx import escape_prose

    assert printable("a\u061cb") == one_line("a\u061cb") == "a\\u061cb"
    assert CONTROL.search("label\u061c")
    assert "\u061c" not in escape_prose("a\u061cb")


@pytest.mark.parametrize(
    ("char", "escape"),
    [
        ("\ufeff", "\\ufeff"),
        ("\u200b", "\\u200b"),
        ("\xad", "\\xad"),
        ("\U000e0041", "\\U000e0041"),
    ],
)
def test_a_message_shows_an_invisible_format_character_as_its_escape(example, run, char, escape):
    """``got '4'`` for ``4\ufeff`` (a hostile round's finding): a message quotes input, and
    a byte-order mark, zero-width space, soft hyphen or tag there showed as nothing."""
    spark = "vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4"
    args = json.dumps(["--max-num-seqs", f"4{char}"], ensure_ascii=False)
    result = run(example, "serve-command", spark, "--extra-args-json", args)
    assert result.exit_code == 2
    assert f"got '4{escape}'" in result.stderr and char not in result.stderr


@pytest.mark.parametrize(
    ("char", "said"),
    [
        ("\udc80", "it holds the byte 0x80, which is not UTF-8"),
        ("\udcff", "it holds the byte 0xFF, which is not UTF-8"),
        ("\udc7f", "it holds a lone surrogate (U+DC7F), which is no character"),
        ("\ud800", "it holds a lone surrogate (U+D800), which is no character"),
    ],
)
def test_a_byte_the_command_line_could_not_decode_is_told_from_a_lone_surrogate(char, said):
    """Python keeps the bytes 0x80 to 0xFF of an argument that is no UTF-8 as U+DC80 to
    U+DCFF; any other surrogate came from an escape (``\\ud800``)."""
    from docgen.errors import surrogate_problem

    assert surrogate_problem(f"caf{char}") == said
    assert surrogate_problem("café") is None


def test_an_annotation_shows_an_invisible_format_character_as_its_escape():
    """The github format (CI's) showed ``got '4'`` again (a fresh-eyes review's finding)."""
    found = report.Report(findings=[Problem("got '4\ufeff'", Location("profiles.yaml", 3, 5))])
    lines = [line.text for line in report.check_github(found)]
    assert "::error file=profiles.yaml,line=3,col=5::got '4\\ufeff'" in lines


def test_every_unicode_format_character_is_escaped_in_a_message():
    import unicodedata

    from docgen.errors import Problem

    hidden = "".join(chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf")
    shown = str(Problem(f"got '{hidden}'"))
    assert shown.isascii() and shown.startswith("error: got '\\xad\\u0600")


@pytest.mark.parametrize(
    ("old", "new", "cause"),
    [
        # a release listed without a link: a project whose navigation has no changelog
        (
            "- v0.2.0 (2026-02-01): B.\n- v0.1.0 (2026-01-01): A.\n",
            "- v0.1.0 (2026-01-01): A.\n",
            "the changelog entries",
        ),
        (
            "- [v0.2.0](/c/v0.2.0) (2026-02-01): B.\n- [v0.1.0](/c) (2026-01-01): A.\n",
            "- [v0.1.0](/c) (2026-01-01): A.\n",
            "the changelog entries",
        ),
        ("- v0.1.0 (2026-01-01): A.\n", "- v0.1.0 (2026-01-01): A, now.\n", "the registry"),
    ],
    ids=["unlinked", "linked", "same-releases"],
)
def test_an_overview_that_lists_fewer_releases_is_the_changelog_entries_drift(old, new, cause):
    """An entry deleted leaves the overview listing one release fewer: its drift comes
    from the changelog entries, whether the lines link their releases or not."""
    from docgen.changes import CHANGED, Change
    from docgen.outputs import Output

    output = Output("changelog/overview.mdx", new, "changelog", basis="changelog")
    assert Change(output.path, CHANGED, output, old).cause == cause


# -- verdicts and channels a mutation sample found unpinned -----------------------------------


def _page(name: str) -> Output:
    return Output(f"docs/{name}.mdx", f"new {name}\n", f"templates/{name}.mdx.j2")


def test_a_hand_edit_beside_registry_drift_is_said_to_be_undone_by_the_build():
    """Only when every drifted file is a hand edit does the verdict call them that."""
    edited = Change(
        "docs/a.mdx", CHANGED, _page("a"), "old\n", kept_as_built=True, never_committed=True
    )
    drifted = Change("docs/b.mdx", CHANGED, _page("b"), "old\n")
    mixed = report.check_text(report.Report(changes=[edited, drifted]), verbose=False)
    assert mixed[-1] == report.Line(
        "2 generated files are out of sync with the registry: run `docgen build` "
        "(it undoes the hand edits)",
        "err",
    )
    alone = report.check_text(report.Report(changes=[edited]), verbose=False)
    assert alone[-1] == report.Line(
        "1 generated file is edited by hand: `docgen build` would undo the edits", "err"
    )


def test_a_note_beside_an_error_is_no_problem_that_fails_the_check():
    found = report.Report(
        changes=[Change("docs/a.mdx", UNCHANGED, _page("a"))],
        findings=[
            Problem("broken", Location("changelog/2026-01-01.mdx", 3)),
            Problem("mind this", Location("profiles.yaml", 2), severity="note"),
        ],
    )
    assert report.check_text(found, verbose=False)[-1] == report.Line(
        "1 generated file matches the registry, but 1 problem above fails the check", "err"
    )


def test_a_dry_run_says_what_it_would_keep_only_as_information(make_project):
    """The files a dry run would change are the drift ``-q`` prints; what it would keep is
    not (``-q build --dry-run -v`` printed every kept file)."""
    project = make_project()
    build(load_project(project.root))
    lines = report.build_lines(build(load_project(project.root), dry_run=True), verbose=True)
    assert report.Line("would keep docs/models.mdx", "info") in lines
    assert [line for line in lines if line.channel != "info"] == []


def test_in_github_actions_information_is_shielded_on_its_own_channel(monkeypatch):
    """``-q`` drops what is information: the stop-commands markers around it go with it."""
    monkeypatch.setattr(report, "in_actions", lambda: True)
    lines = report.shielded([report.Line("write docs/a.mdx", "info")])
    assert [line.channel for line in lines] == ["info", "info", "info"]
    assert lines[0].text.startswith("::stop-commands::") and lines[2].text.endswith("::")


def test_a_registry_line_behind_two_files_names_the_other_in_the_singular(drifted):
    two = report.Report(changes=[c for c in drifted.changes if c.status == CHANGED][:2])
    notes = [
        line.text
        for line in report.check_github(two)
        if "registry" in line.text or "changed" in line.text
    ]
    assert any(text.endswith("and 1 other generated file") for text in notes), notes
