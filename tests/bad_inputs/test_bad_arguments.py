"""Bad command-line arguments: each gives an exact located error and changes nothing."""

from __future__ import annotations

import pytest
from bad_input_cases import OLD, Case, check, entry, param

CLI_ARGS = [
    Case(
        "serve-command-unknown-profile",
        ("serve-command", "vllm.box.tin"),
        ("serve-command: error: unknown profile 'vllm.box.tin'; did you mean 'vllm.box.tiny'?",),
    ),
    Case(
        "serve-command-unknown-override",
        ("serve-command", "vllm.box.tiny", "--override", "smal"),
        (
            "--override: error: profile 'vllm.box.tiny' has no override 'smal'; did you mean "
            "'small'?",
        ),
    ),
    Case(
        "extra-args-not-json",
        ("serve-command", "vllm.box.tiny", "--extra-args-json", "[--max-num-seqs"),
        ("--extra-args-json: error: not valid JSON: Expecting value at column 2",),
    ),
    Case(
        "extra-args-not-strings",
        ("serve-command", "vllm.box.tiny", "--extra-args-json", "[1, 2]"),
        ("--extra-args-json: error: must be a JSON array of vLLM serve argument strings",),
    ),
    Case(
        "extra-args-unknown-flag",
        ("serve-command", "vllm.box.tiny", "--extra-args-json", '["--max-num-seq", "4"]'),
        (
            "--extra-args-json: error: token 1 ('--max-num-seq'): unknown option '--max-num-seq'; "
            "did you mean '--max-num-seqs'?",
        ),
    ),
    Case(
        "extra-args-control-character",
        ("serve-command", "vllm.box.tiny", "--extra-args-json", '["--max-num\\u0007-seqs", "4"]'),
        ("--extra-args-json: error: token 1 contains a control character (U+0007)",),
    ),
    Case(
        "extra-args-bidirectional-override",
        (
            "serve-command",
            "vllm.box.tiny",
            "--extra-args-json",
            '["--served-model-name", "a\\u202eb"]',
        ),
        ("--extra-args-json: error: token 2 contains a control character (U+202E)",),
    ),
    Case(
        "extra-args-line-separator",
        (
            "serve-command",
            "vllm.box.tiny",
            "--extra-args-json",
            '["--served-model-name", "a\\u2028b"]',
        ),
        ("--extra-args-json: error: token 2 contains a control character (U+2028)",),
    ),
    Case(
        "extra-args-byte-not-utf8",  # how Python passes on a command-line byte it cannot decode
        (
            "serve-command",
            "vllm.box.tiny",
            "--extra-args-json",
            '["--served-model-name", "a\udcff"]',
        ),
        (
            "--extra-args-json: error: token 2 is no text to print: it holds the byte 0xFF, which "
            "is not UTF-8",
        ),
    ),
    Case(
        "extra-args-lone-surrogate",
        (
            "serve-command",
            "vllm.box.tiny",
            "--extra-args-json",
            '["--served-model-name", "\\ud800"]',
        ),
        (
            "--extra-args-json: error: token 2 is no text to print: it holds a lone surrogate "
            "(U+D800), which is no character",
        ),
    ),
    Case(
        "extra-args-bad-value",
        ("serve-command", "vllm.box.tiny", "--extra-args-json", '["--max-num-seqs", "many"]'),
        (
            "--extra-args-json: error: token 2 ('many'): '--max-num-seqs' expects an integer, got "
            "'many'",
        ),
    ),
    Case(
        "changelog-missing-version",
        ("changelog", "--since-file", "old.yaml"),
        ("--version: error: missing option '--version'",),
        files={"old.yaml": OLD},
        usage=True,
    ),
    Case(
        "diff-without-since",
        ("diff",),
        ("docgen diff: error: give exactly one of --since REF and --since-file FILE",),
        usage=True,
    ),
    Case(
        "diff-both-bases",
        ("diff", "--since", "HEAD", "--since-file", "old.yaml"),
        ("docgen diff: error: give exactly one of --since REF and --since-file FILE",),
        usage=True,
        files={"old.yaml": OLD},
    ),
    Case(
        "check-unknown-format",
        ("check", "--format", "xml"),
        (
            "--format: error: invalid value for '--format': 'xml' is not one of 'text', "
            "'json', 'github'",
        ),
        usage=True,
    ),
    Case(
        "registry-missing",
        ("--registry", "nope.yaml", "validate"),
        ("nope.yaml: error: registry file not found in the project's folder {root}",),
    ),
    Case(
        "release-notes-unknown-version",
        ("release-notes", "v9.9.9"),
        ("release-notes: error: no release v9.9.9 in changelog/ (known: v1.0.0)",),
        files=entry(),
        built=True,
    ),
]

CASES = CLI_ARGS


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_bad_input_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)


@pytest.mark.parametrize(
    ("args", "where", "named"),
    [
        (("check", "--verbos"), "--verbos", "--verbose"),  # click's suggestion is kept
        (("check", "--format", "xml"), "--format", "xml"),
        (("serve-command",), "PROFILE", "PROFILE"),
        (("bogus",), "docgen", "bogus"),
        (("serve-command", "a", "b"), "docgen serve-command", "b"),
        (("diff", "--since"), "--since", "--since"),
    ],
)
def test_a_usage_error_is_one_located_line_and_where_help_is(make_project, run, args, where, named):
    """Click's usage errors are said as every other error is (``where: error: ...``, at
    the option or argument they are about, else at the command), with no usage text, then
    where the command's help is; the words are click's."""
    project = make_project()
    before = project.snapshot()
    result = run(project, *args)
    assert (result.exit_code, result.stdout) == (2, "")
    first, last = result.stderr.splitlines()
    assert first.startswith(f"{where}: error: ") and named in first
    assert not first.endswith(".") and "Usage:" not in result.stderr
    command = "docgen" if args[0] == "bogus" else f"docgen {args[0]}"
    assert last == f"Try '{command} --help' for help."
    assert project.snapshot() == before


def test_an_option_of_docgen_itself_after_the_command_says_where_it_goes(make_project, run):
    project = make_project()
    result = run(project, "check", "--registry", "other.yaml")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "--registry: error: --registry is an option of docgen itself: it goes before the "
        "command (docgen --registry ... check)",
        "Try 'docgen check --help' for help.",
    ]
    # An eager option does what it does whatever the command: click's words stand.
    eager = run(project, "check", "--version").stderr.splitlines()[0]
    assert eager.startswith("--version: error: ") and "before the command" not in eager


def test_a_usage_error_quoting_a_line_break_stays_one_line(make_project, run):
    """What was typed is quoted escaped: a newline in it cannot forge a second located
    line (``file.mdx:1: error: ...``)."""
    result = run(make_project(), "serve-command", "a", "b\nfile.mdx:1: error: fake")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 2
    assert "b\\nfile.mdx:1: error: fake" in result.stderr.splitlines()[0]
