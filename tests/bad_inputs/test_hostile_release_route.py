"""Settings whose text becomes a route or a file name (``release_route``, ``variant_pattern``,
``changelog_link``, the ``[tool.docgen.routes]`` table): outside their fields they hold
only route-safe characters (ASCII letters, digits, ``. _ ~ / -``), and a route is names
joined by single slashes, so no setting can end a link in the changelog overview and
start another (``) [x](javascript:...)``), climb out with ``..`` or name another host.
"""

from __future__ import annotations

import pytest
from bad_input_cases import BUILD, Case, check, entry, param

SAFE = "use only ASCII letters, digits, . _ ~ / -"
ROUTE_FIELDS = ", and the fields {year}, {month} and {day}"
VARIANT_FIELDS = ", and the fields {dir}, {stem} and {agent}"
ROUTE_SHAPE = (
    "a route is names joined by single slashes, none at the start or end, and no name is . or .."
)


def route(pattern: str, expected: str, name: str) -> Case:
    return Case(
        f"release-route-{name}",
        BUILD,
        (f"docgen.toml:1:1: error: {expected}",),
        files={"docgen.toml": f"release_route = '{pattern}'\n", **entry()},
    )


def held(key: str, char: str, fields: str = "") -> str:
    return f"setting '{key}' holds {char!r}, which a route or file name cannot hold; {SAFE}{fields}"


CASES = [
    route(
        "release-notes/{year}/{month}/{day}) [x](javascript:alert(1)",
        held("release_route", ")", ROUTE_FIELDS),
        "link-injection",
    ),
    route("https://evil.example/{year}", held("release_route", ":", ROUTE_FIELDS), "url"),
    route("release notes/{year}", held("release_route", " ", ROUTE_FIELDS), "space"),
    route("r/{year}/{{y}}", held("release_route", "{", ROUTE_FIELDS), "literal-brace"),
    route(
        "../../x/{year}",
        f"setting 'release_route' is the route '../../x/{{year}}'; {ROUTE_SHAPE}",
        "climbs-out",
    ),
    route(
        "/r/{year}", f"setting 'release_route' is the route '/r/{{year}}'; {ROUTE_SHAPE}", "leading"
    ),
    route(
        "r//{year}", f"setting 'release_route' is the route 'r//{{year}}'; {ROUTE_SHAPE}", "empty"
    ),
    route(
        "release-notes/./{year}/{month}/{day}",
        f"setting 'release_route' is the route 'release-notes/./{{year}}/{{month}}/{{day}}'; "
        f"{ROUTE_SHAPE}",
        "a-dot-name",
    ),
    route(
        "r/{year}/{month}",
        "setting 'release_route' must name {year}, {month} and {day}, with text between any "
        "two of them (such as 'release-notes/{year}/{month}/{day}'): each release needs a "
        "route of its own, got 'r/{year}/{month}'",
        "without-the-day",
    ),
    route(
        "r/{year}/{month}{day}",
        "setting 'release_route' must name {year}, {month} and {day}, with text between any "
        "two of them (such as 'release-notes/{year}/{month}/{day}'): each release needs a "
        "route of its own, got 'r/{year}/{month}{day}'",
        "fields-side-by-side",
    ),
    route(  # digits alone between two fields keep no days apart: 2026011 is two days
        "r/{year}0{month}/{day}",
        "setting 'release_route' must name {year}, {month} and {day}, with text between any "
        "two of them (such as 'release-notes/{year}/{month}/{day}'): each release needs a "
        "route of its own, got 'r/{year}0{month}/{day}'",
        "only-digits-between",
    ),
    Case(
        "variant-pattern-with-a-parenthesis",
        BUILD,
        (f"docgen.toml:1:1: error: {held('variant_pattern', '(', VARIANT_FIELDS)}",),
        files={"docgen.toml": "variant_pattern = '{dir}/{stem}(x).{agent}.mdx'\n"},
    ),
    Case(
        "changelog-link-with-a-space",
        BUILD,
        (f"docgen.toml:1:1: error: {held('changelog_link', ' ')}",),
        files={"docgen.toml": "changelog_link = 'docs/a b.mdx'\n"},
    ),
    Case(
        "mapped-route-with-a-link",
        BUILD,
        (f"docgen.toml:2:2: error: {held('routes.docs/models.mdx', ')')}",),
        files={"docgen.toml": "[routes]\n'docs/models.mdx' = 'x) [a](javascript:alert(1)'\n"},
    ),
]


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_a_route_setting_with_unsafe_text_is_a_located_error(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)


def test_route_safe_settings_still_build(make_project, run) -> None:
    project = make_project(
        files={
            "docgen.toml": "release_route = 'releases/{year}-{month}-{day}'\n"
            "variant_pattern = '{dir}/./{stem}.{agent}~v2.mdx'\n"
            "[routes]\n'docs/other.mdx' = '/all-models/'\n",
            **entry(),
        }
    )
    assert run(project, "build").exit_code == 0
    overview = (project.root / "changelog/overview.mdx").read_text("utf-8")
    assert "](/guide/alpha/releases/2026-1-2)" in overview
    assert run(project, "check").exit_code == 0
