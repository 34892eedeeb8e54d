"""How docgen talks to a terminal: report lines on their streams, styled diffs, a progress
bar, and located errors on stderr with exit code 2."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from docgen.config import Project
    from docgen.report import Line

F = TypeVar("F", bound=Callable[..., Any])


class State:
    def __init__(self, root: Path, registry: str | None, quiet: bool, verbose: bool) -> None:
        self.root, self.registry, self.quiet, self.verbose = root, registry, quiet, verbose

    def project(self) -> Project:
        from docgen.config import load_project

        return load_project(self.root, self.registry)

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
    """A diff line styled for a terminal (click drops the colour when piped)."""
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
            for problem in exc.problems:
                click.echo(str(problem), err=True)
            sys.exit(exc.exit_code)

    return wrapper  # type: ignore[return-value]


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
