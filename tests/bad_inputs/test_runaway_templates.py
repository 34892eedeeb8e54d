"""Templates are code, but a runaway one still ends quickly as a located template error:
one operation that would build a huge string, list or integer (which no render deadline
can interrupt, being one C-level step) is refused before it runs, and running out of
memory or recursion is a template error at the template's line."""

from __future__ import annotations

import time

import pytest
from bad_input_cases import BUILD, Case, check, param, template

from docgen.render import environment

LIMIT = "past docgen's limit for one template operation"
HEAD = "---\ntitle: x\n---\n\n"


def runaway(name: str, body: str, what: str) -> Case:
    return Case(
        name,
        BUILD,
        (f"templates/models.mdx.j2:5: error: template failed: {what}, {LIMIT}",),
        templates=template(f"{HEAD}{body}\n"),
    )


STRING = "a string of more than 10,000,000 characters"
BITS = "an integer of more than 100,000 bits"
LIST = "a list of more than 10,000,000 items"
RANGE = "a range of more than 10,000,000 items"
CASES = [
    runaway("string-times-ten-billion", "{{ 'x' * 10**10 }}", f"'*' would build {STRING}"),
    runaway("ten-billion-times-string", "{{ 10000000000 * 'x' }}", f"'*' would build {STRING}"),
    runaway("list-times-ten-billion", "{{ [0] * 10**10 }}", f"'*' would build {LIST}"),
    runaway("tower-of-powers", "{{ (7 ** (7 ** 10)) % 10 }}", f"'**' would build {BITS}"),
    runaway("huge-power-literal", "{{ 2 ** 100000000000 }}", f"'**' would build {BITS}"),
    runaway(
        "squaring-in-a-loop",
        "{% set ns = namespace(x=2 ** 60000) %}{% for _ in range(5) %}"
        "{% set ns.x = ns.x * ns.x %}{% endfor %}{{ ns.x % 7 }}",
        f"'*' would build {BITS}",
    ),
    runaway("percent-width", "{{ '%0999999999d' % 1 }}", f"'%' would build {STRING}"),
    runaway("percent-star-width", "{{ '%*d' % (999999999, 1) }}", f"'%' would build {STRING}"),
    runaway("format-filter", "{{ '%999999999s'|format('x') }}", f"'%' would build {STRING}"),
    runaway("str-format", "{{ '{:>9999999999}'.format(1) }}", f"'format' would build {STRING}"),
    runaway(
        "str-format-nested-width",
        "{{ '{:>{w}}'.format(1, w=10**10) }}",
        f"'format' would build {STRING}",
    ),
    runaway("ljust", "{{ 'x'.ljust(10**10) }}", f"'ljust' would build {STRING}"),
    runaway("center-filter", "{{ 'x'|center(10**10) }}", f"'center' would build {STRING}"),
    runaway("rjust", "{{ 'x'.rjust(10**10) }}", f"'rjust' would build {STRING}"),
    runaway("zfill", "{{ '1'.zfill(10**10) }}", f"'zfill' would build {STRING}"),
    runaway("expandtabs", "{{ 'a\\tb'.expandtabs(10**10) }}", f"'expandtabs' would build {STRING}"),
    runaway("range-to-list", "{{ range(10**9)|list|length }}", f"'range' would build {RANGE}"),
    runaway("range-past-a-c-size", "{{ range(10**30) }}", f"'range' would build {RANGE}"),
    runaway("indent-filter", "{{ 'x'|indent(10**10, true) }}", f"'indent' would build {STRING}"),
    # One C-level step built 1 GB (a hostile round's finding).
    runaway(
        "replace-filter",
        "{{ ('x' * 1000000) | replace('x', 'y' * 1000) | length }}",
        f"'replace' would build {STRING}",
    ),
    runaway(
        "replace-method",
        "{{ ('x' * 1000000).replace('', 'y' * 10) | length }}",
        f"'replace' would build {STRING}",
    ),
    runaway(  # an empty text to replace stands before and after each character: 2 + 2
        "replace-of-nothing",
        "{{ 'a'.replace('', 'x' * 5000000) | length }}",
        f"'replace' would build {STRING}",
    ),
]


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_runaway_operation_ends_fast_as_a_located_error(make_project, run, monkeypatch, case):
    started = time.monotonic()
    check(case, make_project, run, monkeypatch)
    assert time.monotonic() - started < environment.RENDER_SECONDS / 4


def test_ordinary_arithmetic_and_padding_still_work(make_project, run):
    body = (
        "{{ 2 ** 64 }} {{ '=' * 3 }} {{ ([1] * 2) | join(',') }} {{ '%05d' % 3 }} "
        "{{ 'a'|center(5) }}|"
        "{{ '{:>4}'.format(1) }}|{{ 'x'.ljust(3) }}|{{ '%3d'|format(1) }}|{{ 7 % 3 }}"
        "|{{ range(10, 0, -3)|list|join(',') }}"
        "|{{ ('x' * 9999998) | replace('x', 'yy', 2) | length }}|{{ 'a-b'.replace('-', '+') }}"
        "|{{ ('x' * 1000) | replace('x', 'y' * 100000, 0) | length }}"
    )
    project = make_project(templates=template(f"{HEAD}{body}\n"))
    assert run(project, "build").exit_code == 0
    assert (
        project.read("docs/models.mdx")
        .rstrip()
        .endswith(
            "18446744073709551616 \\=== 1,1 00003   a  |   1|x  |  1|1|10,7,4,1|10000000|a+b|1000"
        )
    )


def test_powers_of_one_and_zero_stay_small_whatever_the_exponent(make_project, run):
    """Only a base past 1 grows with its exponent (a mutation sample: a bound at 1 itself
    refused ``1 ** 1000000``)."""
    body = "{{ 1 ** 1000000 }}|{{ (-1) ** 1000001 }}|{{ 0 ** 1000000 }}|{{ 2 ** 100000 % 7 }}"
    project = make_project(templates=template(f"{HEAD}{body}\n"))
    result = run(project, "build")
    assert result.exit_code == 0, result.stderr
    assert project.read("docs/models.mdx").rstrip().endswith(f"1|-1|0|{2**100000 % 7}")


def test_running_out_of_memory_is_a_template_error(make_project, run, monkeypatch):
    def exhausted(*_args: object, **_kwargs: object) -> str:
        raise MemoryError

    project = make_project(templates=template(f"{HEAD}{{{{ boom() }}}}\n"))
    original = environment.Renderer._globals
    monkeypatch.setattr(
        environment.Renderer, "_globals", lambda self: {**original(self), "boom": exhausted}
    )
    result = run(project, "build")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "templates/models.mdx.j2:5: error: template failed: out of memory "
        "(a value too large to build?)"
    ]
