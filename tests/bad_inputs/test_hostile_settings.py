"""Settings docgen fills in with ``str.format`` (``variant_pattern``, ``release_route``):
a field it does not fill, an index, an attribute, a conversion, a format spec or an
unmatched brace is a located settings error when the settings load, so formatting them
later can neither crash, read an attribute nor write a gigabyte of padding.
"""

from __future__ import annotations

import pytest
from bad_input_cases import BUILD, Case, check, entry, param
from conftest import MINIMAL_REGISTRY

from docgen.config import load_project

VARIANT = (
    "setting 'variant_pattern' may use only the fields {dir}, {stem} and {agent} "
    "(no index, attribute, conversion or format spec), got "
)
ROUTE = (
    "setting 'release_route' may use only the fields {year}, {month} and {day} "
    "(no index, attribute, conversion or format spec), got "
)


def variant(pattern: str, expected: str, name: str) -> Case:
    return Case(
        f"variant-pattern-{name}",
        BUILD,
        (f"docgen.toml:1:1: error: {expected}",),
        files={"docgen.toml": f'variant_pattern = "{pattern}"\n'},
    )


def route(pattern: str, expected: str, name: str) -> Case:
    return Case(
        f"release-route-{name}",
        BUILD,
        (f"docgen.toml:1:1: error: {expected}",),
        files={"docgen.toml": f'release_route = "{pattern}"\n', **entry()},
    )


CASES = [
    variant("{dir}/{stem}.{nope}.mdx", VARIANT + "'{nope}'", "unknown-field"),
    variant("{dir}/{stem}.{0}.mdx", VARIANT + "'{0}'", "index"),
    variant("{dir}/{stem}.{}.mdx", VARIANT + "'{}'", "auto-number"),
    variant(
        "{dir}/{stem}.{agent.__class__.__name__}.mdx",
        VARIANT + "'{agent.__class__.__name__}'",
        "attribute",
    ),
    variant("{dir}/{stem}.{agent[0]}.mdx", VARIANT + "'{agent[0]}'", "item"),
    variant("{dir}/{stem}.{agent!r}.mdx", VARIANT + "'{agent!r}'", "conversion"),
    variant("{dir}/{stem}.{agent!x}.mdx", VARIANT + "'{agent!x}'", "bad-conversion"),
    variant("{dir}/{stem}.{agent:>999999999}.mdx", VARIANT + "'{agent:>999999999}'", "huge-width"),
    variant(
        "{dir}/{stem}.{agent",
        "setting 'variant_pattern' has an unmatched brace; its fields are {dir}, {stem} "
        "and {agent}",
        "open-brace",
    ),
    variant(
        "{dir}/{stem}}.{agent}.mdx",
        "setting 'variant_pattern' has an unmatched brace; its fields are {dir}, {stem} "
        "and {agent}",
        "close-brace",
    ),
    route("release-notes/{nope}", ROUTE + "'{nope}'", "unknown-field"),
    route("release-notes/{0}", ROUTE + "'{0}'", "index"),
    route(
        "release-notes/{year.__class__.__name__}",
        ROUTE + "'{year.__class__.__name__}'",
        "attribute",
    ),
    route("release-notes/{year:>999999999}", ROUTE + "'{year:>999999999}'", "huge-width"),
    route(
        "release-notes/{year",
        "setting 'release_route' has an unmatched brace; its fields are {year}, {month} and {day}",
        "open-brace",
    ),
    Case(
        "path-setting-with-nul",
        BUILD,
        ("docgen.toml:1:1: error: path 'templates\\x00' holds a control character",),
        files={"docgen.toml": 'templates = "templates\\u0000"\n'},
    ),
    Case(
        "path-setting-with-newline",
        BUILD,
        ("docgen.toml:1:1: error: path 'reboot\\n' holds a control character",),
        files={"docgen.toml": 'docs = "reboot\\n"\n'},
    ),
    Case(
        "path-setting-with-a-300-byte-name",
        BUILD,
        ("docgen.toml:1:1: error: path '" + "v" * 77 + "...' has a name longer than 255 bytes",),
        files={"docgen.toml": f'docs = "{"v" * 300}"\n'},
    ),
    Case(
        "registry-flag-with-nul",
        ("--registry", "profiles\x01.yaml", "validate"),
        ("profiles\\x01.yaml: error: path 'profiles\\x01.yaml' holds a control character",),
    ),
    Case(  # the name reached the pages' notices and broke the run when they were encoded
        "registry-flag-not-utf8",
        ("--registry", "p\udcff.yaml", "check"),
        (
            "p\\udcff.yaml: error: path 'p\\udcff.yaml' is no file name: it holds the byte 0xFF, "
            "which is not UTF-8",
        ),
        files={"p\udcff.yaml": MINIMAL_REGISTRY},
    ),
    Case(
        "variant-pattern-in-pyproject",
        BUILD,
        (f"pyproject.toml:3:1: error: {VARIANT}'{{nope}}'",),
        files={"pyproject.toml": '[project]\n[tool.docgen]\nvariant_pattern = "{nope}.mdx"\n'},
    ),
]


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_hostile_setting_is_a_located_error_and_changes_nothing(
    make_project, run, monkeypatch, case
):
    check(case, make_project, run, monkeypatch)


def test_every_field_is_accepted(make_project):
    # A literal brace ('{{') is no longer accepted: these settings become routes and file
    # names, whose text is route-safe (tests/bad_inputs/test_hostile_release_route.py).
    project = make_project(
        files={
            "docgen.toml": 'variant_pattern = "{dir}/x{stem}.{agent}.mdx"\n'
            'release_route = "r/{year}/{month}/{day}/y"\n'
        }
    )
    config = load_project(project.root).config
    assert config.variant_pattern == "{dir}/x{stem}.{agent}.mdx"
    assert config.release_route == "r/{year}/{month}/{day}/y"


def test_an_absolute_registry_flag_is_checked_as_a_relative_one_is(make_project, run):
    """An absolute ``--registry`` inside the root was taken as it was, unchecked."""
    project = make_project(files={"p\x1b.yaml": MINIMAL_REGISTRY})
    before = project.snapshot()
    result = run(project, "--registry", str(project.root / "p\x1b.yaml"), "check")
    assert (result.exit_code, result.stdout) == (2, "")
    shown = f"{project.root}/p\\x1b.yaml"
    assert result.stderr == f"{shown}: error: path 'p\\x1b.yaml' holds a control character\n"
    assert project.snapshot() == before
