"""Usage errors (an unknown option or command, a missing or bad value) said as docgen says
every error: located at the option, argument or command they are about, in click's words,
then where the command's help is; the same however the command group runs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from docgen.terminal import show_problems


class _NamedUsage:
    """Where click makes a command's context from its arguments, a usage error names the
    command (click's parser raises some without their context)."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        path = f"{parent.command_path} {info_name}" if parent is not None else info_name
        with _usage_shown(path):
            return super().make_context(info_name, args, parent, **extra)  # type: ignore[misc,no-any-return]


class Subcommand(_NamedUsage, click.Command):
    """A docgen command, whose usage errors name it."""


class Commands(_NamedUsage, click.Group):
    """docgen's command group: a usage error, however the group runs (``docgen.cli.main``
    or click's standalone mode), is shown by ``show_usage_error``."""

    command_class = Subcommand

    def invoke(self, ctx: click.Context) -> Any:
        with _usage_shown(ctx.command_path):
            return super().invoke(ctx)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """A command name it does not know names the closest it has, as docgen suggests
        any name (click's words for it differ from one version to the next)."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            from docgen.errors import did_you_mean

            close = did_you_mean(name, self.list_commands(ctx))
            raise click.UsageError(f"no such command '{name}'{close}", ctx)
        return super().resolve_command(ctx, args)


class UsageShown(click.UsageError):
    """A usage error of ``command`` that shows itself as docgen shows errors."""

    def __init__(self, error: click.UsageError, command: str | None) -> None:
        super().__init__(error.message, error.ctx)
        self.error, self.command = error, command

    def show(self, file: Any = None) -> None:
        show_usage_error(self.error, self.command)


@contextmanager
def _usage_shown(command: str | None) -> Iterator[None]:
    try:
        yield
    except UsageShown:
        raise
    except click.UsageError as exc:
        raise UsageShown(exc, command) from None


def show_usage_error(exc: click.UsageError, command: str | None = None) -> None:
    """``exc`` located at the option or argument it is about (else at the command), then
    where the command's help is: ``--format: error: invalid value for '--format': ...``.
    The words are click's; they quote what was typed, so they are shielded as located
    lines are. An option of docgen itself given after a command's name says where it goes
    instead."""
    from docgen.errors import DocgenError, Location, Problem, one_line

    command = exc.ctx.command_path if exc.ctx is not None else command or "docgen"
    param = getattr(exc, "param", None)  # a bad or missing value: the option or argument
    name = getattr(exc, "option_name", None)
    if isinstance(param, click.Option) and param.opts:
        where = param.opts[0]
    elif param is not None:
        where = param.human_readable_name
    else:  # an unknown option, or one without its value, is named; else the command
        where = name or command
    message = one_line(_before_the_command(exc, name, command) or _words(exc))
    show_problems(DocgenError(Problem(message, Location(where))))
    click.echo(f"Try '{command} --help' for help.", err=True)


def _words(exc: click.UsageError) -> str:
    """Click's message as a docgen message: lower case first, no final period; an unknown
    option with the closest the command takes, as docgen suggests any name."""
    if isinstance(exc, click.NoSuchOption) and exc.ctx is not None:
        from docgen.errors import did_you_mean

        taken = [o for p in exc.ctx.command.get_params(exc.ctx) for o in p.opts if o[:2] == "--"]
        name = exc.option_name
        return f"no such option '{name}'{did_you_mean(name.lower(), taken)}"  # --ROOT too
    message = exc.format_message().strip().rstrip(".").replace(". Did you mean", "; did you mean")
    return message[:1].lower() + message[1:]


def _before_the_command(exc: click.UsageError, name: str | None, command: str) -> str | None:
    """Where an option of docgen itself (``--registry``) goes, when it was given after a
    command's name, which does not take it; None for any other error, and for an eager
    option (``--version``, ``--help``: what it does ignores any command)."""
    root = exc.ctx.find_root() if exc.ctx is not None and exc.ctx.parent is not None else None
    if not name or root is None:
        return None
    owner = next((p for p in root.command.params if name in p.opts), None)
    if not isinstance(owner, click.Option) or owner.is_eager:
        return None
    where = f"{root.command_path} {name} ... {command.rsplit(' ', 1)[-1]}"
    return (
        f"{name} is an option of {root.command_path} itself: it goes before the command ({where})"
    )


def one_base(since: str | None, since_file: str | None) -> None:
    """Refuse, as a usage error of the command, neither or both of ``--since`` and
    ``--since-file`` (``diff``, ``changelog``)."""
    if (since is None) == (since_file is None):
        raise click.UsageError("give exactly one of --since REF and --since-file FILE")
