"""The nesting limit: located at the first node too deep, however the text is read."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from docgen.errors import RegistryError
from docgen.registry.depth import MAX_DEPTH, check_depth, libyaml_depth_refusal, too_deep
from docgen.registry.source import load_text

DEEP = "k: " + "[" * 100 + "]" * 100 + "\n"
AT_THE_LIMIT = "k: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"


def test_the_first_node_too_deep_is_named():
    with pytest.raises(RegistryError) as info:
        check_depth(DEEP, "p.yaml")
    assert str(info.value) == f"p.yaml:1:{3 + MAX_DEPTH + 1}: error: {too_deep()}"
    assert too_deep() == "YAML nesting deeper than 64 levels"


def test_nesting_up_to_the_limit_passes():
    check_depth(AT_THE_LIMIT, "p.yaml")
    assert load_text(AT_THE_LIMIT, "p.yaml").positions.values[("k",)] == (1, 4)


def test_the_careful_path_checks_depth_before_ruamel_recurses():
    with pytest.raises(RegistryError) as info:
        load_text(DEEP, "p.yaml")
    assert str(info.value) == "p.yaml:1:68: error: YAML nesting deeper than 64 levels"


def refusal(problem: str, index: int) -> SimpleNamespace:
    """A libyaml error as PyYAML raises it, refused at ``index`` of one-line text."""
    mark = SimpleNamespace(index=index, line=0, column=index)
    return SimpleNamespace(problem=problem, problem_mark=mark)


def test_libyaml_refusing_its_own_limit_is_named_at_docgens_node():
    refused = libyaml_depth_refusal(refusal("maximum nesting depth", len(DEEP) - 60), DEEP, "p")
    assert str(refused) == "p:1:68: error: YAML nesting deeper than 64 levels"
    early = libyaml_depth_refusal(refusal("maximum nesting depth", 5), DEEP, "p")
    assert str(early) == "p:1:6: error: YAML nesting deeper than 64 levels"


def test_other_libyaml_errors_are_not_depth_refusals():
    assert libyaml_depth_refusal(refusal("found unexpected end", 5), DEEP, "p") is None
