"""How docgen talks to a terminal: report lines on their streams, styled diffs, a progress
bar, located errors on stderr with exit code 2, and the last line of defence against a bug
(one line and exit code 3)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from docgen.config import Project
    from docgen.errors import DocgenError
    from docgen.report import Line

F = TypeVar("F", bound=Callable[..., Any])


class State:
    """The global options of one run; ``main`` makes it first, the group fills it in."""

    def __init__(
        self,
        root: Path = Path("."),
        registry: str | None = None,
        quiet: bool = False,
        verbose: bool = False,
        traceback: bool = False,
    ) -> None:
        self.root, self.registry, self.quiet, self.verbose = root, registry, quiet, verbose
        self.traceback = traceback
        self.root_given = False  # the root is settled: given (--root), or searched for once
        self.found_above = False  # the project was found above the folder docgen runs in
        self._here: str | None = None  # the folder docgen runs in, once asked

    def project(self) -> Project:
        """The project at ``--root``; without it, the nearest from here upward (run from
        ``docs/``, the project is the folder above)."""
        from docgen.config import load_project
        from docgen.discovery import find_project

        if not self.root_given:
            found = find_project(self.root, self.registry)
            self.found_above, self.root, self.root_given = found != self.root, found, True
        return load_project(self.root, self.registry)

    def given_file(self, path: str | None) -> str | None:
        """A file named on the command line (``--since-file``), for the project: relative
        to its root as given, unless the project was found above the folder docgen runs
        in, where it is a path from that folder (made absolute)."""
        if path and self.found_above and path != "-" and not os.path.isabs(path):
            return os.path.abspath(path)
        return path

    def shown(self, path: str) -> str:
        """A path from the project root as seen from the folder docgen runs in, when it
        found the project above that folder (``../profiles.yaml`` from ``docs/``); as it
        is from the root otherwise (there, or named by ``--root``, as ``git -C``), and for
        a location that names no file (an option, a command, a file at a revision)."""
        from docgen.errors import names_file

        if not self.found_above or os.path.isabs(path) or not names_file(path, Path(self.root)):
            return path
        if self._here is None:
            try:
                self._here = os.getcwd()
            except OSError:  # the current folder was deleted
                self._here = ""
        if not self._here:
            return path
        return os.path.relpath(os.path.join(os.path.abspath(self.root), path), self._here)

    def say(self, message: str) -> None:
        if not self.quiet:
            click.echo(message)

    def print(self, lines: Iterable[Line]) -> None:
        """Report lines on their channels: ``info`` is left out by ``-q``, ``diff`` is
        styled on a terminal, ``err`` goes to stderr."""
        for text, channel in lines:
            if channel == "info":
                self.say(text)
            else:
                click.echo(styled(text) if channel == "diff" else text, err=channel == "err")


def styled(line: str) -> str:
    """A diff line styled for a terminal (click drops the colour when piped; none at all
    with ``NO_COLOR`` set, or on a ``TERM=dumb`` terminal)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return line
    for prefix, style in (("+++", {"bold": True}), ("---", {"bold": True}), ("+", {"fg": "green"})):
        if line.startswith(prefix):
            return click.style(line, **style)
    if line.startswith("-"):
        return click.style(line, fg="red")
    return click.style(line, fg="cyan") if line.startswith("@@") else line


def user_errors(func: F) -> F:
    """Turn any DocgenError into its located lines on stderr and exit code 2."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from docgen.errors import DocgenError

        try:
            return func(*args, **kwargs)
        except DocgenError as exc:
            show_problems(exc)
            sys.exit(exc.exit_code)

    return wrapper  # type: ignore[return-value]


def show_problems(exc: DocgenError) -> None:
    """Each located line of ``exc`` on stderr; they quote inputs, so in GitHub Actions
    they are ``shielded`` from being read as workflow commands."""
    from docgen.report import Line, shielded

    for text, _channel in shielded([Line(str(problem), "err") for problem in exc.problems]):
        click.echo(text, err=True)


#: The exit code of a bug in docgen (1 means drift, 2 an input to fix).
INTERNAL_ERROR = 3
#: The exit code of a run stopped with Ctrl-C, as shells report SIGINT.
INTERRUPTED = 130  # as ``docgen.console`` ends one stopped while loading
#: Longest exception message an internal-error line repeats.
_MESSAGE_CHARS = 300


def guarded(run: Callable[[], object], state: State) -> int:
    """Run the command line (click in non-standalone mode) and return its exit code.

    Usage errors keep click's exit code 2, Ctrl-C is 130, a DocgenError that escaped a
    command is its located lines and 2, and anything else is a bug: one line on stderr
    and exit code 3 (the traceback too with ``--traceback``), also one met while an error
    is reported. ``SystemExit`` passes.
    """
    try:
        return _exit_code(run)
    except KeyboardInterrupt:  # while docgen loads what reports an error, say
        return INTERRUPTED
    except Exception as exc:  # noqa: BLE001 - the edge: every bug ends in one line
        return internal_error(exc, state.traceback)


def _exit_code(run: Callable[[], object]) -> int:
    from docgen.errors import DocgenError

    try:
        code = run()
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except (click.Abort, KeyboardInterrupt):
        return INTERRUPTED
    except DocgenError as exc:
        show_problems(exc)
        return exc.exit_code
    return code if isinstance(code, int) else 0


def internal_error(exc: BaseException, show_traceback: bool = False) -> int:
    """Report a bug in docgen on stderr in one line (plus the traceback if asked for)."""
    import traceback

    from docgen.errors import one_line

    if show_traceback:
        click.echo("".join(traceback.format_exception(exc)).rstrip("\n"), err=True)
    text = one_line(" ".join(str(exc).split()))
    if len(text) > _MESSAGE_CHARS:
        text = text[: _MESSAGE_CHARS - 3] + "..."
    what = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    hint = "" if show_traceback else "; --traceback shows where"
    click.echo(
        f"docgen: internal error: {what} (this is a bug in docgen; please report it "
        f"with the command you ran{hint})",
        err=True,
    )
    return INTERNAL_ERROR


def progress_bar(state: State) -> Callable[[int, int], None] | None:
    """A progress bar on stderr for long writes, only when it is a terminal."""
    if state.quiet or not sys.stderr.isatty():
        return None
    bar: Any = None

    def step(done: int, total: int) -> None:
        nonlocal bar
        if total < 50:
            return
        if bar is None:
            bar = click.progressbar(length=total, label="writing", file=sys.stderr)
        bar.update(done - bar.pos)
        if done >= total:
            bar.render_finish()

    return step


def notify(message: str) -> None:
    click.echo(message, err=True)


def flag_setter(name: str) -> Callable[[click.Context, click.Parameter, bool], None]:
    """A click callback that sets the state's ``name`` flag (``-q``/``-v`` after a command)."""

    def set_flag(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
        if value:
            setattr(ctx.find_object(State), name, True)

    return set_flag


#: ``-v`` help of a command that has nothing more to say.
NOTHING_MORE = "Accepted as everywhere; this command has nothing more to print."


def json_text(value: Any, indent: int | None = None) -> str:
    """``value`` as JSON this console shows as it is: characters beyond ASCII escaped where
    it cannot write them all (a latin-1 console; a ``\\U`` escape is no JSON), and never a
    raw control or bidirectional character (see ``printable_json``)."""
    import codecs
    import json

    from docgen.errors import printable_json, without_surrogates

    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    utf = codecs.lookup(encoding).name in ("utf-8", "utf-16", "utf-32")
    text = json.dumps(without_surrogates(value), indent=indent, ensure_ascii=not utf)
    return printable_json(text)
