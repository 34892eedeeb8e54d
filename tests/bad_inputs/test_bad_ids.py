"""Registry ids that could leave the output folder or break a route: each gives an exact
located error and changes nothing.
"""

from __future__ import annotations

import pytest
from bad_input_cases import BUILD, ID_RULE, Case, check, param, reg

IDS = [
    Case(
        "id-with-slash",
        BUILD,
        (f"profiles.yaml:33:3: error: invalid id 'vllm/box/tiny' in profiles: {ID_RULE}",),
        reg("  vllm.box.tiny:", "  vllm/box/tiny:"),
    ),
    Case(
        "id-with-dotdot",
        BUILD,
        (f"profiles.yaml:33:3: error: invalid id '../../etc' in profiles: {ID_RULE}",),
        reg("  vllm.box.tiny:", "  ../../etc:"),
    ),
    Case(
        "id-absolute-path",
        BUILD,
        (f"profiles.yaml:33:3: error: invalid id '/tmp/evil' in profiles: {ID_RULE}",),
        reg("  vllm.box.tiny:", "  /tmp/evil:"),
    ),
    Case(
        "id-uppercase-space",
        BUILD,
        (f"profiles.yaml:33:3: error: invalid id 'Vllm Box' in profiles: {ID_RULE}",),
        reg("  vllm.box.tiny:", "  Vllm Box:"),
    ),
    Case(
        "model-slug-with-slash",
        BUILD,
        (
            f"profiles.yaml:28:3: error: invalid id 'acme/tiny' in models: {ID_RULE}",
            f"profiles.yaml:34:12: error: profiles.vllm.box.tiny.model 'acme/tiny' is malformed: "
            f"{ID_RULE}",
        ),
        reg("  tiny:\n", "  acme/tiny:\n").replace("model: tiny", "model: acme/tiny"),
    ),
    Case(
        "override-id-with-slash",
        BUILD,
        (
            "profiles.yaml:44:7: error: invalid id '../small' in "
            f"profiles.vllm.box.tiny.overrides: {ID_RULE}",
        ),
        reg("      small:", "      ../small:"),
    ),
    Case(
        "host-id-too-long",
        BUILD,
        (
            "profiles.yaml:20:3: error: a key of hosts is 201 characters long; at most 200",
            "profiles.yaml:35:11: error: profile 'vllm.box.tiny' names unknown host 'box'",
        ),
        reg("  box: {", "  " + "b" * 201 + ": {"),
    ),
]

CASES = IDS


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_bad_input_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)
