"""Command line: thin click commands that call one core function, print, and exit.

Exit codes: 0 success or in sync; 1 ``check`` found drift; 2 an input must be
fixed (printed as ``path:line:col: error: message``, never a traceback).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from docgen.config import Project
    from docgen.sync import Change, Report

F = TypeVar("F", bound=Callable[..., Any])


class State:
    def __init__(self, root: Path, registry: str | None, quiet: bool, verbose: bool) -> None:
        self.root = root
        self.registry = registry
        self.quiet = quiet
        self.verbose = verbose

    def project(self) -> Project:
        from docgen.config import load_project

        return load_project(self.root, self.registry)

    def say(self, message: str) -> None:
        if not self.quiet:
            click.echo(message)


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="vllm-profile-docgen")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="Project root (holds profiles.yaml and templates/).",
)
@click.option(
    "--registry",
    metavar="FILE",
    help="Registry file, relative to the root [default: profiles.yaml or [tool.docgen] registry].",
)
@click.option("-q", "--quiet", is_flag=True, help="Print only errors and drift.")
@click.option(
    "-v", "--verbose", is_flag=True, help="Say more (build and check: also list unchanged files)."
)
@click.pass_context
def cli(ctx: click.Context, root: Path, registry: str | None, quiet: bool, verbose: bool) -> None:
    """Generate and check vLLM serving-profile docs from one YAML registry."""
    ctx.obj = State(root, registry, quiet, verbose)


pass_state = click.make_pass_decorator(State)


def _set_quiet(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.find_object(State).quiet = True  # type: ignore[union-attr]


def _set_verbose(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.find_object(State).verbose = True  # type: ignore[union-attr]


#: ``-v`` help of a command that has nothing more to say.
NOTHING_MORE = "Accepted as everywhere; this command has nothing more to print."


def output_options_for(quiet: str, verbose: str) -> Callable[[F], F]:
    """``-q``/``-v`` accepted after the command name too (``docgen build -q``), with help
    that says what they do for this command."""

    def decorate(func: F) -> F:
        func = click.option(
            "-q", "--quiet", is_flag=True, expose_value=False, callback=_set_quiet, help=quiet
        )(func)
        return click.option(
            "-v", "--verbose", is_flag=True, expose_value=False, callback=_set_verbose, help=verbose
        )(func)

    return decorate


output_options = output_options_for("Print only errors and drift.", "Also list unchanged files.")


@cli.command()
@click.option("--dry-run", is_flag=True, help="List what would change; write nothing.")
@output_options
@pass_state
@user_errors
def build(state: State, dry_run: bool) -> None:
    """Render every output and write the ones that changed; prune stale generated files."""
    from docgen import sync
    from docgen.cache import cached_plan, remember
    from docgen.plan import plan

    project = state.project()
    with sync.build_lock(project, notify=lambda m: click.echo(m, err=True)):
        the_plan, digest = cached_plan(project)
        report = sync.compare(project, the_plan)
        if not report.in_sync and not the_plan.complete:  # drift: render what to write
            the_plan = plan(project)
            report = sync.compare(project, the_plan)
        changed = report.of(sync.NEW, sync.CHANGED, sync.STALE)
        if not dry_run:
            sync.apply(project, report, progress=_progress(state, len(changed)))
            remember(project, digest, the_plan)
    verb = "would " if dry_run else ""
    for change in report.changes:
        if change.status != sync.UNCHANGED or state.verbose:
            state.say(f"{verb}{_BUILD_WORDS[change.status]} {change.path}")
    unchanged = len(report.changes) - len(changed)
    state.say(f"{verb}{_summary(report, unchanged)}")


def _progress(state: State, total: int) -> Callable[[int], None] | None:
    """A progress bar on stderr for long writes, only when it is a terminal."""
    if state.quiet or total < 50 or not sys.stderr.isatty():
        return None
    bar = click.progressbar(length=total, label="writing", file=sys.stderr)
    shown = 0

    def step(done: int) -> None:
        nonlocal shown
        if done > shown:
            bar.update(done - shown)
            shown = done
            if done >= total:
                bar.render_finish()

    return step


_BUILD_WORDS = {"new": "write", "changed": "update", "stale": "delete", "unchanged": "keep"}


def _summary(report: Report, unchanged: int) -> str:
    n = {s: len(report.of(s)) for s in ("new", "changed", "stale")}
    return f"{n['new']} written, {n['changed']} updated, {n['stale']} pruned, {unchanged} unchanged"


@cli.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="Report format; github prints workflow annotations.",
)
@click.option(
    "--changelog-since",
    metavar="REF",
    help="Also fail when the registry changed "
    "semantically since git revision REF without a new changelog entry or note.",
)
@output_options
@pass_state
@user_errors
def check(state: State, fmt: str, changelog_since: str | None) -> None:
    """Verify that every generated file matches the registry and that the changelog history
    is valid; write nothing (exit 1 on drift or a broken rule)."""
    from docgen import plan, sync
    from docgen.cache import cached_plan
    from docgen.verbs import releases

    project = state.project()
    the_plan, _digest = cached_plan(project)
    report = sync.compare(project, the_plan)
    if not report.in_sync and not the_plan.complete:  # drift: re-plan to name its sources
        the_plan = plan.plan(project)
        report = sync.compare(project, the_plan)
    report.findings += releases.history_problems(project, the_plan)
    if changelog_since:
        report.findings += releases.changelog_gate(project, changelog_since)
    {"text": _check_text, "json": _check_json, "github": _check_github}[fmt](state, report)
    sys.exit(0 if report.in_sync else 1)


def _drift_line(change: Change) -> int:
    """First line of the file on disk that differs from what docgen would write."""
    old = (change.old or "").splitlines()
    new = change.output.text.splitlines() if change.output else []
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a != b:
            return number
    return min(len(old), len(new)) + 1


def _check_text(state: State, report: Report) -> None:
    from docgen.sync import causes

    for finding in report.findings:
        click.echo(str(finding))
    drifted = report.of("new", "changed", "stale")
    for change in drifted:
        line = _drift_line(change) if change.status == "changed" else 1
        click.echo(f"{change.path}:{line}:1: error: {change.why}")
        if change.status == "changed":
            for text in change.diff().splitlines():
                click.echo(_coloured(text))
            for source in change.behind():
                click.echo(f"  {change.behind_label} behind it: {source}")
    if state.verbose:
        for change in report.of("unchanged"):
            state.say(f"{change.path}: in sync")
    if report.in_sync:
        state.say(f"{len(report.changes)} generated files match the registry")
    elif drifted:
        click.echo(f"docs are out of sync with {causes(drifted)}: run `docgen build`", err=True)


def _coloured(line: str) -> str:
    """A diff line styled for a terminal (click drops the colour when piped)."""
    if line.startswith(("+++", "---")):
        return click.style(line, bold=True)
    if line.startswith("+"):
        return click.style(line, fg="green")
    if line.startswith("-"):
        return click.style(line, fg="red")
    if line.startswith("@@"):
        return click.style(line, fg="cyan")
    return line


def check_json(report: Report) -> dict[str, Any]:
    """The stable ``check --format json`` shape (version 1)."""
    files = []
    for change in report.changes:
        item: dict[str, Any] = {"path": change.path, "status": change.status}
        if change.status == "changed":
            item["line"] = _drift_line(change)
            item["diff"] = change.diff()
            item["sources"] = [
                {
                    "key": s.name,
                    "file": s.location.path,
                    "line": s.location.line,
                    "column": s.location.col,
                }
                for s in change.behind()
            ]
        files.append(item)
    findings = [
        {
            "file": f.location.path if f.location else None,
            "line": f.location.line if f.location else None,
            "message": f.message,
        }
        for f in report.findings
    ]
    return {"version": 1, "in_sync": report.in_sync, "files": files, "findings": findings}


def _check_json(state: State, report: Report) -> None:
    click.echo(json.dumps(check_json(report), indent=2))


def _check_github(state: State, report: Report) -> None:
    """Workflow commands: an error per finding, per drifted file and per distinct registry
    (or changelog) location behind the drift, a summary notice, then each drifted file's
    diff in a collapsed group of the log."""
    from docgen.sync import causes

    for finding in report.findings:
        loc = finding.location
        if loc is None:
            click.echo(_annotation(finding.message))
        else:
            click.echo(_annotation(finding.message, loc.path, loc.line or 1, loc.col))
    drifted = report.of("new", "changed", "stale")
    behind: dict[tuple[str, int, int], tuple[str, list[str]]] = {}
    for change in drifted:
        line = _drift_line(change) if change.status == "changed" else 1
        click.echo(_annotation(change.why, change.path, line))
        for source in change.behind():
            loc = source.location
            behind.setdefault((loc.path, loc.line, loc.col), (source.name, []))[1].append(
                change.path
            )
    for (path, line, col), (name, paths) in behind.items():
        more = len(paths) - 1
        others = f" and {more} other generated file{'s' if more > 1 else ''}" if more else ""
        click.echo(
            _annotation(
                f"{name} changed; run docgen build to update {paths[0]}{others}", path, line, col
            )
        )
    if drifted:  # a notice: GitHub shows 10 errors per step, and notices besides
        n = len(drifted)
        summary = f"{n} generated file{'s are' if n > 1 else ' is'} out of sync with "
        click.echo(_annotation(f"{summary}{causes(drifted)}; run docgen build", level="notice"))
    for change in drifted:
        diff = change.diff()
        click.echo(f"::group::{_escape_data(change.path)}")
        click.echo(diff if diff.endswith("\n") or not diff else f"{diff}\n", nl=False)
        click.echo("::endgroup::")


def _annotation(
    message: str,
    file: str | None = None,
    line: int | None = None,
    col: int | None = None,
    level: str = "error",
) -> str:
    """One ``::error`` (or ``::notice``) workflow command, properties and message escaped."""
    props = ",".join(
        f"{key}={_escape_property(str(value))}"
        for key, value in (("file", file), ("line", line), ("col", col))
        if value
    )
    return f"::{level}{' ' if props else ''}{props}::{_escape_data(message)}"


def _escape_data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped as GitHub reads them."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """A workflow command's property value: as a message, plus ``:`` and ``,``."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


@cli.command()
@output_options_for("Print only errors.", NOTHING_MORE)
@pass_state
@user_errors
def validate(state: State) -> None:
    """Load and validate the registry only."""
    from docgen.registry.load import load_registry

    reg = load_registry(state.project())
    state.say(
        f"{reg.path}: ok ({len(reg.profiles)} profiles, {len(reg.models)} models, "
        f"{len(reg.hosts)} hosts, {len(reg.agents)} agents)"
    )


@cli.command()
@output_options_for("Accepted as everywhere; the schema is printed either way.", NOTHING_MORE)
def schema() -> None:
    """Print the registry's JSON Schema (for editors and other validators)."""
    from docgen.registry.schema import schema_text

    click.echo(schema_text(), nl=False)


@cli.command("serve-command")
@click.argument("profile")
@click.option("--override", "override_name", metavar="NAME", help="Apply a named override.")
@click.option(
    "--extra-args-json",
    metavar="JSON",
    help="Extra argv tokens, a JSON array "
    "of strings, appended last (like the product's extra-args variable).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["shell", "json"]), default="shell", show_default=True
)
@output_options_for("Accepted as everywhere; the command is printed either way.", NOTHING_MORE)
@pass_state
@user_errors
def serve_command_cmd(
    state: State, profile: str, override_name: str | None, extra_args_json: str | None, fmt: str
) -> None:
    """Print the effective `vllm serve` command of PROFILE."""
    from docgen.verbs.serve_command import effective_command

    command = effective_command(state.project(), profile, override_name, extra_args_json)
    if fmt == "json":
        click.echo(json.dumps({"argv": command.argv}, ensure_ascii=False))
    else:
        click.echo(command.shell(multiline=False))


@cli.command("verify-vllm")
@click.option(
    "--venv",
    type=click.Path(file_okay=False, path_type=Path),
    help="The vLLM environment [default: $DOCGEN_VLLM_VENV or .cache/vllm-0.34.0 in the root].",
)
@click.option("--setup", is_flag=True, help="Create the vLLM environment first, or reuse it.")
@output_options_for("Print only errors.", "Also list every command that parsed.")
@pass_state
@user_errors
def verify_vllm_cmd(state: State, venv: Path | None, setup: bool) -> None:
    """Parse every `vllm serve` command the docs show with vLLM's own parser (exit 1 on a
    rejection, 2 when the vLLM environment is missing)."""
    from docgen.integrations.vllm_verify import report_lines, verify_vllm

    report = verify_vllm(state.project(), venv, setup, state.say)
    for line in report_lines(report, verbose=state.verbose):
        if report.ok:
            state.say(line)
        else:
            click.echo(line)
    sys.exit(0 if report.ok else 1)


@cli.command("diff")
@click.option("--since", metavar="REF", help="Compare with the registry at git revision REF.")
@click.option("--since-file", metavar="FILE", help="Compare with an older registry file.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@output_options_for("Print only the changes, not their count.", NOTHING_MORE)
@pass_state
@user_errors
def diff_cmd(state: State, since: str | None, since_file: str | None, fmt: str) -> None:
    """Print the semantic difference between an older registry state and the current one."""
    from docgen.changelog.diff import counted
    from docgen.verbs.releases import changes_since

    _registry, changes = changes_since(state.project(), since, since_file)
    if fmt == "json":
        payload = {"version": 1, "changes": [c.as_json() for c in changes]}
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    for change in changes:
        click.echo(str(change))
    state.say(counted(changes))


@cli.command("changelog")
@click.option("--version", "version", required=True, metavar="vX.Y.Z", help="The release.")
@click.option("--since", metavar="REF", help="The registry at git revision REF is the base.")
@click.option("--since-file", metavar="FILE", help="An older registry file is the base.")
@click.option("--date", metavar="YYYY-MM-DD", help="Release date [default: today].")
@click.option("--summary", metavar="TEXT", help="Summary sentence after 'PRODUCT vX.Y.Z'.")
@click.option("--dry-run", is_flag=True, help="Print the new section; write nothing.")
@output_options_for("Print only errors (and the section with --dry-run).", NOTHING_MORE)
@pass_state
@user_errors
def changelog_cmd(
    state: State,
    version: str,
    since: str | None,
    since_file: str | None,
    date: str | None,
    summary: str | None,
    dry_run: bool,
) -> None:
    """Write the dated changelog entry for a release from the registry's semantic diff."""
    import datetime

    from docgen.verbs.releases import write_changelog

    day = date or datetime.date.today().isoformat()
    written = write_changelog(
        state.project(),
        version,
        since,
        since_file,
        day,
        summary,
        dry_run,
        notify=lambda m: click.echo(m, err=True),
    )
    if dry_run:
        click.echo(written.section, nl=False)
        return
    state.say(f"write {written.path} ({version})")
    for status, path in written.refreshed:
        state.say(f"{_BUILD_WORDS[status]} {path}")
    for fragment in written.fragments:
        state.say(f"merged and removed {fragment.name}")


@cli.command("release-notes")
@click.argument("version")
@click.option(
    "--site-url", metavar="URL", help="Prefix for root-absolute links [default: product.site_url]."
)
@output_options_for("Print only the notes and errors, no warnings.", NOTHING_MORE)
@pass_state
@user_errors
def release_notes_cmd(state: State, version: str, site_url: str | None) -> None:
    """Print one release's section as plain Markdown for a release body."""
    from docgen.changelog.entries import relative_links_warning, release_notes
    from docgen.registry.load import load_registry

    project = state.project()
    registry = load_registry(project)
    url = site_url if site_url is not None else registry.product.site_url
    notes = release_notes(project, registry, version, url)
    warning = relative_links_warning(notes, url)
    if warning is not None and not state.quiet:
        click.echo(str(warning), err=True)
    click.echo(notes, nl=False)


@cli.command("init")
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@output_options_for("Print only errors.", NOTHING_MORE)
@pass_state
@user_errors
def init_cmd(state: State, directory: Path | None) -> None:
    """Scaffold a working project (registry, template, mkdocs.yml, changelog folder) in
    DIRECTORY (default: the root) and build it."""
    from docgen.verbs.init import init

    target = directory if directory is not None else state.root
    target.mkdir(parents=True, exist_ok=True)
    for path in init(target):
        state.say(f"create {path}")
    here = target.resolve() == Path.cwd().resolve()
    state.say(f"next: {'' if here else f'cd {target} && '}docgen check && mkdocs serve")


def main() -> None:
    cli(prog_name="docgen")
