"""Managed regions of hand-written pages: exact content, and exact located errors.

A region with the wrong number of arguments and every kind of malformed marker is a
located error (exit 2) that changes no file; a well-formed region is filled with
exactly what the registry says and the text around it stays byte for byte.
"""

from __future__ import annotations

import pytest

PAGE = "docs/ref.mdx"


def build_page(make_project, run, page: str) -> tuple[int, list[str], bool]:
    """Build a project holding ``page``; exit code, stderr lines, whether files are unchanged."""
    project = make_project(files={PAGE: page})
    before = project.snapshot()
    result = run(project, "build")
    return result.exit_code, result.stderr.splitlines(), project.snapshot() == before


def region(marker: str) -> str:
    return f"# Ref\n\n{{/* docgen:begin {marker} */}}\n{{/* docgen:end */}}\n"


@pytest.mark.parametrize(
    ("marker", "message"),
    [
        ("serve-command", "region 'serve-command' takes one profile id, got 0 arguments"),
        (
            "serve-command vllm.box.tiny vllm.box.tiny",
            "region 'serve-command' takes one profile id, got 2 arguments",
        ),
        ("override-examples", "region 'override-examples' takes one profile id, got 0 arguments"),
        (
            "override-examples a b c",
            "region 'override-examples' takes one profile id, got 3 arguments",
        ),
        (
            "override-examples vllm.box.tiny extra",
            "region 'override-examples' takes one profile id, got 2 arguments",
        ),
        ("models-table extra", "region 'models-table' takes no arguments"),
        ("models-table a b", "region 'models-table' takes no arguments"),
        ("host-defaults vllm.box.tiny", "region 'host-defaults' takes no arguments"),
    ],
    ids=[
        "serve-command-none",
        "serve-command-two",
        "override-examples-none",
        "override-examples-three",
        "override-examples-two",
        "models-table-one",
        "models-table-two",
        "host-defaults-one",
    ],
)
def test_region_with_the_wrong_number_of_arguments_is_a_located_error(
    make_project, run, marker: str, message: str
) -> None:
    code, stderr, unchanged = build_page(make_project, run, region(marker))
    # At the name when the count is wrong; at the first argument when there should be none.
    name = marker.split()[0]
    col = 18 + len(name) + 1 if "no arguments" in message else 18
    assert (code, stderr, unchanged) == (2, [f"{PAGE}:3:{col}: error: {message}"], True)


def test_every_wrong_region_of_a_page_is_reported_in_one_run(make_project, run) -> None:
    page = (
        "{/* docgen:begin serve-command */}\n{/* docgen:end */}\n\n"
        "{/* docgen:begin models-table wide */}\n{/* docgen:end */}\n\n"
        "{/* docgen:begin serve-command vllm.box.tiny */}\n{/* docgen:end */}\n\n"
        "{/* docgen:begin override-examples a b c */}\n{/* docgen:end */}\n"
    )
    code, stderr, unchanged = build_page(make_project, run, page)
    assert (code, unchanged) == (2, True)
    assert stderr == [
        f"{PAGE}:1:18: error: region 'serve-command' takes one profile id, got 0 arguments",
        f"{PAGE}:4:31: error: region 'models-table' takes no arguments",
        f"{PAGE}:10:18: error: region 'override-examples' takes one profile id, got 3 arguments",
    ]


def test_regions_with_the_right_arguments_are_filled_exactly(make_project, run) -> None:
    page = (
        "# Ref\n\nBefore.\n"
        "{/* docgen:begin serve-command vllm.box.tiny */}\nstale\n{/* docgen:end */}\n"
        "Between.\n"
        "{/* docgen:begin override-examples vllm.box.tiny */}\n{/* docgen:end */}\n"
        "{/* docgen:begin host-defaults */}\n{/* docgen:end */}\n"
        "After.\n"
    )
    project = make_project(files={PAGE: page})
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert project.read(PAGE) == (
        "# Ref\n\nBefore.\n"
        "{/* docgen:begin serve-command vllm.box.tiny */}\n\n"
        "```bash\nvllm serve acme/Tiny-1B \\\n"
        "  --max-model-len 32768 \\\n"
        "  --gpu-memory-utilization 0.5 \\\n"
        "  --max-num-seqs 2 \\\n"
        "  --enable-prefix-caching\n```\n\n"
        "{/* docgen:end */}\n"
        "Between.\n"
        "{/* docgen:begin override-examples vllm.box.tiny */}\n\n"
        "Use less memory.\n\n"
        "```bash\nACME_MODEL=tiny \\\n"
        """  ACME_EXTRA_ARGS_JSON='["--gpu-memory-utilization","0.3"]' \\\n"""
        "  $$acme onboard --non-interactive\n```\n\n"
        "It lowers throughput.\n\n"
        "{/* docgen:end */}\n"
        "{/* docgen:begin host-defaults */}\n\n"
        "| Host profile | Default model |\n|---|---|\n| Big Box | `acme/Tiny-1B` |\n\n"
        "{/* docgen:end */}\n"
        "After.\n"
    )
    assert run(project, "check").exit_code == 0


MALFORMED = (
    "malformed docgen marker: write {/* docgen:begin NAME */} or {/* docgen:end */} alone on a line"
)


@pytest.mark.parametrize(
    ("page", "messages"),
    [
        (
            "# Ref\n\n{/* docgen:begin models-table */}\nText.\n",
            ["3:1: error: region 'models-table' is never closed: add {/* docgen:end */}"],
        ),
        ("# Ref\n\n{/* docgen:end */}\n", ["3:1: error: docgen:end without a docgen:begin"]),
        (
            "{/* docgen:begin models-table */}\n{/* docgen:end */}\n{/* docgen:end */}\n",
            ["3:1: error: docgen:end without a docgen:begin"],
        ),
        (
            "{/* docgen:begin models-table */}\n"
            "{/* docgen:begin host-defaults */}\n{/* docgen:end */}\n",
            [
                "2:1: error: docgen:begin inside region 'models-table' (opened on line 1); "
                "close it first"
            ],
        ),
        ("# Ref\n\nSee {/* docgen:begin models-table */}\n", [f"3:9: error: {MALFORMED}"]),
        (
            "{/* docgen:begin models-table */\n{/* docgen:end */}\n",
            [f"1:5: error: {MALFORMED}", "2:1: error: docgen:end without a docgen:begin"],
        ),
        (
            "{/* docgen:begin models-table */} trailing\n{/* docgen:end */}\n",
            [f"1:5: error: {MALFORMED}", "2:1: error: docgen:end without a docgen:begin"],
        ),
        (
            "{/* docgen:begin models-table */}\n{/* docgen:end */} x\n",
            [
                f"2:5: error: {MALFORMED}",
                "1:1: error: region 'models-table' is never closed: add {/* docgen:end */}",
            ],
        ),
        # A misspelt keyword is not a marker: the other half of the pair is reported.
        (
            "{/* docgen:begn models-table */}\n{/* docgen:end */}\n",
            ["2:1: error: docgen:end without a docgen:begin"],
        ),
        (
            "{/* docgen:begin models-table */}\n{/* docgen:edn */}\n",
            ["1:1: error: region 'models-table' is never closed: add {/* docgen:end */}"],
        ),
        (
            "{/* docgen:begin model-table */}\n{/* docgen:end */}\n",
            ["1:18: error: unknown region 'model-table'; did you mean 'models-table'?"],
        ),
    ],
    ids=[
        "unclosed-begin",
        "end-without-begin",
        "second-end",
        "nested-begin",
        "marker-inside-a-line",
        "begin-without-closing-brace",
        "text-after-begin",
        "text-after-end",
        "misspelt-begin",
        "misspelt-end",
        "misspelt-region-name",
    ],
)
def test_malformed_markers_are_located_errors(
    make_project, run, page: str, messages: list[str]
) -> None:
    code, stderr, unchanged = build_page(make_project, run, page)
    assert (code, stderr, unchanged) == (2, [f"{PAGE}:{m}" for m in messages], True)


def test_markers_in_fenced_code_are_an_example_not_a_region(make_project, run) -> None:
    """A page that shows how to write a region keeps the example as written, even a
    malformed one, and a real region after it is still filled."""
    example = (
        "```mdx\n{/* docgen:begin models-table */}\n{/* docgen:end */}\n"
        "{/* docgen:begin serve-command PROFILE */}\n```\n"
    )
    page = f"# Ref\n\n{example}\n{{/* docgen:begin host-defaults */}}\n{{/* docgen:end */}}\n"
    project = make_project(files={PAGE: page})
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    text = project.read(PAGE)
    assert text.startswith(f"# Ref\n\n{example}\n{{/* docgen:begin host-defaults */}}\n\n|")
    assert run(project, "check").exit_code == 0


@pytest.mark.parametrize(
    ("marker", "instead", "shown"),
    [
        ("models-table", "{{ models_table() }}", "| Slug | Hugging Face model |"),
        (
            "serve-command vllm.box.tiny",
            '{% with p = registry.profiles["vllm.box.tiny"] %}'
            '{% include "_builtin/serve-command.mdx.j2" %}{% endwith %}',
            "vllm serve acme/Tiny-1B",
        ),
    ],
)
def test_a_region_a_template_prints_is_a_located_error(
    make_project, run, marker, instead, shown
) -> None:
    """docgen fills regions only in hand-written pages: a template that kept one (moved
    over from a hand-written page) left the region's old content in the page, and every
    check called it in sync. The error says what to write instead, and that works.
    Markers in a fenced example, or named in prose, stay text."""
    head = '---\ntitle: "Models"\n---\n\nThe `docgen:begin` marker opens a region.\n\n'
    fenced = "```mdx\n{/* docgen:begin host-defaults */}\n{/* docgen:end */}\n```\n\n"
    region = f"{{/* docgen:begin {marker} */}}\n| old |\n{{/* docgen:end */}}\n"
    project = make_project(templates={"models.mdx.j2": head + fenced + region})
    before = project.snapshot()
    result = run(project, "build")
    assert (result.exit_code, result.stderr.splitlines()) == (
        2,
        [
            f"templates/models.mdx.j2:12: error: region '{marker.split()[0]}' in a page a "
            "template writes: docgen fills regions only in hand-written pages; write "
            f"{instead} in the template instead (line 12 of the text it renders for "
            "docs/models.mdx)"
        ],
    )
    assert project.snapshot() == before
    project.write("templates/models.mdx.j2", head + fenced + instead + "\n")
    assert run(project, "build").exit_code == 0
    assert shown in project.read("docs/models.mdx")
