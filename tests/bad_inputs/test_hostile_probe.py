"""A vLLM environment whose probe answers in the wrong shape (a broken or tampered venv)
is a clear exit-2 error naming its python and the shape docgen expects, never a
traceback. The fake environment's python is a shell script that prints the answer."""

from __future__ import annotations

import json

import pytest

from docgen.integrations import vllm_env

SHAPE = '{"vllm": "<version>", "results": [...]}, one result per command'
RESULT = '{"ok": true} or {"ok": false, "error": "<message>"}'
WRONG = "vLLM's parser gave an answer of the wrong shape"
HINT = "recreate the environment with `docgen verify-vllm --setup`"


@pytest.fixture
def fake_venv(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / vllm_env.MARKER).write_text(json.dumps(vllm_env.wanted()), "utf-8")

    def answering(text: str):
        python = vllm_env.python_of(venv)
        python.write_text(f"#!/bin/sh\ncat >/dev/null\ncat <<'EOF'\n{text}\nEOF\n", "utf-8")
        python.chmod(0o755)
        return venv

    return answering


def answer(results: str) -> str:
    return f'{{"vllm": "0.34.0", "results": {results}}}'


STRING_RESULTS = answer('"x"')


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("[]", f"got []; expected {SHAPE}"),
        ("{}", f"got {{}}; expected {SHAPE}"),
        ('"x"', f'got "x"; expected {SHAPE}'),
        ("12", f"got 12; expected {SHAPE}"),
        (answer('"x"'), f"got {STRING_RESULTS}; expected {SHAPE}"),
        ('{"vllm": 34, "results": []}', f'got {{"vllm": 34, "results": []}}; expected {SHAPE}'),
        (answer("[]"), "got 0 results for 2 commands"),
        (answer("[1, 2]"), f"result 1 is 1; expected {RESULT}"),
        (
            answer('[{"ok": true}, {"ok": false}]'),
            f'result 2 is {{"ok": false}}; expected {RESULT}',
        ),
        (answer('[{"ok": true}, {"ok": "y"}]'), f'result 2 is {{"ok": "y"}}; expected {RESULT}'),
    ],
)
def test_a_probe_answer_of_the_wrong_shape_is_exit_2(make_project, run, fake_venv, text, detail):
    venv = fake_venv(text)
    result = run(make_project(), "verify-vllm", "--venv", str(venv))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [
        f"{vllm_env.python_of(venv)}: error: {WRONG} ({detail}); {HINT}"
    ]


def test_a_probe_answer_with_a_5000_digit_number_is_exit_2(make_project, run, fake_venv):
    venv = fake_venv("9" * 5000)
    result = run(make_project(), "verify-vllm", "--venv", str(venv))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.startswith(f"{vllm_env.python_of(venv)}: error: vLLM's parser did not run")


def test_a_well_formed_answer_is_read(make_project, run, fake_venv):
    ok = answer('[{"ok": true}, {"ok": true}]')
    result = run(make_project(), "verify-vllm", "--venv", str(fake_venv(ok)))
    assert result.exit_code == 0, result.output
