"""Command line: each command parses its options, makes one core call and prints the result.

Exit codes: 0 success or in sync; 1 ``check`` found drift; 2 an input must be
fixed (printed as ``path:line:col: error: message``, never a traceback); 3 a bug in
docgen (one line; ``--traceback`` prints the traceback too); 130 interrupted.
"""

from __future__ import annotations

import datetime
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from docgen.terminal import (
    NOTHING_MORE,
    State,
    flag_setter,
    guarded,
    json_text,
    notify,
    progress_bar,
    show_problems,
    user_errors,
)
from docgen.usage_errors import Commands, one_base

#: Help of ``--traceback``, before or after the command name.
TRACEBACK = "On an internal error (a bug in docgen), also print the Python traceback."


#: The project root: ``--root`` before or after the command's name.
ROOT = click.Path(file_okay=False, path_type=Path)
ROOT_HELP = (
    "Project root (holds profiles.yaml and templates/); before or after the command. "
    "[default: the nearest project from the current folder upward]"
)
INIT_ROOT_HELP = "The folder DIRECTORY is taken from; before or after the command. [default: .]"


def _root_setter(ctx: click.Context, _param: click.Parameter, value: Path | None) -> None:
    if value is not None:
        state = ctx.ensure_object(State)
        state.root, state.root_given = value, True


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="vllm-profile-docgen")
@click.option("--root", type=ROOT, default=".", help=ROOT_HELP)
@click.option(
    "--registry",
    metavar="FILE",
    help="Registry file, relative to the root [default: the 'registry' setting in "
    "docgen.toml or [tool.docgen], else profiles.yaml].",
)
@click.option("-q", "--quiet", is_flag=True, help="Print only errors and drift.")
@click.option(
    "-v", "--verbose", is_flag=True, help="Say more (build and check: also list unchanged files)."
)
@click.option("--traceback", "show_traceback", is_flag=True, help=TRACEBACK)
@click.pass_context
def cli(
    ctx: click.Context,
    root: Path,
    registry: str | None,
    quiet: bool,
    verbose: bool,
    show_traceback: bool,
) -> None:
    """Generate and check vLLM serving-profile docs from one YAML registry."""
    state = ctx.ensure_object(State)
    state.root, state.registry, state.quiet, state.verbose = root, registry, quiet, verbose
    state.traceback = show_traceback
    state.root_given = ctx.get_parameter_source("root") is not ParameterSource.DEFAULT
    from docgen.errors import paths_shown

    ctx.with_resource(paths_shown(state.shown))  # each path printed from the current folder


def command(
    *names: str,
    quiet: str = "Print only errors.",
    verbose: str = NOTHING_MORE,
    root_help: str = ROOT_HELP,
) -> Callable[[Callable[..., None]], click.Command]:
    """A subcommand that takes the state, turns DocgenErrors into exit 2, and accepts
    ``-q``/``-v``/``--traceback`` after its name too (``docgen build -q``), with help
    saying what they do."""

    def decorate(func: Callable[..., None]) -> click.Command:
        wrapped = click.pass_obj(user_errors(func))
        flags = (("--traceback",), ("-v", "--verbose"), ("-q", "--quiet"))
        for flag, text in zip(flags, (TRACEBACK, verbose, quiet), strict=True):
            option = click.option(
                *flag, is_flag=True, expose_value=False, help=text,
                callback=flag_setter(flag[-1][2:]),
            )  # fmt: skip
            wrapped = option(wrapped)
        # After the name too: a pre-commit hook's args follow its entry (`docgen check -q`).
        root = click.option(
            "--root", type=ROOT, expose_value=False, callback=_root_setter, help=root_help
        )
        return cli.command(*names, short_help=_summary(func.__doc__ or ""))(root(wrapped))

    return decorate


def _summary(doc: str) -> str:
    """A command's one-line summary in ``docgen --help``: its docstring's first clause
    (click would cut the sentence at 45 characters, mid-word)."""
    text = " ".join(doc.split())
    ends = [i for i in (text.find(mark) for mark in ("; ", ". ", " (", ": ")) if i > 0]
    return (text[: min(ends)] if ends else text).rstrip(".") + "."


def base_options(func: Callable[..., None]) -> Any:
    """``--since REF`` and ``--since-file FILE``: exactly one names the older registry."""
    ref = "The older registry is the one at git revision REF (this or --since-file)."
    given = (
        "The older registry is this file (this or --since); '-' reads it from standard "
        "input, as git show REV:profiles.yaml gives it through a pipe."
    )
    with_file = click.option("--since-file", metavar="FILE", help=given)(func)
    return click.option("--since", metavar="REF", help=ref)(with_file)


def format_option(*formats: str, help: str) -> Callable[[Callable[..., None]], Any]:  # noqa: A002
    """``--format`` among ``formats`` (the first the default), passed as ``fmt``."""
    choice = click.Choice(list(formats))
    return click.option(
        "--format", "fmt", type=choice, default=formats[0], show_default=True, help=help
    )


@command(quiet="Print only errors and drift.", verbose="Also list unchanged files.")
@click.option("--dry-run", is_flag=True, help="List what would change; write nothing.")
def build(state: State, dry_run: bool) -> None:
    """Render every output and write the ones that changed; prune stale generated files
    (exit 1 when a changelog entry breaks a history rule, as `check`)."""
    from docgen.report import Line, build_lines
    from docgen.verbs.build import build as build_verb

    built = build_verb(state.project(), dry_run, progress=progress_bar(state), notify=notify)
    state.print(build_lines(built, state.verbose))
    state.print(Line(str(finding), "err") for finding in built.findings)
    if built.findings:
        sys.exit(1)


@command(quiet="Print only errors and drift.", verbose="Also list unchanged files.")
@format_option("text", "json", "github", help="Report format; github prints workflow annotations.")
@click.option(
    "--changelog-since",
    metavar="REF",
    help="Also fail when the registry changed "
    "semantically since git revision REF without a new changelog entry or note.",
)
def check(state: State, fmt: str, changelog_since: str | None) -> None:
    """Verify that every generated file matches the registry and that the changelog history
    is valid; write nothing (exit 1 on drift or a broken rule)."""
    from docgen import report
    from docgen.changes import Report
    from docgen.errors import DocgenError
    from docgen.verbs.build import check as check_verb

    try:
        today = datetime.date.today().isoformat()
        found, failed = check_verb(state.project(), changelog_since, today, notify), 0
    except DocgenError as exc:
        if fmt == "text":
            raise
        # An input to fix is reported in the format asked for, as findings (exit 2).
        found, failed = Report(findings=list(exc.problems)), exc.exit_code
        if fmt == "json":
            show_problems(exc)
    if fmt == "json":
        click.echo(json.dumps(report.check_json(found, state.root), indent=2))
    elif fmt == "github":
        state.print(report.check_github(found, state.root))
    else:
        state.print(report.check_text(found, state.verbose))
    sys.exit(failed or (0 if found.in_sync else 1))


@command()
def validate(state: State) -> None:
    """Load and validate the registry only."""
    from docgen.registry.load import load_registry

    reg = load_registry(state.project())
    held = (len(reg.profiles), len(reg.models), len(reg.hosts), len(reg.agents))
    words = ("profile", "model", "host", "agent")
    said = ", ".join(
        f"{n} {word}{'' if n == 1 else 's'}" for n, word in zip(held, words, strict=True)
    )
    state.say(f"{state.shown(reg.path)}: ok ({said})")


@command(quiet="Accepted as everywhere; the schema is printed either way.")
def schema(state: State) -> None:
    """Print the registry's JSON Schema (for editors and other validators)."""
    from docgen.registry.schema import schema_text

    click.echo(schema_text(), nl=False)


@command("serve-command", quiet="Accepted as everywhere; the command is printed either way.")
@click.argument("profile")
@click.option("--override", "override_name", metavar="NAME", help="Apply a named override.")
@click.option(
    "--extra-args-json",
    metavar="JSON",
    help="Extra argv tokens, a JSON array "
    "of strings, appended last (like the product's extra-args variable).",
)
@format_option(
    "shell", "json", help="shell: one command line; json: the steps before it, its environment "
    "and its argv."
)  # fmt: skip
def serve_command(
    state: State, profile: str, override_name: str | None, extra_args_json: str | None, fmt: str
) -> None:
    """Print the effective `vllm serve` command of PROFILE: the launcher's steps before
    it, its environment, and the argv (the launcher's shared args come first)."""
    from docgen.verbs.serve_command import effective_command

    command = effective_command(state.project(), profile, override_name, extra_args_json)
    if fmt == "json":
        shape = {"before": [list(s) for s in command.steps], "env": dict(command.env)}
        click.echo(json_text({**shape, "argv": command.argv}))
    else:
        click.echo(command.shell(multiline=False))


@command("verify-vllm", verbose="Also list every command that parsed.")
@click.option(
    "--venv",
    type=click.Path(file_okay=False, path_type=Path),
    help="The vLLM environment [default: $DOCGEN_VLLM_VENV or .cache/vllm-0.34.0 in the root].",
)
@click.option("--setup", is_flag=True, help="Create the vLLM environment first, or reuse it.")
def verify_vllm(state: State, venv: Path | None, setup: bool) -> None:
    """Parse every `vllm serve` command the docs show with vLLM's own parser (exit 1 on a
    rejection, 2 when the vLLM environment is missing)."""
    from docgen.integrations.vllm_verify import report_lines, verify_vllm

    found = verify_vllm(state.project(), venv, setup, state.say)
    for line in report_lines(found, verbose=state.verbose):
        state.say(line) if found.ok else click.echo(line)
    sys.exit(0 if found.ok else 1)


@command("diff", quiet="Print only the changes, not their count.")
@base_options
@format_option(
    "text", "json", help="text: one located line per change; json: every change's fields."
)
def diff(state: State, since: str | None, since_file: str | None, fmt: str) -> None:
    """Print the semantic difference between an older registry state and the current one."""
    from docgen.changelog.changes import counted
    from docgen.verbs.releases import changes_since

    one_base(since, since_file)
    project = state.project()
    _registry, changes = changes_since(project, since, state.given_file(since_file))
    if fmt == "json":
        payload = {"version": 1, "changes": [c.as_json() for c in changes]}
        click.echo(json_text(payload, indent=2))
        return
    for change in changes:
        click.echo(str(change))
    state.say(counted(changes))


@command("changelog", quiet="Print only errors (and the section with --dry-run).")
@click.option("--version", "version", required=True, metavar="vX.Y.Z", help="The release.")
@base_options
@click.option("--date", metavar="YYYY-MM-DD", help="Release date [default: today].")
@click.option("--summary", metavar="TEXT", help="Summary sentence after 'PRODUCT vX.Y.Z'.")
@click.option("--dry-run", is_flag=True, help="Print the new section; write nothing.")
def changelog(state: State, dry_run: bool, **options: Any) -> None:
    """Write the dated changelog entry for a release from the registry's semantic diff.

    A first release has no older registry to compare with: commit the registry, write
    what the release brings in a note (changelog.d/*.md), and run with --since HEAD."""
    from docgen.errors import printable
    from docgen.report import written_line
    from docgen.verbs.releases import write_changelog

    one_base(options["since"], options["since_file"])
    project = state.project()
    options["since_file"] = state.given_file(options["since_file"])
    written = write_changelog(project, dry_run=dry_run, notify=notify, **options)
    if dry_run:  # the section alone on stdout: its notes and warnings go to stderr
        click.echo(printable(written.section), nl=False)  # notes are untrusted text
    else:
        state.say(f"write {state.shown(written.path)} ({written.version})")
        state.print(written_line(status, path) for status, path in written.refreshed)
        for fragment in written.fragments:
            state.say(f"merged and removed {fragment.name}")
    for hint in () if state.quiet else written.hints:
        click.echo(hint, err=dry_run)


@command("release-notes", quiet="Print only the notes and errors, no warnings.")
@click.argument("version")
@click.option(
    "--site-url", metavar="URL", help="Prefix for root-absolute links [default: product.site_url]."
)
def release_notes(state: State, version: str, site_url: str | None) -> None:
    """Print one release's section as plain Markdown for a release body (VERSION: vX.Y.Z)."""
    from docgen.errors import ConfigError, Location, printable
    from docgen.registry.rules import site_url_problem
    from docgen.verbs.releases import release_notes as notes_for

    problem = site_url_problem(site_url) if site_url else None
    if problem is not None:
        raise ConfigError.at(Location("--site-url"), f"the site URL {problem}")
    notes, warning = notes_for(state.project(), version, site_url)
    if warning is not None and not state.quiet:
        click.echo(str(warning), err=True)
    click.echo(printable(notes), nl=False)  # an entry's text is untrusted: no raw controls


@command("init", root_help=INIT_ROOT_HELP)
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
def init(state: State, directory: Path | None) -> None:
    """Scaffold a working project in DIRECTORY (from --root, else the current folder;
    default: that folder) and build it: a registry, a page template, mkdocs.yml with
    site_extra/, changelog/ and changelog.d/, a .gitignore unless the folder has one. A
    folder that holds a project is refused (exit 2); nothing there is overwritten."""
    from docgen.verbs import init as scaffold

    target = state.root / directory if directory is not None else state.root  # as --registry
    for line in scaffold.said(target, scaffold.init(target)):
        state.say(line)


def main(args: list[str] | None = None) -> None:
    """The ``docgen`` command: exit 0, 1 (drift), 2 (an input to fix) or 3 (a bug)."""
    state = State()
    sys.exit(
        guarded(lambda: cli.main(args, prog_name="docgen", standalone_mode=False, obj=state), state)
    )
