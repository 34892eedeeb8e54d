"""The effective ``vllm serve`` command: exact argv, exact layout, and shell round trips.

The registry below has what makes a command hard to print: a negative number
(``--max-model-len -1``), JSON values (compact, with quotes and ``$`` inside), a
multi-value flag with a space in a value, environment variables that need quoting, and
an override that sets some flags again. ``serve-command`` prints registry args, then the
override's, then the ``--extra-args-json`` tokens (README), so the last value wins.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess

import pytest
from conftest import MINIMAL_REGISTRY, Project

from docgen.registry import load as registry
from docgen.registry.serve import ServeCommand, override_command

PROFILE = "vllm.box.tiny"

REGISTRY = MINIMAL_REGISTRY.replace(
    """\
    args:
      max-model-len: 32768
      gpu-memory-utilization: 0.5
      max-num-seqs: 2
      enable-prefix-caching: true
""",
    """\
    env: {VLLM_LOGGING_LEVEL: DEBUG, NOTE: "it's a $HOME"}
    args:
      max-model-len: -1
      gpu-memory-utilization: 0.5
      max-num-seqs: 2
      enable-prefix-caching: true
      speculative-config: {method: ngram, num_speculative_tokens: 3, prompt_lookup_max: -1}
      default-chat-template-kwargs: {greeting: "it's {x} $HOME"}
      served-model-name: [tiny, "tiny alias"]
""",
).replace(
    """\
        args:
          gpu-memory-utilization: 0.3
""",
    """\
        args:
          gpu-memory-utilization: 0.3
          max-model-len: 8192
          enable-prefix-caching: false
          served-model-name: ["it's"]
""",
)

TEMPLATE = """\
# Commands

{% for p in profiles %}
{{ serve_command(p) | code_block("bash") }}

{{ serve_command(p, "small") | code_block("bash") }}

{{ serve_command(p, multiline=False) | code_block("bash") }}
{% endfor %}
"""

ENV = ["VLLM_LOGGING_LEVEL=DEBUG", "NOTE=it's a $HOME"]
REGISTRY_ARGV = [
    "vllm",
    "serve",
    "acme/Tiny-1B",
    "--max-model-len",
    "-1",
    "--gpu-memory-utilization",
    "0.5",
    "--max-num-seqs",
    "2",
    "--enable-prefix-caching",
    "--speculative-config",
    '{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":-1}',
    "--default-chat-template-kwargs",
    '{"greeting":"it\'s {x} $HOME"}',
    "--served-model-name",
    "tiny",
    "tiny alias",
]
OVERRIDE_TOKENS = [
    "--gpu-memory-utilization",
    "0.3",
    "--max-model-len",
    "8192",
    "--no-enable-prefix-caching",
    "--served-model-name",
    "it's",
]
EXTRA = ["--max-num-seqs", "8", "--max-model-len", "-1", "--served-model-name", 'a "b" $c']

HEAD = """VLLM_LOGGING_LEVEL=DEBUG NOTE='it'"'"'s a $HOME' vllm serve acme/Tiny-1B"""
REGISTRY_LINES = [
    f"{HEAD} \\",
    "  --max-model-len -1 \\",
    "  --gpu-memory-utilization 0.5 \\",
    "  --max-num-seqs 2 \\",
    "  --enable-prefix-caching \\",
    "  --speculative-config "
    """'{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":-1}' \\""",
    """  --default-chat-template-kwargs '{"greeting":"it'"'"'s {x} $HOME"}' \\""",
    "  --served-model-name tiny 'tiny alias'",
]
OVERRIDE_LINES = [
    *REGISTRY_LINES[:-1],
    f"{REGISTRY_LINES[-1]} \\",
    "  --gpu-memory-utilization 0.3 \\",
    "  --max-model-len 8192 \\",
    "  --no-enable-prefix-caching \\",
    """  --served-model-name 'it'"'"'s'""",
]
ONE_LINE = (
    f"{HEAD} --max-model-len -1 --gpu-memory-utilization 0.5 --max-num-seqs 2 "
    "--enable-prefix-caching --speculative-config "
    """'{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":-1}' """
    """--default-chat-template-kwargs '{"greeting":"it'"'"'s {x} $HOME"}' """
    "--served-model-name tiny 'tiny alias'"
)


@pytest.fixture
def project(make_project, run) -> Project:
    made: Project = make_project(registry=REGISTRY, templates={"commands.mdx.j2": TEMPLATE})
    result = run(made, "build")
    assert result.exit_code == 0, result.output
    return made


def code_blocks(page: str) -> list[str]:
    """The bodies of the page's ```bash blocks."""
    return [block.split("\n```", 1)[0] for block in page.split("```bash\n")[1:]]


def serve(run, project: Project, *args: str) -> str:
    result = run(project, "serve-command", PROFILE, *args)
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    stdout: str = result.stdout
    return stdout


def argv_of(run, project: Project, *args: str) -> list[str]:
    argv: list[str] = json.loads(serve(run, project, *args, "--format", "json"))["argv"]
    return argv


CASES = {
    "registry": (),
    "override": ("--override", "small"),
    "extra": ("--extra-args-json", json.dumps(EXTRA)),
    "override-and-extra": ("--override", "small", "--extra-args-json", json.dumps(EXTRA)),
}


def test_argv_is_registry_args_then_override_then_extra_tokens(project, run):
    assert argv_of(run, project) == REGISTRY_ARGV
    assert argv_of(run, project, *CASES["override"]) == REGISTRY_ARGV + OVERRIDE_TOKENS
    assert argv_of(run, project, *CASES["extra"]) == REGISTRY_ARGV + EXTRA
    assert argv_of(run, project, *CASES["override-and-extra"]) == [
        *REGISTRY_ARGV,
        *OVERRIDE_TOKENS,
        *EXTRA,
    ]


def test_shell_form_is_one_exact_line(project, run):
    assert serve(run, project) == f"{ONE_LINE}\n"
    assert serve(run, project, *CASES["override-and-extra"]) == (
        f"{ONE_LINE} --gpu-memory-utilization 0.3 --max-model-len 8192 "
        """--no-enable-prefix-caching --served-model-name 'it'"'"'s' """
        """--max-num-seqs 8 --max-model-len -1 --served-model-name 'a "b" $c'\n"""
    )


def test_multiline_layout_keeps_each_value_and_negative_number_on_its_flag_line(project):
    blocks = code_blocks(project.read("docs/commands.mdx"))
    assert [block.split("\n") for block in blocks] == [REGISTRY_LINES, OVERRIDE_LINES, [ONE_LINE]]


@pytest.mark.parametrize(
    ("tokens", "lines"),
    [
        (
            ("--max-model-len", "-1", "--seed", "-0.5", "--x", "-1e3", "--y", "-inf"),
            ["vllm serve m \\", "  --max-model-len -1 \\", "  --seed -0.5 \\", "  --x -1e3 \\"]
            + ["  --y -inf"],
        ),
        (
            ("--a", "--b", "1", "2", "-3", "--no-c", "-d", "e f"),
            ["vllm serve m \\", "  --a \\", "  --b 1 2 -3 \\", "  --no-c \\", "  -d 'e f'"],
        ),
    ],
    ids=["negative-numbers", "bare-flags-and-multiple-values"],
)
def test_flag_groups(tokens: tuple[str, ...], lines: list[str]) -> None:
    command = ServeCommand((), "m", tokens)
    assert command.shell(multiline=True).split("\n") == lines
    assert command.shell() == " ".join(line.rstrip(" \\").strip() for line in lines)


def test_every_printed_command_round_trips_through_shlex(project, run):
    for name, args in CASES.items():
        printed = serve(run, project, *args)
        assert shlex.split(printed) == ENV + argv_of(run, project, *args), name


def bash_argv(command: str, env: list[str]) -> list[str]:
    """What bash passes to ``vllm`` for the command, then the values of ``env``'s names."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    values = " ".join(f'"${name}"' for name in env)
    script = f"vllm() {{ printf '%s\\0' vllm \"$@\" {values}; }}\n{command}\n"
    result = subprocess.run([bash, "-c", script], capture_output=True, check=True)
    return result.stdout.decode("utf-8").split("\0")[:-1]


def test_every_printed_command_round_trips_through_bash(project, run):
    values = [assignment.split("=", 1)[1] for assignment in ENV]
    names = [assignment.split("=", 1)[0] for assignment in ENV]
    for name, args in CASES.items():
        printed = serve(run, project, *args)
        assert bash_argv(printed, names) == argv_of(run, project, *args) + values, name
    blocks = code_blocks(project.read("docs/commands.mdx"))
    expected = [REGISTRY_ARGV, REGISTRY_ARGV + OVERRIDE_TOKENS, REGISTRY_ARGV]
    assert [bash_argv(block, names) for block in blocks] == [e + values for e in expected]


def test_override_command_round_trips_through_bash(project):
    reg = registry.load(project.root / "profiles.yaml")
    profile = reg.profiles[PROFILE]
    command = override_command(reg.product, profile, profile.overrides[0], "acme")
    assert command.split("\n") == [
        "ACME_MODEL=tiny \\",
        '  ACME_EXTRA_ARGS_JSON=\'["--gpu-memory-utilization","0.3","--max-model-len",'
        """"8192","--no-enable-prefix-caching","--served-model-name","it'"'"'s"]' \\""",
        "  acme onboard --non-interactive",
    ]
    script = command.replace("acme onboard", "vllm onboard")
    printed = bash_argv(script, ["ACME_MODEL", "ACME_EXTRA_ARGS_JSON"])
    assert printed[:4] == ["vllm", "onboard", "--non-interactive", "tiny"]
    assert json.loads(printed[4]) == OVERRIDE_TOKENS


def test_override_command_keeps_non_ascii_text_as_written(make_project):
    """The paste-ready JSON shows the value as the registry has it (``café``), not as a
    JSON escape (``caf\\u00e9``), which a reader would have to decode by eye."""
    text = MINIMAL_REGISTRY.replace(
        "          gpu-memory-utilization: 0.3\n",
        "          gpu-memory-utilization: 0.3\n          served-model-name: café\n",
    )
    project = make_project(registry=text)
    reg = registry.load(project.root / "profiles.yaml")
    profile = reg.profiles["vllm.box.tiny"]
    command = override_command(reg.product, profile, profile.overrides[0], "acme")
    assert '"--served-model-name","café"]\'' in command
    assert "\\u" not in command
