"""Tests of docgen.vllm.flag: flags built from catalog records and from a type alone."""

from __future__ import annotations

from dataclasses import replace

import pytest

from docgen.vllm.catalog import Catalog
from docgen.vllm.flag import Flag, typed_flag


def test_records_build_the_same_flag_as_the_constructor() -> None:
    catalog = Catalog.load()
    for name in catalog.names():
        flag = catalog.lookup(name)
        assert flag is not None, name
        assert replace(flag) == flag
        assert hash(replace(flag)) == hash(flag)


def test_a_record_s_bounds_follow_the_message_order_and_unknown_keys_are_refused() -> None:
    flag = Flag.from_record("x", {"type": "float", "constraints": {"le": 1, "gt": 0}})
    assert flag == Flag("x", "float", constraints=(("gt", 0), ("le", 1)))
    with pytest.raises(ValueError, match=r"record of '--x' has unknown keys: \['colour'\]"):
        Flag.from_record("x", {"type": "str", "colour": "red"})


def test_a_typed_flag_takes_its_value_shape_from_the_type() -> None:
    listed = typed_flag("xs", "list")
    assert (listed.nargs, listed.item_type, listed.list_form) == ("+", "str", "nargs")
    choice = typed_flag("mode", "choice", choices=("a", "b"))
    assert (choice.value_type, choice.choices_enforced) == ("str", True)
    assert typed_flag("cfg", "json").json_dotted_keys
    assert typed_flag("on", "bool", ("no-on",)) == Flag("on", "bool", negations=("no-on",))
    assert typed_flag("s", "str", choices=("a",)).choices_enforced is False
