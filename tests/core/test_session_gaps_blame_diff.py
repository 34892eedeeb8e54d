"""Decisions of this session's blame, diff and error wording that a mutation round found
no test of."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY

from docgen.blame import _count, _registry_blame
from docgen.registry.builder import _worded
from docgen.registry.model import Source


@pytest.mark.parametrize(
    ("text", "haystack", "count"),
    [
        ("2", "Step 2.", 0),  # a number before a dot: the dot may be its own
        ("Fast mode", "Uses Fast mode. Then more", 1),  # a sentence's dot, then a blank
        ("Fast mode", "Uses Fast mode.x", 0),
        ("Fast mode", "Uses Fast mode.", 1),
    ],
)
def test_a_sentences_dot_ends_a_worded_value_only(text, haystack, count):
    assert _count(text, haystack) == count


def test_a_value_that_is_no_argument_is_not_found_in_an_empty_array():
    """A label is no argument: it has no JSON array form to count (an empty one would be
    found at every place)."""
    label = Source(("models", "tiny", "label"), None, "Tiny 1B")
    added = 'ARGS=\'["--max-num-seqs","2"]\''
    kept = frozenset({(("x",), "y")})
    assert _registry_blame([label], added, "ARGS=''", [], kept) == []


@pytest.mark.parametrize(
    ("text", "worded"),
    [("22.75", False), ("1_000", False), ("1e5", False), ("-3", False), ("true", False),
     ("22.75 GiB", True), ("20/20", True), ("+0.62 GiB", True)],
)  # fmt: skip
def test_only_a_result_of_words_is_a_blame_node(text, worded):
    assert _worded(text) is worded


def _diff(make_project, run, old: str, new: str) -> list[str]:
    project = make_project(registry=new, files={"old.yaml": old})
    result = run(project, "diff", "--since-file", "old.yaml")
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


OTHER = (
    "  vllm.box.other:\n    model: tiny\n    host: box\n    selection: explicit-only\n"
    "    args:\n      max-num-seqs: 4\n"
)


def test_a_shared_arg_that_changes_one_profiles_words_is_a_launcher_change(make_project, run):
    """One profile gave it 2, another 4; both now take the launcher's 2."""
    old = MINIMAL_REGISTRY + OTHER.replace(
        "      max-num-seqs: 4\n", "      max-num-seqs: 4\n      enforce-eager: true\n"
    )
    new = MINIMAL_REGISTRY.replace("      max-num-seqs: 2\n", "") + OTHER.replace(
        "      max-num-seqs: 4\n", "      enforce-eager: true\n"
    )
    new += "launcher:\n  shared_args: {max-num-seqs: 2}\n"
    found = _diff(make_project, run, old, new)
    assert any("launcher-changed launcher --max-num-seqs" in line for line in found), found


def test_a_moved_arg_the_model_already_gave_is_arg_moved(make_project, run):
    """The launcher's ``served-model-name`` gives the words the model's ``served_name``
    now gives."""
    old = MINIMAL_REGISTRY + "launcher:\n  shared_args: {served-model-name: tiny}\n"
    new = MINIMAL_REGISTRY.replace(
        "    label: Tiny 1B\n", "    label: Tiny 1B\n    served_name: tiny\n"
    )
    found = _diff(make_project, run, old, new)
    assert any("arg-moved launcher --served-model-name" in line for line in found), found


def test_an_arg_moved_while_a_profile_is_added_is_arg_moved(make_project, run):
    old = MINIMAL_REGISTRY
    new = (
        MINIMAL_REGISTRY.replace("      max-num-seqs: 2\n", "")
        + OTHER.replace("      max-num-seqs: 4\n", "      enforce-eager: true\n")
        + "launcher:\n  shared_args: {max-num-seqs: 2}\n"
    )
    found = _diff(make_project, run, old, new)
    assert any("arg-moved launcher --max-num-seqs" in line for line in found), found
