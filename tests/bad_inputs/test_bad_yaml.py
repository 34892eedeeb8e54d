"""Registry files that are not readable YAML: each gives an exact located error and changes
nothing.
"""

from __future__ import annotations

import pytest
from bad_input_cases import BUILD, Case, arg, check, param, reg
from conftest import MINIMAL_REGISTRY

COMPLEX_KEY = (
    "a mapping key is a list or a mapping (written with `?`); a key must be a plain value: "
    "text, a number, true, false or null"
)
NO_NUMBER = (
    "'{0}' reads as a number in YAML 1.2, but no number can be read from it: quote it "
    '("{0}") to make it text'
)
REGISTRY_SYNTAX = [
    Case(
        "yaml-unclosed-flow-list",
        BUILD,
        (
            "profiles.yaml:21:1: error: expected ',' or ']', but got '<scalar>' (in a flow "
            "sequence that starts at 19:8)",
        ),  # fmt: skip
        reg("hosts:\n", "hosts: [\n"),
    ),
    Case(
        "yaml-duplicate-flag",
        BUILD,
        ("profiles.yaml:42:7: error: duplicate key 'max-num-seqs' (first defined on line 41)",),
        arg("max-num-seqs: 2\n      max-num-seqs: 4"),
    ),
    Case(
        "yaml-apostrophe-is-no-open-quote",  # the slip is the line that closes early
        BUILD,
        (
            "profiles.yaml:31:17: error: expected <block end>, but found '<scalar>' (in a "
            "block mapping that starts at 29:5)",
        ),
        reg("    label: Tiny 1B", "    label: Acme's Tiny 1B").replace(
            "    notes: Box default.", "    notes: 'Don't share'"
        ),
    ),
    Case(
        "yaml-tab-indentation",
        BUILD,
        ("profiles.yaml:30:1: error: tab characters are not allowed for indentation; use spaces",),
        reg("    label: Tiny 1B", "\tlabel: Tiny 1B"),
    ),
    Case(
        "yaml-mapping-value-in-scalar",
        BUILD,
        (
            "profiles.yaml:30:16: error: a 'key: value' cannot start here: check the line's "
            "indentation, or quote a value that holds ': '",
        ),  # fmt: skip
        reg("    label: Tiny 1B", "    label: Tiny: 1B"),
    ),
    Case(
        "yaml-unclosed-quote",
        BUILD,
        ("profiles.yaml:30:12: error: this quoted string is never closed",),
        reg("    label: Tiny 1B", '    label: "Tiny 1B'),
    ),
    Case(  # the file ends inside the list: it is located where it opens, not past the end
        "yaml-flow-list-open-at-end-of-file",
        BUILD,
        ("profiles.yaml:50:8: error: this '[' list is never closed: the file ends before its ']'",),
        MINIMAL_REGISTRY + "extra: [a, b\n",
    ),
    Case(  # nothing after the '[': the parser still waits for the list's first item
        "yaml-flow-list-opened-last-in-the-file",
        BUILD,
        ("profiles.yaml:50:8: error: this '[' list is never closed: the file ends before its ']'",),
        MINIMAL_REGISTRY + "extra: [\n",
    ),
    Case(
        "yaml-flow-mapping-open-at-end-of-file",
        BUILD,
        (
            "profiles.yaml:50:8: error: this '{' mapping is never closed: the file ends before "
            "its '}'",
        ),
        MINIMAL_REGISTRY + "extra: {a: 1,\n  b: 2\n",
    ),  # fmt: skip
    Case(  # on the last line, with no newline after it: where it opens, not where it ends
        "yaml-quote-open-on-the-last-line",
        BUILD,
        ("profiles.yaml:50:8: error: this quoted string is never closed",),
        MINIMAL_REGISTRY + 'extra: "abc',
    ),
    Case(
        "yaml-quote-closed-on-a-later-line",  # the slip, where the string opens
        BUILD,
        (
            'profiles.yaml:30:12: error: this quoted string runs on to the " on line 31: is '
            'its closing " missing?',
        ),
        reg("    label: Tiny 1B", '    label: "Tiny 1B').replace(
            "    notes: Box default.", '    notes: "Box default."'
        ),
    ),  # fmt: skip
    Case(
        "yaml-key-without-colon",  # the parser stops on the next line; the key is here
        BUILD,
        ("profiles.yaml:30:5: error: this key has no ':' after it",),
        reg("    label: Tiny 1B", "    label Tiny 1B"),
    ),
    Case(
        "yaml-line-indented-less",
        BUILD,
        (
            "profiles.yaml:30:4: error: this line is not indented as the block it is in (in a "
            "block mapping that starts at 28:3)",
        ),
        reg("    label: Tiny 1B", "   label: Tiny 1B"),
    ),  # fmt: skip
    Case(
        "yaml-line-indented-more",
        BUILD,
        (
            "profiles.yaml:30:11: error: a 'key: value' cannot start here: check the line's "
            "indentation, or quote a value that holds ': '",
        ),
        reg("    label: Tiny 1B", "     label: Tiny 1B"),
    ),  # fmt: skip
    Case(  # ruamel.yaml would keep the tag as an object the schema words oddly
        "yaml-local-tag",
        BUILD,
        (
            "profiles.yaml:30:12: error: the YAML tag '!label' has no meaning in the registry; "
            "remove it (a value is a string, a number, a boolean, null, a list or a mapping)",
        ),
        reg("    label: Tiny 1B", "    label: !label Tiny 1B"),
    ),  # fmt: skip
    Case(
        "yaml-python-tag",
        BUILD,
        (
            "profiles.yaml:41:21: error: the YAML tag '!!python/object/apply:os.system' has no "
            "meaning in the registry; remove it (a value is a string, a number, a boolean, null, "
            "a list or a mapping)",
        ),
        arg("max-num-seqs: !!python/object/apply:os.system [echo hi]"),
    ),  # fmt: skip
    Case(
        "yaml-set-tag",
        BUILD,
        (
            "profiles.yaml:41:21: error: the YAML tag '!!set' has no meaning in the registry; "
            "remove it (a value is a string, a number, a boolean, null, a list or a mapping)",
        ),
        arg("max-num-seqs: !!set {a, b}"),
    ),  # fmt: skip
    Case(
        "yaml-second-document",
        BUILD,
        (
            "profiles.yaml:51:1: error: a second YAML document starts here: this file is one "
            "document; remove the '---' (or '...') line and what follows, or merge it into the "
            "first",
        ),
        MINIMAL_REGISTRY + "\n---\nschema: 1\n",
    ),  # fmt: skip
    Case(
        "yaml-toml-instead",
        BUILD,
        (
            "profiles.yaml:2:1: error: this line is not YAML (a '[section]' header is TOML or "
            "INI); this file is a YAML mapping of 'key: value' lines",
        ),
        "[tool]\nx = 1\n",
    ),  # fmt: skip
    Case(
        "yaml-undefined-alias",
        BUILD,
        ("profiles.yaml:31:12: error: found undefined alias 'nowhere'",),
        reg("    notes: Box default.", "    notes: *nowhere"),
    ),
    Case(
        "yaml-recursive-alias",
        BUILD,
        ("profiles.yaml:19:8: error: recursive YAML alias: a node contains itself",),
        reg("hosts:\n  box: {name: Big Box, arch: amd64}", "hosts: &h\n  box: *h"),
    ),
    Case(
        "yaml-invalid-utf8",
        BUILD,
        ("profiles.yaml:20:19: error: invalid UTF-8 byte 0xff",),
        MINIMAL_REGISTRY.encode().replace(b"Big Box", b"Big \xff Box"),
    ),
    Case(
        "yaml-empty",
        BUILD,
        ("profiles.yaml:1:1: error: the file is empty; expected a mapping",),
        "",
    ),
    Case(
        "yaml-top-level-list",
        BUILD,
        ("profiles.yaml:1:1: error: the registry must be a mapping of sections",),
        "- schema\n- product\n",
    ),
    # A list or a mapping as a key (``?``) reached json.dumps and crashed every command.
    Case(
        "yaml-list-as-key-in-a-json-value",
        BUILD,
        (f"profiles.yaml:41:38: error: {COMPLEX_KEY}",),
        arg("override-generation-config: {? [1]: 1}"),
    ),
    Case(
        "yaml-mapping-as-key-nested",
        BUILD,
        (f"profiles.yaml:43:13: error: {COMPLEX_KEY}",),
        arg("override-generation-config:\n        a:\n          ? {x: 1}\n          : 1"),
    ),
    # ruamel.yaml's scanner fails on an escape past U+10FFFF with Python's own ValueError
    # (past it) or OverflowError (past a C int): both were internal errors (exit 3).
    Case(
        "yaml-escape-past-the-last-character",
        BUILD,
        (
            "profiles.yaml:30:18: error: the escape '\\U00110000' names no character (the "
            "last is U+10FFFF): write the character itself, or an escape up to \\U0010FFFF",
        ),
        reg("    label: Tiny 1B", '    label: "Tiny \\U00110000"'),
    ),
    Case(
        "yaml-escape-after-an-escaped-backslash",  # at the \U, not the \\ before it
        BUILD,
        (
            "profiles.yaml:30:20: error: the escape '\\U00110000' names no character (the "
            "last is U+10FFFF): write the character itself, or an escape up to \\U0010FFFF",
        ),
        reg("    label: Tiny 1B", '    label: "Tiny \\\\\\U00110000"'),
    ),
    Case(
        "yaml-escape-past-a-c-int",  # after an escaped backslash, which escapes nothing
        BUILD,
        (
            "profiles.yaml:30:30: error: the escape '\\UFFFFFFFF' names no character (the "
            "last is U+10FFFF): write the character itself, or an escape up to \\U0010FFFF",
        ),
        reg("    label: Tiny 1B", '    label: "Tiny \\\\U00110000 \\UFFFFFFFF"'),
    ),
    # ruamel.yaml's YAML 1.2 resolver reads signs, dots, underscores and a base prefix as
    # a number its constructor cannot convert (IndexError, ValueError: exit 3, a hostile
    # round); the fast path hands each to it, so both paths say this
    Case(
        "yaml-sign-and-underscore-is-no-number",
        BUILD,
        (f"profiles.yaml:30:12: error: {NO_NUMBER.format('-_')}",),
        reg("    label: Tiny 1B", "    label: -_"),
    ),
    Case(
        "yaml-dot-and-underscores-in-a-flow-list-is-no-number",
        BUILD,
        (f"profiles.yaml:30:16: error: {NO_NUMBER.format('.__')}",),
        reg("    label: Tiny 1B", "    label: [1, .__]"),
    ),
    Case(
        "yaml-base-prefix-alone-is-no-number-after-an-anchor",  # ruamel reads the file
        BUILD,
        (f"profiles.yaml:30:16: error: {NO_NUMBER.format('0x_')}",),
        reg("    label: Tiny 1B", "    label: &a [0x_]"),
    ),
    Case(  # a key ruamel.yaml cannot hash: TypeError, exit 3 (a hostile round)
        "yaml-list-of-a-mapping-as-key",
        BUILD,
        (f"profiles.yaml:51:5: error: {COMPLEX_KEY}",),
        MINIMAL_REGISTRY + "extra:\n  ? [{a: 1}]\n  : x\n",
    ),
    Case(
        "yaml-list-as-key-in-shared-args",
        BUILD,
        (f"profiles.yaml:52:7: error: {COMPLEX_KEY}",),
        MINIMAL_REGISTRY + "launcher:\n  shared_args:\n    ? [a]\n    : 1\n",
    ),
]

CASES = REGISTRY_SYNTAX


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_bad_input_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)
