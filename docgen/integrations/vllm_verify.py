"""``docgen verify-vllm``: every ``vllm serve`` command the docs show, parsed by vLLM itself.

Commands come from the registry (each profile, and each profile with each of its
overrides applied) and from the shell code blocks of every generated page. All of
them go to ``vllm_probe.py`` in one subprocess that runs with the python of the
pinned vLLM environment (``docgen/vllm_env.py``), so vLLM is imported once.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen.config import Project
from docgen.errors import Location
from docgen.integrations import shell, vllm_answer, vllm_env
from docgen.registry.model import Arg, Override, Profile
from docgen.vllm.versions import release_key

PROBE = Path(__file__).with_name("vllm_probe.py")
PROBE_ENV = {"VLLM_TARGET_DEVICE": "cpu", "HF_HUB_OFFLINE": "1", "VLLM_NO_USAGE_STATS": "1"}
PROBE_TIMEOUT = 300  # seconds; importing vLLM takes 6-20 s, each command about 1 ms
PROBE_OUTPUT_CAP = 16_000_000  # bytes of stdout and stderr; vLLM's answer and logs: ~100 kB
_OPTION = re.compile(r"--[A-Za-z0-9][\w.-]*")


@dataclass(frozen=True)
class Shown:
    """One ``vllm serve`` command the docs show, and where it comes from."""

    argv: tuple[str, ...]
    location: Location
    origin: (
        str  # "the command of profile 'x'", "... of override 'o' of profile 'x'", "this command"
    )
    release: str = ""  # the vLLM version the profile's image declares
    args: tuple[Arg, ...] = ()  # the registry args behind it, last one wins
    problem: str = ""  # why the page command could not be split into words

    def pinpoint(self, message: str) -> Location:
        """The registry arg that vLLM's message names (as ``--flag``, or in words, as in
        "invalid reasoning parser"), else the profile or override."""
        for option in _OPTION.findall(message):
            for arg in reversed(self.args):
                if arg.tokens and arg.tokens[0] == option:
                    return arg.source.location
        for arg in reversed(self.args):
            if f" {arg.name.replace('-', ' ')}:" in message:
                return arg.source.location
        return self.location


@dataclass(frozen=True)
class Rejection:
    shown: Shown
    message: str
    also: tuple[Shown, ...] = ()

    @property
    def location(self) -> Location:
        return self.shown.pinpoint(self.message)


@dataclass(frozen=True)
class Report:
    vllm: str
    shown: int  # commands shown, counting repeats
    distinct: int  # distinct commands parsed
    rejections: tuple[Rejection, ...]
    skipped: tuple[Shown, ...]
    #: The first place that shows each distinct command vLLM accepted, with the others.
    parsed: tuple[tuple[Shown, int], ...] = ()

    @property
    def ok(self) -> bool:
        return not self.rejections


# --- collecting commands ------------------------------------------------------------


def registry_commands(profiles: Iterable[Profile]) -> Iterator[Shown]:
    """Each profile's effective command, then the command with each override applied."""
    from docgen.registry.serve import serve_command

    for profile in profiles:
        release = profile.image.vllm if profile.image else ""
        yield Shown(
            tuple(serve_command(profile).argv),
            profile.source.location,
            f"the command of profile '{profile.id}'",
            release,
            profile.effective_args,
        )
        for override in profile.overrides:
            yield _override_command(profile, override, release)


def _override_command(profile: Profile, override: Override, release: str) -> Shown:
    from docgen.registry.serve import serve_command

    return Shown(
        tuple(serve_command(profile, override).argv),
        override.source.location,
        f"the command of override '{override.id}' of profile '{profile.id}'",
        release,
        (*profile.effective_args, *override.args),
    )


def page_commands(path: str, text: str) -> Iterator[Shown]:
    """The ``vllm serve`` commands in the shell code blocks of one page."""
    for line, command in shell.logical_lines(text):
        try:
            words = shell.words(command)
        except ValueError as exc:
            if "vllm serve" in command:
                yield Shown((), Location(path, line, 1), "this command", problem=str(exc))
            continue
        argv = shell.serve_argv(words)
        if argv is not None:
            yield Shown(tuple(argv), Location(path, line, 1), "this command")


def collect(project: Project) -> list[Shown]:
    """Every ``vllm serve`` command of the project: registry first, then the pages."""
    from docgen.plan import plan

    built = plan(project)
    shown = list(registry_commands(built.registry.profiles.values()))
    for output in built.outputs:
        if output.path.endswith((".mdx", ".md")):
            shown += page_commands(output.path, output.text)
    return shown


# --- parsing with vLLM --------------------------------------------------------------


def run_probe(python: Path, request: dict[str, Any]) -> dict[str, Any]:
    """Send one request to ``vllm_probe.py`` under ``python``; its JSON answer."""
    env, argv = {**os.environ, **PROBE_ENV}, [str(python), "-I", str(PROBE)]
    try:
        result = vllm_answer.bounded(
            argv, json.dumps(request), env, PROBE_TIMEOUT, PROBE_OUTPUT_CAP
        )
    except OSError as exc:
        raise _broken(python, str(exc)) from None
    except vllm_answer.Overrun as exc:  # the probe and all it started are killed
        if exc.limit == "time":
            detail, what = f"no answer within {PROBE_TIMEOUT:g} s", "did not finish"
        else:
            detail, what = f"more than {PROBE_OUTPUT_CAP:,} bytes of output", "printed too much"
        raise _broken(python, f"{detail}; docgen stopped it", what) from None
    if result.returncode != 0:
        tail = "\n".join(result.stderr.strip().splitlines()[-12:])
        raise _broken(python, f"exit code {result.returncode}:\n{tail}")
    try:
        answer: dict[str, Any] = json.loads(result.stdout)
    except (ValueError, RecursionError):  # not JSON, or past json's own limits
        raise _broken(python, f"unexpected output: {result.stdout[:200]!r}") from None
    return answer


def _broken(python: Path, detail: str, what: str = "did not run") -> vllm_env.VllmEnvError:
    return vllm_env.VllmEnvError.at(
        Location(str(python)),
        f"vLLM's parser {what} ({detail}); recreate the environment with `{vllm_env.SETUP_HINT}`",
    )


def parse(python: Path, commands: Sequence[Sequence[str]]) -> tuple[str, list[str | None]]:
    """vLLM's version and, per command, its rejection message or None."""
    answer = run_probe(python, {"commands": [list(c) for c in commands]})
    wrong = vllm_answer.problem(answer, len(commands))
    if wrong is not None:
        raise _broken(python, wrong, "gave an answer of the wrong shape")
    return answer["vllm"], [None if r["ok"] else r["error"] for r in answer["results"]]


def _checked_here(shown: Shown) -> bool:
    """Whether the pinned parser speaks for this command's release."""
    if not shown.release:
        return True
    return release_key(shown.release) == release_key(vllm_env.VLLM_VERSION)


def _groups(shown: Sequence[Shown]) -> dict[tuple[str, ...], list[Shown]]:
    groups: dict[tuple[str, ...], list[Shown]] = {}
    for item in shown:
        if not item.problem:
            groups.setdefault(item.argv, []).append(item)
    return groups


def judge(shown: Sequence[Shown], python: Path) -> Report:
    """Parse each distinct command once; report rejections at every place that shows it."""
    groups = _groups(shown)
    skipped = [
        next(s for s in g if not _checked_here(s))
        for g in groups.values()
        if not all(map(_checked_here, g))
    ]
    checked = {argv: g for argv, g in groups.items() if all(map(_checked_here, g))}
    version, errors = parse(python, list(checked)) if checked else (vllm_env.VLLM_VERSION, [])
    if version != vllm_env.VLLM_VERSION:
        raise _broken(python, f"it has vLLM {version}, docgen pins {vllm_env.VLLM_VERSION}")
    rejections = [Rejection(s, s.problem) for s in shown if s.problem]
    parsed = []
    for group, error in zip(checked.values(), errors, strict=True):
        if error is not None:
            rejections.append(Rejection(group[0], error, tuple(group[1:])))
        else:
            parsed.append((group[0], len(group) - 1))
    return Report(
        version, len(shown), len(checked), tuple(rejections), tuple(skipped), tuple(parsed)
    )


def verify_vllm(
    project: Project, venv: Path | None = None, setup: bool = False, say: vllm_env.Say = print
) -> Report:
    """Collect the project's commands and parse them with the pinned vLLM release."""
    where = vllm_env.venv_path(project.root, venv)
    if setup:
        vllm_env.create(where, say)
    elif not vllm_env.ready(where):
        raise vllm_env.missing(where)
    shown = collect(project)
    return judge(shown, vllm_env.python_of(where))


def report_lines(report: Report, verbose: bool = False) -> list[str]:
    """The findings, gcc style (with ``verbose``, a note per command that parsed too),
    then one summary line."""
    lines: list[str] = []
    for rejection in report.rejections:
        first, *rest = rejection.message.splitlines() or [""]
        if rejection.shown.problem:
            why = "cannot split this `vllm serve` command into shell words"
        else:
            why = f"vLLM {report.vllm} rejects {rejection.shown.origin}"
        lines.append(f"{rejection.location}: error: {why}: {first}")
        lines += [f"  {line}" for line in rest]
        lines += [f"  also shown at {other.location}" for other in rejection.also]
    for item in report.skipped:
        lines.append(
            f"{item.location}: note: not parsed: {item.origin} targets vLLM {item.release} "
            f"(its image), the parser here is {report.vllm}"
        )
    if verbose:
        for item, others in report.parsed:
            also = f" (and {others} more place{'s' if others > 1 else ''})" if others else ""
            lines.append(f"{item.location}: note: parsed: {item.origin}{also}")
    lines.append(_summary(report))
    return lines


def _summary(report: Report) -> str:
    counts = f"{report.shown} vllm serve commands shown, {report.distinct} distinct"
    if report.ok:
        return f"{counts}: all parse with vLLM {report.vllm}'s own parser"
    return f"{counts}: {len(report.rejections)} rejected"
