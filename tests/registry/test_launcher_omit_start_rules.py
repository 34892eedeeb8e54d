"""vLLM's start-time rules judge the command a profile runs: the launcher's shared args it
keeps, not the ones its ``omit_args`` leaves out."""

from __future__ import annotations

from conftest import MINIMAL_REGISTRY
from test_launcher import problems

SHARED = "launcher:\n  shared_args: {enable-auto-tool-choice: true, tool-call-parser: hermes}\n"


def test_a_shared_arg_the_profile_omits_is_not_in_its_command():
    omits = MINIMAL_REGISTRY.replace(
        "    image: img\n", "    image: img\n    launcher: {omit_args: [tool-call-parser]}\n"
    )
    found = problems(omits + SHARED)
    assert len(found) == 1
    assert found[0].endswith(
        "error: vLLM refuses to start profile 'vllm.box.tiny': --enable-auto-tool-choice "
        "requires --tool-call-parser"
    )
    assert problems(MINIMAL_REGISTRY + SHARED) == []
