"""``docgen verify-vllm``: command collection, reporting, and vLLM 0.34.0's real parser.

Tests that take the ``vllm_python`` fixture need the vLLM environment (``docgen
verify-vllm --setup``): they skip without it, except under CI (``CI`` set), where a
missing environment fails them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import MINIMAL_REGISTRY, REPO

from docgen.config import load_project
from docgen.errors import Location
from docgen.integrations import vllm_env
from docgen.integrations import vllm_verify as verify
from docgen.plan import plan
from docgen.vllm import requirements
from docgen.vllm.catalog import Catalog

SPARK = "vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4"
TINY = ("vllm", "serve", "acme/Tiny-1B", "--max-model-len", "32768")
TINY_ARGS = (*TINY, "--gpu-memory-utilization", "0.5", "--max-num-seqs", "2")
TINY_ARGV = (*TINY_ARGS, "--enable-prefix-caching")
VARIANTS = "docs/_build/agent-variants"


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def page_text(project: Any, path: str) -> str:
    """A generated page as docgen renders it (verify-vllm writes nothing)."""
    return plan(load_project(project.root)).by_path()[path].text


# --- collecting commands (no vLLM needed) ---------------------------------------------


def test_collect_finds_profiles_overrides_and_page_commands(make_project):
    project = make_project()
    shown = verify.collect(load_project(project.root))
    registry = [s for s in shown if s.location.path == "profiles.yaml"]
    assert [(s.origin, s.argv) for s in registry] == [
        ("the command of profile 'vllm.box.tiny'", TINY_ARGV),
        (
            "the command of override 'small' of profile 'vllm.box.tiny'",
            (*TINY_ARGV, "--gpu-memory-utilization", "0.3"),
        ),
    ]
    assert registry[0].location == Location(
        "profiles.yaml", line_of(MINIMAL_REGISTRY, "vllm.box.tiny:"), 3
    )
    assert registry[1].location.line == line_of(MINIMAL_REGISTRY, "small:")
    pages = [s for s in shown if s.location.path == "docs/models.mdx"]
    assert [(s.argv, s.origin) for s in pages] == [(TINY_ARGV, "this command")]
    assert pages[0].location.line == line_of(page_text(project, "docs/models.mdx"), "vllm serve")
    assert not (project.root / "docs").exists()  # the pages come from plan(), in memory


def test_page_commands_follow_shell_rules():
    text = "\n".join(
        [
            "Intro `vllm serve x --no` in prose is not a command.",
            "```bash",
            "# a comment line",
            "$ VLLM_LOGGING_LEVEL=DEBUG vllm serve org/m \\",
            "    --compilation-config '{\"mode\": 3}' \\",
            '    --served-model-name "my model" | tee log.txt  # trailing comment',
            "/opt/venv/bin/vllm serve m2 --max-num-seqs 4 && echo ok",
            "```",
            "",
            "```python",
            "subprocess.run('vllm serve m3')",
            "```",
            "~~~sh",
            "vllm serve m4 --x 'unclosed",
            "~~~",
        ]
    )
    shown = list(verify.page_commands("docs/a.mdx", text))
    assert [(s.location.line, s.argv, s.problem) for s in shown] == [
        (
            4,
            (
                "vllm",
                "serve",
                "org/m",
                "--compilation-config",
                '{"mode": 3}',
                "--served-model-name",
                "my model",
            ),
            "",
        ),
        (7, ("vllm", "serve", "m2", "--max-num-seqs", "4"), ""),
        (14, (), "No closing quotation"),
    ]


def test_an_open_quote_continues_on_the_next_line_as_in_bash():
    text = '```sh\nvllm serve m --speculative-config \'{\n  "method": "mtp"}\' \\\n  -O3\n```'
    shown = list(verify.page_commands("p.md", text))
    assert [(s.location.line, s.argv) for s in shown] == [
        (2, ("vllm", "serve", "m", "--speculative-config", '{\n  "method": "mtp"}', "-O3"))
    ]


def test_a_continuation_at_the_end_of_a_block_still_counts():
    shown = list(verify.page_commands("p.md", "```console\nvllm serve m \\\n  --a 1 \\\n```\n"))
    assert [s.argv for s in shown] == [("vllm", "serve", "m", "--a", "1")]


#: Commands whose lines join as bash joins them: a backslash ending a line inside single
#: quotes is a character; inside double quotes or outside, it joins the next line.
AS_BASH_READS = [
    "vllm serve m --chat-template 'a \\\nb' --x 1",
    'vllm serve m --chat-template "a \\\nb" --x 1',
    "vllm serve m \\\n  --x 'it''s' # it's a comment \\\n",
    "vllm serve m --x 'one\\\\' \\\n  --y \"two\\\\\" --z\\ 3",
    "vllm serve m --x 'a\n\\\nb' \\\n  -O3",
]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("command", AS_BASH_READS)
def test_a_page_command_is_read_as_bash_runs_it(command):
    """The argv verify-vllm hands to vLLM's parser is the one bash passes to vllm."""
    ran = subprocess.run(
        ["bash", "-c", command.replace("vllm serve", "printf '%s\\0' vllm serve", 1)],
        capture_output=True,
        check=True,
    )
    bash_argv = tuple(ran.stdout.decode().split("\0")[:-1])
    shown = list(verify.page_commands("p.md", f"```bash\n{command}\n```\n"))
    assert [s.argv for s in shown] == [bash_argv]


def test_missing_environment_says_how_to_create_it_and_exits_2(make_project, run, tmp_path):
    project = make_project()
    venv = tmp_path / "no-venv"
    before = project.snapshot()
    result = run(project, "verify-vllm", "--venv", str(venv))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{venv}: error: no vLLM 0.34.0 environment here; create it (about 3 minutes, "
        "1.9 GB with torch's CPU build: see the README) with `docgen verify-vllm --setup` "
        "(choose the folder with --venv or $DOCGEN_VLLM_VENV)"
    ]
    assert project.snapshot() == before


def test_the_environment_path_comes_from_the_option_the_variable_or_the_root(tmp_path, monkeypatch):
    monkeypatch.delenv(vllm_env.ENV_VAR, raising=False)
    assert vllm_env.venv_path(tmp_path) == tmp_path / ".cache" / "vllm-0.34.0"
    monkeypatch.setenv(vllm_env.ENV_VAR, str(tmp_path / "env"))
    assert vllm_env.venv_path(tmp_path) == tmp_path / "env"
    assert vllm_env.venv_path(tmp_path, tmp_path / "given") == tmp_path / "given"


def test_a_half_made_environment_is_not_ready(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    assert not vllm_env.ready(venv)
    (venv / vllm_env.MARKER).write_text('{"vllm": "0.33.0"}')
    assert not vllm_env.ready(venv)


def test_the_shipped_lock_is_the_reference_lock():
    reference = REPO.parent / "shared" / "reference" / "vllm-parser-lock.txt"
    if not reference.is_file():
        pytest.skip(f"reference lock not found: {reference}")
    assert vllm_env.lock_text() == reference.read_text(encoding="utf-8")


# --- reporting, with vLLM's answers stubbed -------------------------------------------


@pytest.fixture
def stub_vllm(monkeypatch):
    """Pretend the environment exists; answer with the messages given per command."""
    answers: dict[tuple[str, ...], str] = {}
    seen: list[list[list[str]]] = []

    def probe(python: Path, request: dict[str, Any]) -> dict[str, Any]:
        seen.append(request["commands"])
        results = [
            {"ok": False, "error": answers[tuple(c)]} if tuple(c) in answers else {"ok": True}
            for c in request["commands"]
        ]
        return {"vllm": "0.34.0", "results": results}

    monkeypatch.setattr(vllm_env, "ready", lambda venv: True)
    monkeypatch.setattr(verify, "run_probe", probe)
    return answers, seen


def test_each_rejection_is_reported_at_the_registry_arg_and_exits_1(make_project, run, stub_vllm):
    answers, seen = stub_vllm
    answers[TINY_ARGV] = "vllm serve: error: argument --max-num-seqs: invalid int value: 'x'"
    project = make_project()
    result = run(project, "verify-vllm")
    assert result.exit_code == 1
    page_line = line_of(page_text(project, "docs/models.mdx"), "vllm serve")
    assert result.stdout.splitlines() == [
        f"profiles.yaml:{line_of(MINIMAL_REGISTRY, 'max-num-seqs')}:7: error: vLLM 0.34.0 "
        "rejects the command of profile 'vllm.box.tiny': vllm serve: error: argument "
        "--max-num-seqs: invalid int value: 'x'",
        f"  also shown at docs/models.mdx:{page_line}:1",
        f"  also shown at {VARIANTS}/models.alpha.generated.mdx:{page_line}:1",
        f"  also shown at {VARIANTS}/models.beta.generated.mdx:{page_line}:1",
        "5 vllm serve commands shown, 2 distinct: 1 rejected",
    ]
    assert len(seen) == 1 and len(seen[0]) == 2  # one vLLM process, each command once


def test_all_accepted_exits_0_with_a_count(make_project, run, stub_vllm):
    result = run(make_project(), "verify-vllm")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "5 vllm serve commands shown, 2 distinct: all parse with vLLM 0.34.0's own parser"
    ]


def test_v_lists_every_command_that_parsed(make_project, run, stub_vllm):
    result = run(make_project(), "verify-vllm", "-v")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"profiles.yaml:{line_of(MINIMAL_REGISTRY, 'vllm.box.tiny:')}:3: note: parsed: the "
        "command of profile 'vllm.box.tiny' (and 3 more places)",
        f"profiles.yaml:{line_of(MINIMAL_REGISTRY, 'small:')}:7: note: parsed: the command of "
        "override 'small' of profile 'vllm.box.tiny'",
        "5 vllm serve commands shown, 2 distinct: all parse with vLLM 0.34.0's own parser",
    ]


def test_profiles_on_another_declared_release_are_not_parsed(make_project, run, stub_vllm):
    _, seen = stub_vllm
    registry = MINIMAL_REGISTRY.replace(
        "    platform: linux/amd64\n", "    platform: linux/amd64\n    vllm: 0.30.0\n"
    )
    result = run(make_project(registry), "verify-vllm")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == (
        f"profiles.yaml:{line_of(registry, 'vllm.box.tiny:')}:3: note: not parsed: the command "
        "of profile 'vllm.box.tiny' targets vLLM 0.30.0 (its image), the parser here is 0.34.0"
    )
    assert seen == []


# --- vLLM 0.34.0's real parser ----------------------------------------------------------


@pytest.fixture(scope="module")
def vllm_python() -> Path:
    venv = vllm_env.venv_path(REPO)
    if not vllm_env.ready(venv):
        why = f"no vLLM {vllm_env.VLLM_VERSION} environment at {venv}; create it with "
        why += f"`{vllm_env.SETUP_HINT}` or set ${vllm_env.ENV_VAR}"
        if os.environ.get("CI"):
            pytest.fail(f"{why} (CI is set: the real-parser tests must run)")
        pytest.skip(why)
    return vllm_env.python_of(venv)


KNOWN_BAD = {
    "unknown flag": (
        ["--max-modle-len", "4096"],
        "vllm: error: unrecognized arguments: --max-modle-len 4096",
    ),
    "non-integer count": (
        ["--max-num-seqs", "four"],
        "vllm serve: error: argument --max-num-seqs: invalid int value: 'four'",
    ),
    "broken JSON": (
        ["--compilation-config", '{"mode": 3'],
        "vllm serve: error: argument --compilation-config/-cc: 1 validation error for "
        "CompilationConfig\n  Invalid JSON: EOF while parsing an object at line 1 column 10",
    ),
    "auto tool choice without a parser": (
        ["--enable-auto-tool-choice"],
        "Error: --enable-auto-tool-choice requires --tool-call-parser",
    ),
    "unknown tool-call parser": (
        ["--enable-auto-tool-choice", "--tool-call-parser", "qwen9_coder"],
        "invalid tool call parser: qwen9_coder (chose from { apertus,beam,",
    ),
    "unknown reasoning parser": (
        ["--reasoning-parser", "qwen9"],
        "invalid reasoning parser: qwen9 (chose from { beam,cohere_command3,",
    ),
}
GOOD = ["--enable-auto-tool-choice", "--tool-call-parser", "qwen3_coder", "--reasoning-parser"]


@pytest.fixture(scope="module")
def real_answer(vllm_python: Path) -> dict[str, Any]:
    """One vLLM process: the known-bad commands, a good one, and the option list."""
    commands = [["vllm", "serve", "org/m", *args] for args, _ in KNOWN_BAD.values()]
    commands.append(["vllm", "serve", "org/m", *GOOD, "qwen3"])
    return verify.run_probe(vllm_python, {"commands": commands, "options": True})


@pytest.mark.parametrize("case", list(KNOWN_BAD))
def test_known_bad_commands_are_rejected_with_vllm_s_own_message(real_answer, case):
    index = list(KNOWN_BAD).index(case)
    result = real_answer["results"][index]
    assert result["ok"] is False
    assert result["error"].startswith(KNOWN_BAD[case][1])


def test_a_good_command_is_accepted(real_answer):
    assert real_answer["vllm"] == "0.34.0"
    assert real_answer["results"][-1] == {"ok": True}


#: Operator tokens at argparse's edges: whether vLLM's parser takes each, as docgen
#: must (``--x=a b`` is an option when ``--x`` is one: argparse splits at the ``=``
#: before its rule that a token with a space is a value; a hostile round).
OPERATOR_EDGES = {
    "known option, '=', a space": (["--served-model-name=a b"], True),
    "underscores, '=', a space": (["--served_model_name=a b"], True),
    "unknown option, '=', a space": (["--no-such=a b"], False),
    "a space in a value after its option": (["--served-model-name", "-a b"], True),
    "a negative number as a value": (["--served-model-name", "-5"], True),
    "an integer option given words": (["--max-model-len=1 2"], False),
    # a one-letter option's value attached, as argparse reads it
    "a one-letter option, its value attached": (["-qawq", "-n2", "-r0"], True),
    "a one-letter option, a value it refuses attached": (["-nx"], False),
    "a longer alias, a value attached": (["-tp4"], False),
}


def test_docgen_and_vllm_s_parser_agree_on_operator_tokens_at_argparse_s_edges(vllm_python):
    from docgen.errors import DocgenError
    from docgen.registry.serve import parse_extra_args

    commands = [["vllm", "serve", "org/m", *args] for args, _ in OPERATOR_EDGES.values()]
    answer = verify.run_probe(vllm_python, {"commands": commands, "options": False})
    catalog = Catalog.load()
    results = zip(OPERATOR_EDGES.items(), answer["results"], strict=True)
    for (case, (args, taken)), result in results:
        assert result["ok"] is taken, (case, result)
        try:
            parse_extra_args(json.dumps(args), catalog)
        except DocgenError:
            ours = False
        else:
            ours = True
        assert ours is taken, case


def test_the_catalog_and_vllm_s_parser_agree_on_every_option(real_answer):
    catalog = Catalog.load()
    ours = set()
    for name in catalog.names():
        flag = catalog.lookup(name)
        assert flag is not None
        ours |= {flag.option, *flag.aliases, *(f"--{n}" for n in flag.negations)}
    theirs = set(real_answer["options"])
    assert sorted(theirs - ours) == [], "options vLLM has that the catalog lacks"
    assert sorted(ours - theirs) == [], "options the catalog has that vLLM lacks"
    assert len(theirs) == 494


def test_the_worked_example_parses_with_vllm(example, run, vllm_python):
    result = run(example, "verify-vllm", "--venv", str(vllm_python.parent.parent))
    assert result.exit_code == 0, result.output
    [summary] = result.stdout.splitlines()
    shown, distinct = map(int, re.findall(r"\d+(?= vllm| distinct)", summary))
    assert summary.endswith(" distinct: all parse with vLLM 0.34.0's own parser")
    assert distinct >= 7 and shown > 6 * distinct  # 6 profiles + 1 override, on many pages


def test_real_rejections_name_the_registry_arg_and_the_page_line(make_project, run, vllm_python):
    # The registry declares a parser its images ship and vLLM 0.34.0 does not know: validate
    # accepts it (vllm.extra_values), vLLM's own parser refuses it.
    registry = (
        MINIMAL_REGISTRY.replace(
            "      enable-prefix-caching: true\n",
            "      enable-prefix-caching: true\n      reasoning-parser: qwen9\n",
        )
        + "vllm:\n  extra_values: {reasoning-parser: [qwen9]}\n"
    )
    page = "---\ntitle: Try\n---\n\n```bash\nvllm serve org/m --max-num-seqs four\n```\n"
    project = make_project(registry, templates={"try.mdx.j2": page})
    assert run(project, "validate").exit_code == 0
    result = run(project, "verify-vllm", "--venv", str(vllm_python.parent.parent))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    page_line = line_of(page_text(project, "docs/try.mdx"), "vllm serve")
    parser = line_of(registry, "reasoning-parser: qwen9")
    rejects = "error: vLLM 0.34.0 rejects the command of"
    parser_error = "invalid reasoning parser: qwen9 (chose from { beam,"
    assert lines[0].startswith(
        f"profiles.yaml:{parser}:7: {rejects} profile 'vllm.box.tiny': {parser_error}"
    )
    assert lines[1].startswith(
        f"profiles.yaml:{parser}:7: {rejects} override 'small' of profile 'vllm.box.tiny': "
        + parser_error
    )
    assert lines[2:] == [
        f"docs/try.mdx:{page_line}:1: error: vLLM 0.34.0 rejects this command: vllm serve: "
        "error: "
        "argument --max-num-seqs: invalid int value: 'four'",
        f"  also shown at {VARIANTS}/try.alpha.generated.mdx:{page_line}:1",
        f"  also shown at {VARIANTS}/try.beta.generated.mdx:{page_line}:1",
        "5 vllm serve commands shown, 3 distinct: 3 rejected",
    ]


# Each flag a start-time rule names, by the registry value that turns it on and one that
# leaves it off (absent or false); the corpus is every combination of them.
RULE_FLAGS = {
    "enable-auto-tool-choice": (True, False),
    "tool-call-parser": ("hermes", None),
    "enable-log-outputs": (True, False),
    "enable-log-requests": (True, False),
    "enable-per-request-metrics": (True, False),
    "disable-log-stats": (True, None),
}


def _rule_corpus() -> list[dict[str, Any]]:
    """Every combination of the flags each rule pairs, the rest left out."""
    corpus = []
    for rule in requirements.RULES:
        other = rule.needs or rule.excludes
        for first in RULE_FLAGS[rule.flag]:
            for second in RULE_FLAGS[other]:
                values = {rule.flag: first, other: second}
                corpus.append({k: v for k, v in values.items() if v is not None})
    return corpus


def test_the_static_start_rules_give_vllm_s_own_verdicts(vllm_python):
    """validate's table of start-time rules (docgen/vllm/requirements.py) refuses exactly
    the commands vLLM 0.34.0's parser and pre-server checks refuse, with its words."""
    catalog = Catalog.load()
    corpus = _rule_corpus()
    commands = [
        ["vllm", "serve", "org/m", *(t for k, v in values.items() for t in catalog.tokens(k, v))]
        for values in corpus
    ]
    _, verdicts = verify.parse(vllm_python, commands)
    assert len(corpus) == 12
    for values, command, verdict in zip(corpus, commands, verdicts, strict=True):
        broken = list(requirements.broken(values))
        assert (verdict is not None) == bool(broken), (command, verdict)
        if broken:  # vLLM's message names both flags of the rule
            other = broken[0].needs or broken[0].excludes
            assert f"--{broken[0].flag}" in verdict and f"--{other}" in verdict, verdict


def test_the_readmes_example_names_the_line_the_page_shows_the_command_at():
    """The README's sample rejection points at the Nemotron command of the built setup
    page: it went stale once when the launcher's steps moved the command down."""
    readme = (REPO / "README.md").read_text("utf-8")
    said = re.search(r"also shown at docs/inference/set-up-vllm\.mdx:(\d+):1", readme)
    assert said is not None
    page = (REPO / "docs/inference/set-up-vllm.mdx").read_text("utf-8")
    lines = [
        s.location.line
        for s in verify.page_commands("docs/inference/set-up-vllm.mdx", page)
        if "nvidia/NVIDIA-Nemotron-3-Nano-4B-FP8" in s.argv
    ]
    assert lines == [int(said[1])]
