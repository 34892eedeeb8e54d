"""Every command docgen prints reads back through bash as exactly the intended command.

``docgen serve-command`` output, and the ``vllm serve`` and override commands in the
generated pages and agent variants, run under ``bash -c`` with stub executables on an
otherwise empty ``PATH``: each stub records the argv and environment it was started with.
The record must equal what docgen meant (``serve-command --format json``, the profile's
``env``, the product's override variables and ``onboard`` words), with exactly one
command run and nothing else: an injected ``; touch pwned`` would fail (no ``touch`` on
the ``PATH``) and show as a second call or an error. Two registries: the worked example
and a valid registry whose values hold quotes, ``$(...)``, backticks, globs, newlines,
tabs and non-ASCII text.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY, Project, invoke_cli

from docgen.registry.load import load
from docgen.registry.model import Product, Registry
from docgen.registry.serve import override_command, serve_command

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="needs bash")

#: Registry text that a shell would act on if it were not quoted.
HOSTILE = 'it\'s "$(touch pwned)" `touch pwned2` $HOME;&|<>*?~ \\ !x {a,b} # tab\there\nnaïve 日本'
#: Characters a page would drop or change (bidirectional controls, separators, C0, C1).
CONTROLS = "\u202e\u2028\r\x00\x1b\x85"
#: The same without tab and newline (names and ``served_name`` are one line).
HOSTILE_LINE = re.sub(r"[\t\n]", " ", HOSTILE)


def _yaml(text: str) -> str:
    """``text`` as a double-quoted YAML string; what YAML would read as a line break
    (NEXT LINE, LINE SEPARATOR: refused raw) is written as its escape, the same value."""
    quoted = json.dumps(text, ensure_ascii=False)
    return re.sub("[\x85\u2028\u2029]", lambda m: f"\\u{ord(m[0]):04x}", quoted)


HOSTILE_REGISTRY = (
    MINIMAL_REGISTRY.replace(
        "  model_env: ACME_MODEL\n",
        "  model_env: ACME_MODEL\n"
        f"  provider_env: {{ACME_PROVIDER: {_yaml(HOSTILE)}, ACME_EMPTY: ''}}\n"
        "  onboard: setup --yes --mode=a,b:c/d@e%f+g\n",
    )
    .replace(
        "    default: true\n  - id: beta",
        f"    env: {{ACME_AGENT: {_yaml(HOSTILE)}}}\n    default: true\n  - id: beta",
    )
    .replace(
        "    label: Tiny 1B\n", f"    label: Tiny 1B\n    served_name: {_yaml(HOSTILE_LINE)}\n"
    )
    .replace(
        "    image: img\n",
        f"    image: img\n    env: {{ACME_SECRET: {_yaml(HOSTILE)}, ACME_NUM: 3}}\n",
    )
    .replace(
        "      max-num-seqs: 2\n",
        "      max-num-seqs: 2\n"
        f"      chat-template: {_yaml(HOSTILE)}\n"
        f"      hf-overrides: {{k: {_yaml(HOSTILE)}, n: [1, {_yaml(HOSTILE + CONTROLS)}, null]}}\n",
    )
    .replace(
        "          gpu-memory-utilization: 0.3\n",
        "          gpu-memory-utilization: 0.3\n"
        f"          chat-template: {_yaml(HOSTILE + ' (small)')}\n",
    )
)

#: A shared page with every command docgen builds, so each agent gets a variant.
TEMPLATE = """\
---
title: Commands
---

{% for p in profiles %}
{{ serve_command(p) | code_block("bash") }}

{{ serve_command(p, multiline=False) | code_block("bash") }}
{% for o in p.overrides %}
{{ serve_command(p, o) | code_block("bash") }}

{{ override_command(p, o) | code_block("bash") }}
{% endfor %}
{% endfor %}
"""

STUB = """\
#!{bash}
shopt -s nullglob
calls=("$ROUNDTRIP_OUT"/call.*.argv)
f=$(printf '%s/call.%04d.%d' "$ROUNDTRIP_OUT" "${{#calls[@]}}" "$$")
printf '%s\\0' "${{0##*/}}" "$@" > "$f.argv"
{env} -0 > "$f.env"
"""


@dataclass(frozen=True)
class Call:
    """One started command: its argv, and the environment variables the command line set."""

    argv: tuple[str, ...]
    env: frozenset[tuple[str, str]]


class Shell:
    """Runs command text with ``bash -c`` where only stub commands exist."""

    def __init__(self, root: Path, commands: Iterable[str]) -> None:
        self.stubs, self.out, self.work = root / "stubs", root / "out", root / "work"
        for folder in (self.stubs, self.out, self.work):
            folder.mkdir(parents=True)
        stub = STUB.format(bash=BASH, env=shutil.which("env"))
        for name in commands:
            path = self.stubs / name
            path.write_text(stub, "utf-8")
            path.chmod(0o755)
        self.baseline = dict(self._run("vllm")[0][1])

    def _run(self, text: str) -> list[tuple[list[str], dict[str, str]]]:
        done = subprocess.run(
            [BASH, "--noprofile", "--norc", "-c", text],
            env={"PATH": str(self.stubs), "ROUNDTRIP_OUT": str(self.out), "LC_ALL": "C.UTF-8"},
            cwd=self.work,
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert (done.returncode, done.stderr) == (0, b""), text
        calls = []
        for argv_file in sorted(self.out.glob("call.*.argv")):
            env_file = argv_file.with_suffix(".env")
            argv = argv_file.read_bytes().decode("utf-8").split("\0")[:-1]
            pairs = env_file.read_bytes().decode("utf-8").split("\0")[:-1]
            calls.append((argv, dict(p.split("=", 1) for p in pairs)))
            argv_file.unlink()
            env_file.unlink()
        for stray in self.out.iterdir():
            stray.unlink()
        assert list(self.work.iterdir()) == [], f"the command wrote files: {text!r}"
        return calls

    def run(self, text: str) -> tuple[Call, ...]:
        """The commands ``text`` starts, in order."""
        out = []
        for argv, env in self._run(text):
            changed = {
                k: v
                for k, v in env.items()
                if k not in ("_", "SHLVL") and self.baseline.get(k) != v
            }
            out.append(Call(tuple(argv), frozenset(changed.items())))
        return tuple(out)


def intended_serve(registry: Registry) -> dict[str, tuple[Call, ...]]:
    """Each profile's commands (the launcher's steps, then ``vllm serve``), alone and with
    each override, keyed by a name."""
    out = {}
    for profile in registry.profiles.values():
        for override in (None, *profile.overrides):
            command = serve_command(profile, override)
            name = f"{profile.id}+{override.id if override else ''}"
            steps = tuple(Call(step, frozenset()) for step in command.steps)
            serve = Call(tuple(command.argv), frozenset(dict(command.env).items()))
            out[name] = (*steps, serve)
    return out


def intended_overrides(registry: Registry, cli: str) -> dict[str, tuple[str, tuple[Call, ...]]]:
    """Each override command as ``cli`` runs it: the text docgen prints, and the call."""
    product: Product = registry.product
    out = {}
    for profile in registry.profiles.values():
        for override in profile.overrides:
            env = {
                **product.provider_env,
                product.model_env: profile.model.id,
                product.extra_args_env: json.dumps(
                    list(override.tokens), separators=(",", ":"), ensure_ascii=False
                ),
            }
            call = Call((cli, *product.onboard.split(" ")), frozenset(env.items()))
            text = override_command(product, profile, override, cli)
            out[f"{profile.id}+{override.id}"] = (text, (call,))
    return out


def shell_blocks(text: str) -> list[str]:
    return re.findall(r"^```bash\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)


def check_project(project: Project, tmp_path: Path) -> None:
    """Build ``project``; every command docgen printed runs as intended."""
    built = invoke_cli(["--root", str(project.root), "build"])
    assert built.exit_code == 0, built.output
    registry = load(project.root / "profiles.yaml")
    clis = [agent.cli for agent in registry.agents]
    steps = {step.run[0] for step in registry.launcher.steps}
    shell = Shell(tmp_path / "shell", ["vllm", *clis, *steps])
    serve = intended_serve(registry)
    seen_serve: set[tuple[Call, ...]] = set()
    for profile in registry.profiles.values():
        for override in (None, *profile.overrides):
            command = serve_command(profile, override)
            want = serve[f"{profile.id}+{override.id if override else ''}"]
            for multiline in (False, True):
                assert shell.run(command.shell(multiline=multiline)) == want
            args = ["serve-command", profile.id, *(["--override", override.id] if override else [])]
            printed = invoke_cli(["--root", str(project.root), *args])
            assert printed.exit_code == 0, printed.output
            assert shell.run(printed.stdout) == want
            as_json = invoke_cli(["--root", str(project.root), *args, "--format", "json"])
            shown = json.loads(as_json.stdout)
            assert [*shown["before"], shown["argv"]] == [list(call.argv) for call in want]
    for agent in registry.agents:
        overrides = intended_overrides(registry, agent.cli)
        for text, call in overrides.values():
            assert shell.run(text) == call
            extra = dict(call[0].env)[registry.product.extra_args_env]
            assert all(isinstance(token, str) for token in json.loads(extra))
        variants = sorted((project.root / "docs/_build/agent-variants").rglob(f"*.{agent.id}.*"))
        assert variants, agent.id
        seen_override: set[tuple[Call, ...]] = set()
        for page in variants:
            for block in shell_blocks(page.read_text("utf-8")):
                if "vllm serve" in block:
                    call = shell.run(block)
                    assert call in serve.values(), (page, block)
                    seen_serve.add(call)
                elif registry.product.extra_args_env in block:
                    call = shell.run(block)
                    assert call in [c for _, c in overrides.values()], (page, block)
                    seen_override.add(call)
        assert seen_override == {c for _, c in overrides.values()}, agent.id
    assert seen_serve, "no vllm serve command in any variant"


def test_the_worked_examples_printed_commands_run_as_intended(example, tmp_path):
    check_project(example, tmp_path)


def test_a_hostile_registrys_printed_commands_run_as_intended(make_project, tmp_path):
    project = make_project(registry=HOSTILE_REGISTRY, templates={"commands.mdx.j2": TEMPLATE})
    check_project(project, tmp_path)
    registry = load(project.root / "profiles.yaml")
    profile = registry.profiles["vllm.box.tiny"]
    assert dict(profile.env)["ACME_SECRET"] == HOSTILE
    assert HOSTILE in serve_command(profile).argv
    assert registry.product.provider_env["ACME_PROVIDER"] == HOSTILE


def test_serve_command_with_extra_args_runs_as_intended(make_project, tmp_path):
    project = make_project(registry=HOSTILE_REGISTRY)
    extra = json.dumps(["--download-dir", HOSTILE_LINE])
    args = ["--root", str(project.root), "serve-command", "vllm.box.tiny", "--override", "small"]
    printed = invoke_cli([*args, "--extra-args-json", extra])
    as_json = invoke_cli([*args, "--extra-args-json", extra, "--format", "json"])
    assert printed.exit_code == as_json.exit_code == 0, printed.output + as_json.output
    (call,) = Shell(tmp_path / "shell", ["vllm"]).run(printed.stdout)
    argv = json.loads(as_json.stdout)["argv"]
    assert call.argv == tuple(argv) and argv[-2:] == ["--download-dir", HOSTILE_LINE]
    assert dict(call.env) == {"ACME_SECRET": HOSTILE, "ACME_NUM": "3"}


def test_the_onboard_words_and_env_names_are_printed_as_they_are(make_project):
    """Quoting leaves safe words alone: the printed command reads as the registry wrote it."""
    project = make_project(registry=HOSTILE_REGISTRY, templates={"commands.mdx.j2": TEMPLATE})
    registry = load(project.root / "profiles.yaml")
    profile = registry.profiles["vllm.box.tiny"]
    text = override_command(registry.product, profile, profile.overrides[0], "$$acme")
    assert text.endswith("\\\n  $$acme setup --yes --mode=a,b:c/d@e%f+g")
    assert "\n  ACME_MODEL=tiny \\\n" in text
    assert text.startswith("ACME_PROVIDER='it'\"'\"'s ")


#: Registry edits that once printed a second command (or a different one): each is now
#: refused with a located error, or else its commands must run exactly as intended.
SMUGGLED = {
    "profile-env-name": ("    image: img\n", '    image: img\n    env: {"reboot\\n": "1"}\n'),
    "model-env": ("  model_env: ACME_MODEL", '  model_env: "reboot\\n"'),
    "extra-args-env": ("  extra_args_env: ACME_EXTRA_ARGS_JSON", '  extra_args_env: "reboot\\n"'),
    "provider-env-name": (
        "  model_env: ACME_MODEL\n",
        '  model_env: ACME_MODEL\n  provider_env: {"P\\nreboot\\n": x}\n',
    ),
    "agent-cli": ("    cli: acme-beta\n", '    cli: "reboot\\n"\n'),
    "onboard": (
        "  model_env: ACME_MODEL\n",
        "  model_env: ACME_MODEL\n  onboard: onboard; reboot\n",
    ),
    "hf": ("    hf: acme/Tiny-1B", '    hf: "acme/Tiny-1B\\nreboot"'),
    "served-name": ("    label: Tiny 1B\n", '    label: Tiny 1B\n    served_name: "tiny\\a"\n'),
    "arg-value": (
        "      max-num-seqs: 2\n",
        '      max-num-seqs: 2\n      chat-template: "a\\rb"\n',
    ),
    "env-value": ("    image: img\n", '    image: img\n    env: {A: "a\\u202eb"}\n'),
}


@pytest.mark.parametrize("edit", list(SMUGGLED))
def test_a_smuggled_command_is_refused_or_runs_as_intended(make_project, tmp_path, edit):
    old, new = SMUGGLED[edit]
    assert old in MINIMAL_REGISTRY
    registry = MINIMAL_REGISTRY.replace(old, new, 1)
    project = make_project(registry=registry, templates={"commands.mdx.j2": TEMPLATE})
    before = project.snapshot()
    built = invoke_cli(["--root", str(project.root), "build"])
    if built.exit_code == 0:
        check_project(project, tmp_path)
        return
    assert built.exit_code == 2 and built.stderr.startswith("profiles.yaml:"), built.output
    assert all(
        re.match(r"profiles\.yaml:\d+:\d+: error: ", line) for line in built.stderr.splitlines()
    )
    assert project.snapshot() == before
    printed = invoke_cli(["--root", str(project.root), "serve-command", "vllm.box.tiny"])
    assert (printed.exit_code, printed.stdout) == (2, "")


def test_the_worked_examples_install_command_keeps_a_hostile_agent_value(example, tmp_path):
    """The worked example's template quotes each agent's installer variable
    (``shell_quote``): the installer gets the registry's value, and nothing else runs."""
    example.edit(
        "profiles.yaml",
        "env: {NEMOCLAW_AGENT: hermes}",
        f"env: {{NEMOCLAW_AGENT: {_yaml(HOSTILE)}}}",
    )
    built = invoke_cli(["--root", str(example.root), "build"])
    assert built.exit_code == 0, built.output
    shell = Shell(tmp_path / "shell", ["vllm", "curl", "bash"])
    page = example.read("docs/_build/agent-variants/inference/set-up-vllm.hermes.generated.mdx")
    (install,) = [block for block in shell_blocks(page) if block.startswith("curl ")]
    calls = {argv[0]: (argv, env) for argv, env in shell._run(install)}
    assert calls["curl"][0] == ["curl", "-fsSL", "https://www.nvidia.com/nemoclaw.sh"]
    assert calls["bash"][0] == ["bash"]
    assert calls["bash"][1]["NEMOCLAW_AGENT"] == HOSTILE
    assert calls["bash"][1]["NEMOCLAW_PROVIDER"] == "install-vllm"
