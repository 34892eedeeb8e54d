"""The last line of defence: a bug in docgen (any exception that is not a user's error)
ends in one line on stderr and exit code 3, never 1 (drift) and never a bare traceback
unless ``--traceback`` asks for it; Ctrl-C is 130; usage errors, input errors and drift
keep their codes through the real entry point, ``docgen.cli.main``."""

from __future__ import annotations

import pytest

from docgen import cli
from docgen.registry import load

HINT = "; --traceback shows where"


def bug(exc: BaseException):
    def load_registry(*_args: object, **_kwargs: object) -> None:
        raise exc

    return load_registry


def main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stopped:
        cli.main(list(args))
    out, err = capsys.readouterr()
    code = stopped.value.code
    return (code if isinstance(code, int) else 1), out, err


@pytest.mark.parametrize(
    ("exc", "shown"),
    [
        (RuntimeError("boom"), "RuntimeError: boom"),
        (ValueError("two\nlines"), "ValueError: two lines"),
        (MemoryError(), "MemoryError"),
        (RecursionError("maximum recursion depth exceeded"), "RecursionError: maximum "
         "recursion depth exceeded"),
        (KeyError("x" * 1000), "KeyError: '" + "x" * 296 + "..."),
    ],
)  # fmt: skip
def test_a_bug_is_one_line_and_exit_3(make_project, capsys, monkeypatch, exc, shown):
    monkeypatch.setattr(load, "load_registry", bug(exc))
    code, out, err = main(capsys, "--root", str(make_project().root), "validate")
    assert (code, out) == (3, "")
    assert err.splitlines() == [
        f"docgen: internal error: {shown} (this is a bug in docgen; please report it with the "
        f"command you ran{HINT})"
    ]


@pytest.mark.parametrize("where", ["before", "after"])
def test_traceback_prints_the_traceback_then_the_line(make_project, capsys, monkeypatch, where):
    monkeypatch.setattr(load, "load_registry", bug(RuntimeError("boom")))
    root = ("--root", str(make_project().root))
    args = (
        (*root, "--traceback", "validate")
        if where == "before"
        else (*root, "validate", "--traceback")
    )
    code, _out, err = main(capsys, *args)
    lines = err.splitlines()
    assert code == 3
    assert lines[0] == "Traceback (most recent call last):"
    assert "RuntimeError: boom" in lines[-2]
    assert lines[-1] == (
        "docgen: internal error: RuntimeError: boom (this is a bug in docgen; please report it "
        "with the command you ran)"
    )


def test_ctrl_c_exits_130(make_project, capsys, monkeypatch):
    monkeypatch.setattr(load, "load_registry", bug(KeyboardInterrupt()))
    code, out, err = main(capsys, "--root", str(make_project().root), "validate")
    assert (code, out, err.strip()) == (130, "", "")


def test_input_errors_and_usage_errors_keep_exit_code_2(make_project, capsys):
    project = make_project(registry="schema: 1\n")
    code, out, err = main(capsys, "--root", str(project.root), "validate")
    assert (code, out) == (2, "")
    assert err.startswith("profiles.yaml:") and "internal error" not in err
    code, _out, err = main(capsys, "--no-such-option")
    assert code == 2 and err.startswith("--no-such-option: error: no such option")
    assert main(capsys, "--version")[0] == 0


def test_drift_is_still_exit_1(make_project, capsys):
    code, _out, err = main(capsys, "--root", str(make_project().root), "check")
    assert code == 1 and "internal error" not in err


def test_a_bug_met_while_an_error_is_reported_is_still_one_line_and_exit_3(capsys, monkeypatch):
    from docgen import usage_errors

    def broken(*_args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(usage_errors, "show_usage_error", broken)
    code, out, err = main(capsys, "--no-such-option")
    assert (code, out) == (3, "")
    assert err.splitlines() == [
        f"docgen: internal error: RuntimeError: boom (this is a bug in docgen; please report it "
        f"with the command you ran{HINT})"
    ]


def test_ctrl_c_while_an_error_is_reported_is_still_130_without_a_traceback(capsys, monkeypatch):
    """Ctrl-C can land while docgen loads what reports an error (its first import of the
    error module, at start-up): still exit 130, nothing on stderr."""
    from docgen import usage_errors

    def interrupted(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(usage_errors, "show_usage_error", interrupted)
    assert main(capsys, "--no-such-option") == (130, "", "")
