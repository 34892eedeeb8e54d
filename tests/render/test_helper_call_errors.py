"""A helper, method or filter used wrongly is named as the template names it, with its
arguments counted as the template passes them."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("expression", "why"),
    [
        ("serve_command()", "serve_command() missing 1 required positional argument: 'profile'"),
        (
            'serve_command(profiles[0], "small", true, 4)',
            "serve_command() takes from 1 to 3 positional arguments but 4 were given",
        ),
        (
            "storage_estimate(1, 2)",
            "storage_estimate() takes 1 positional argument but 2 were given",
        ),
        (
            "override_setting()",
            "override_setting() missing 1 required positional argument: 'override'",
        ),
        ("code()", "code() missing 1 required positional argument: 'text'"),
        ("profiles[0].arg()", "arg() missing 1 required positional argument: 'name'"),
        ("profiles[0].arg(1, 2)", "arg() takes 1 positional argument but 2 were given"),
        ("host_default()", "host_default() missing 1 required positional argument: 'host_id'"),
        ("profiles_table(1)", "profiles_table() takes 0 positional arguments but 1 was given"),
        ("joiner(1, 2, 3)", "Joiner() takes from 0 to 1 positional arguments but 3 were given"),
        ("1 + 'a'", "unsupported operand type(s) for +: 'int' and 'str'"),
        ("[].append(1, 2)", "append() takes exactly one argument (2 given)"),  # no self to count
        ("models_table(1)", "models_table() takes 0 positional arguments but 1 was given"),
        (
            "serve_command(profiles[0], bogus=1)",
            "serve_command() got an unexpected keyword argument 'bogus'",
        ),
        ('gb("x")', "'gb' is undefined: 'gb' is a filter, written after its value: value | gb"),
        ("gbb", "'gbb' is undefined"),
    ],
)
def test_a_helper_called_wrongly_is_named_as_the_template_calls_it(
    make_project, run, expression, why
):
    project = make_project(
        templates={"t.mdx.j2": f"---\ntitle: T\n---\n\n{{{{ {expression} }}}}\n"}
    )
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (
        2,
        f"templates/t.mdx.j2:5: error: template failed: {why}\n",
    )


def test_a_name_error_in_docgens_own_code_stays_an_internal_error(make_project):
    """Only the NameError of Jinja's compiled ``inf`` is a template's: any other is a bug
    in docgen, which must not be told as one in the user's template (review finding)."""
    from pathlib import Path

    from docgen.config import load_project
    from docgen.registry.load import loaded
    from docgen.render.environment import Renderer

    project = make_project(templates={"x.mdx.j2": "{{ broken() }}\n"})
    with loaded(load_project(project.root)) as reg:
        renderer = Renderer(reg, [Path(project.root / "templates")], project.root)

        def broken() -> None:
            return undefined_in_docgen  # type: ignore[name-defined]  # noqa: F821

        renderer.env.globals["broken"] = broken
        with pytest.raises(NameError):
            renderer.render("x.mdx.j2", "templates/x.mdx.j2", {})


def test_an_assertion_in_docgens_own_code_stays_an_internal_error(make_project):
    """Only an assertion Jinja's own code makes (``truncate(1)``) is a template's mistake;
    one in a docgen helper is a bug (a mutation sample's gap)."""
    from pathlib import Path

    from docgen.config import load_project
    from docgen.errors import TemplateError
    from docgen.registry.load import loaded
    from docgen.render.environment import Renderer

    project = make_project(
        templates={"x.mdx.j2": "{{ broken() }}\n", "y.mdx.j2": "{{ 'xxxx' | truncate(1) }}\n"}
    )
    with loaded(load_project(project.root)) as reg:
        renderer = Renderer(reg, [Path(project.root / "templates")], project.root)

        def broken() -> None:
            raise AssertionError("docgen's own")

        renderer.env.globals["broken"] = broken
        with pytest.raises(AssertionError, match="docgen's own"):
            renderer.render("x.mdx.j2", "templates/x.mdx.j2", {})
        with pytest.raises(TemplateError, match="expected length >= 3, got 1"):
            renderer.render("y.mdx.j2", "templates/y.mdx.j2", {})
