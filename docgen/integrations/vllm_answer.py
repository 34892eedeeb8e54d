"""The vLLM probe's JSON answer, checked against the shape ``vllm_probe.answer`` promises
before any of it is read, so an answer of another shape is a clear error."""

from __future__ import annotations

import json
from typing import Any

#: What the probe answers to a request for ``count`` commands.
ANSWER_SHAPE = '{"vllm": "<version>", "results": [...]}, one result per command'
RESULT_SHAPE = '{"ok": true} or {"ok": false, "error": "<message>"}'


def problem(answer: Any, count: int) -> str | None:
    """What is wrong with ``answer`` to a request for ``count`` commands, or None."""
    if not isinstance(answer, dict):
        return f"got {_brief(answer)}; expected {ANSWER_SHAPE}"
    results = answer.get("results")
    if not isinstance(answer.get("vllm"), str) or not isinstance(results, list):
        return f"got {_brief(answer)}; expected {ANSWER_SHAPE}"
    if len(results) != count:
        return f"got {len(results)} results for {count} commands"
    for index, result in enumerate(results, start=1):
        if not _is_result(result):
            return f"result {index} is {_brief(result)}; expected {RESULT_SHAPE}"
    return None


def _is_result(result: Any) -> bool:
    if not isinstance(result, dict):
        return False
    return result.get("ok") is True or (
        result.get("ok") is False and isinstance(result.get("error"), str)
    )


def _brief(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else f"{text[:77]}..."
