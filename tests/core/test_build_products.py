"""Build products (setting ``build_products``): outputs ``build`` writes and ``check`` does
not compare, as NemoClaw treats ``docs/_build`` (git-ignored, rebuilt before Fern runs).

``check`` passes whether they are present, missing, out of date, stale or hand-written,
with or without the plan cache, and with the changelog gate; its summary says how many
it left out. ``build`` still writes, updates and prunes them, and overwrites one git
ignores even without docgen's notice. Each variant's notice names the file a person
edits: the template of a generated page, or the hand-written page itself.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable

import pytest
from conftest import MINIMAL_TEMPLATE, Outcome, Project

from docgen.cache import FOLDER as CACHE

pytest_plugins = ["pytester"]
Run = Callable[..., Outcome]
VARIANTS = "docs/_build/agent-variants"
EXPORT = "docs/_build/registry.json"
SHARED = 'Run `$$acme onboard`.\n\n<AgentOnly variant="beta">\nBeta only.\n</AgentOnly>\n'
SHARED_TEMPLATE = f"{MINIMAL_TEMPLATE}\n{SHARED}"
PROFILE_TEMPLATE = "---\ntitle: x\n---\n\n{{ profile.id | mdx_code }} with `$$acme`.\n"
TEMPLATES = {"models.mdx.j2": SHARED_TEMPLATE, "profiles/[profile].mdx.j2": PROFILE_TEMPLATE}
#: The build products of the project below: two variants of each page, and the export.
PRODUCTS = (
    f"{VARIANTS}/models.alpha.generated.mdx",
    f"{VARIANTS}/models.beta.generated.mdx",
    f"{VARIANTS}/profiles/vllm.box.tiny.alpha.generated.mdx",
    f"{VARIANTS}/profiles/vllm.box.tiny.beta.generated.mdx",
    EXPORT,
)
IN_SYNC = (
    "2 generated files match the registry\n"
    "5 build products (setting build_products) not compared: `docgen build` writes them\n"
)
SETTING = 'build_products = ["variants", "export"]\n'


def products_project(make_project: Callable[..., Project], setting: str = SETTING) -> Project:
    return make_project(templates=TEMPLATES, files={"docgen.toml": setting})


def built(make_project: Callable[..., Project], run: Run, setting: str = SETTING) -> Project:
    project = products_project(make_project, setting)
    assert run(project, "build").exit_code == 0
    return project


def unchanged_check(project: Project, run: Run, cache: bool, *args: str) -> Outcome:
    """``check`` (with the plan cache, or after removing it), proven to write nothing."""
    if not cache:
        shutil.rmtree(project.root / CACHE)
    else:
        assert list((project.root / CACHE).glob("*.pickle")), "a build stores its plan"
    before = project.snapshot()
    checked = run(project, "check", *args)
    assert project.snapshot() == before
    return checked


# -- check's verdict -----------------------------------------------------------------------


@pytest.mark.parametrize("cache", [True, False], ids=["cached", "no-cache"])
def test_check_passes_with_the_build_products_present(make_project, run, cache):
    project = built(make_project, run)
    assert all((project.root / p).is_file() for p in PRODUCTS)
    checked = unchanged_check(project, run, cache)
    assert (checked.exit_code, checked.stdout, checked.stderr) == (0, IN_SYNC, "")


@pytest.mark.parametrize("cache", [True, False], ids=["cached", "no-cache"])
def test_check_passes_with_the_build_products_absent(make_project, run, cache):
    project = built(make_project, run)
    shutil.rmtree(project.root / "docs/_build")
    checked = unchanged_check(project, run, cache)
    assert (checked.exit_code, checked.stdout, checked.stderr) == (0, IN_SYNC, "")


@pytest.mark.parametrize("cache", [True, False], ids=["cached", "no-cache"])
def test_check_passes_with_stale_and_foreign_build_products(make_project, run, cache):
    project = built(make_project, run)
    # out of date (still with docgen's notice)
    project.edit(PRODUCTS[0], "acme onboard", "acme-gamma onboard")
    project.write(PRODUCTS[1], "Hand-written, no notice.\n")  # foreign: never read by check
    project.edit(EXPORT, '"version": 1', '"version": 0')
    orphan = f"{VARIANTS}/gone.alpha.generated.mdx"  # stale: no page produces it any more
    project.write(orphan, project.read(PRODUCTS[0]))
    checked = unchanged_check(project, run, cache)
    assert (checked.exit_code, checked.stdout, checked.stderr) == (0, IN_SYNC, "")


def test_without_the_setting_the_same_tree_fails_check(make_project, run):
    project = built(make_project, run, setting="")
    shutil.rmtree(project.root / "docs/_build")
    checked = run(project, "check")
    assert checked.exit_code == 1
    assert checked.stdout == "".join(
        f"{path}:1:1: error: missing: docgen would create it\n" for path in PRODUCTS
    )


def test_only_the_named_outputs_are_build_products(make_project, run):
    project = built(make_project, run, setting='build_products = ["variants"]\n')
    shutil.rmtree(project.root / "docs/_build")
    checked = run(project, "check")
    assert (checked.exit_code, checked.stdout) == (
        1,
        f"{EXPORT}:1:1: error: missing: docgen would create it\n",
    )
    assert (
        checked.stderr == "1 generated file is out of sync with the registry: run `docgen build`\n"
    )
    assert run(project, "build").exit_code == 0
    assert run(project, "check").stdout == (
        "3 generated files match the registry\n"
        "4 build products (setting build_products) not compared: `docgen build` writes them\n"
    )


@pytest.mark.parametrize("cache", [True, False], ids=["cached", "no-cache"])
def test_drift_in_a_compared_page_still_fails_and_names_no_build_product(make_project, run, cache):
    project = built(make_project, run)
    project.edit("docs/models.mdx", "$$acme onboard", "$$acme start")
    shutil.rmtree(project.root / "docs/_build")
    checked = unchanged_check(project, run, cache)
    assert checked.exit_code == 1
    assert checked.stdout.startswith("docs/models.mdx:")
    assert "_build" not in checked.output


def test_check_json_leaves_the_build_products_out_and_lists_them(make_project, run):
    project = built(make_project, run)
    shutil.rmtree(project.root / "docs/_build")
    report = json.loads(run(project, "check", "--format", "json").stdout)
    assert report == {
        "version": 1,
        "in_sync": True,
        "files": [
            {"path": "docs/models.mdx", "status": "unchanged"},
            {"path": "docs/profiles/vllm.box.tiny.mdx", "status": "unchanged"},
        ],
        "findings": [],
        "not_compared": list(PRODUCTS),
    }


def test_check_json_lists_nothing_left_out_without_the_setting(make_project, run):
    project = built(make_project, run, setting="")
    report = json.loads(run(project, "check", "--format", "json").stdout)
    assert report["in_sync"] is True and report["not_compared"] == []
    assert [f["path"] for f in report["files"]][2:] == list(PRODUCTS)


def test_the_changelog_gate_passes_without_the_build_products(make_project, run):
    project = built(make_project, run)
    project.write(".gitignore", "docs/_build/\n.docgen-cache/\n")
    git(project, "init", "-q")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "base")
    assert git(project, "ls-files", "docs/_build") == ""
    shutil.rmtree(project.root / "docs/_build")
    checked = run(project, "check", "--changelog-since", "HEAD")
    assert (checked.exit_code, checked.stdout) == (0, IN_SYNC)


def test_the_pytest_plugin_makes_no_item_for_a_build_product(make_project, run, pytester):
    project = built(make_project, run)
    shutil.rmtree(project.root / "docs/_build")
    result = pytester.runpytest_subprocess(
        "--docgen", "--docgen-root", str(project.root), "-p", "no:cacheprovider", "-v"
    )
    result.assert_outcomes(passed=3)  # two pages and the cross-entry version check
    items = [line for line in result.stdout.lines if "::docgen::" in line]
    assert len(items) == 3 and not [line for line in items if "docs/_build/" in line]


def test_the_preview_serves_every_variant_from_memory(make_project, run):
    from docgen.config import load_project
    from docgen.integrations.preview import build_site
    from docgen.plan import plan

    project = built(make_project, run)
    shutil.rmtree(project.root / "docs/_build")
    loaded = load_project(project.root)
    site = build_site(loaded, plan(loaded))
    pages = {p.uri: p.markdown for p in site.pages}
    assert "Beta only." in pages["beta/models.md"] and "Beta only." not in pages["alpha/models.md"]


# -- build writes, updates and prunes them ----------------------------------------------------


def test_build_writes_missing_and_out_of_date_products_and_prunes_stale_ones(make_project, run):
    project = built(make_project, run)
    expected = {p: project.read(p) for p in PRODUCTS}
    shutil.rmtree(project.root / VARIANTS)
    project.edit(EXPORT, '"version": 1', '"version": 0')
    project.write(f"{VARIANTS}/gone.alpha.generated.mdx", expected[PRODUCTS[0]])
    done = run(project, "build")
    assert done.exit_code == 0
    assert done.stdout.splitlines()[-1] == "4 written, 1 updated, 1 pruned, 2 unchanged"
    assert {p: project.read(p) for p in PRODUCTS} == expected
    assert not (project.root / f"{VARIANTS}/gone.alpha.generated.mdx").exists()


def test_build_overwrites_a_git_ignored_product_without_the_notice(make_project, run):
    project = built(make_project, run)
    expected = project.read(PRODUCTS[1])
    project.write(".gitignore", "docs/_build/\n")
    git(project, "init", "-q")
    project.write(PRODUCTS[1], "Written by the project's old script.\n")
    assert run(project, "build").exit_code == 0
    assert project.read(PRODUCTS[1]) == expected


REFUSED = (
    f"{PRODUCTS[1]}:1:1: error: written by hand (it has no docgen notice), but docgen "
    "generates this path from docs/models.mdx and never overwrites a hand-written file: "
    "move it away or delete it to let docgen generate it\n"
)


@pytest.mark.parametrize(
    ("setting", "ignore"),
    [(SETTING, ""), ("", "docs/_build/\n"), (SETTING, None)],
    ids=["not-ignored", "no-setting", "no-repository"],
)
def test_build_refuses_a_product_without_the_notice_unless_git_ignores_it(
    make_project, run, setting, ignore
):
    project = built(make_project, run, setting)
    if ignore is not None:
        project.write(".gitignore", ignore)
        git(project, "init", "-q")
    project.write(PRODUCTS[1], "Hand-written.\n")
    before = project.snapshot()
    done = run(project, "build")
    assert (done.exit_code, done.stderr) == (2, REFUSED)
    assert project.snapshot() == before


def test_build_refuses_a_git_tracked_product_without_the_notice(make_project, run):
    project = built(make_project, run)
    project.write(".gitignore", "docs/_build/\n")
    git(project, "init", "-q")
    project.write(PRODUCTS[1], "Hand-written.\n")
    git(project, "add", "-f", PRODUCTS[1])  # tracked: the project's own file
    done = run(project, "build")
    assert (done.exit_code, done.stderr) == (2, REFUSED)


def git(project: Project, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=project.root,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


# -- the setting's errors ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            '"variants"',
            "setting 'build_products' must be a list of output settings: 'variants' and 'export'",
        ),
        (
            "[1]",
            "setting 'build_products' must be a list of output settings: 'variants' and 'export'",
        ),
        (
            '["variant"]',
            "setting 'build_products' lists 'variant', which is not an output setting "
            "(they are 'variants' and 'export'); did you mean 'variants'?",
        ),
        (
            '["export", "pages"]',
            "setting 'build_products' lists 'pages', which is not an output setting "
            "(they are 'variants' and 'export')",
        ),
        ('["export", "export"]', "setting 'build_products' lists 'export' twice"),
    ],
)
def test_a_bad_setting_is_a_located_error_that_writes_nothing(make_project, run, value, message):
    project = make_project(files={"docgen.toml": f'docs = "docs"\nbuild_products = {value}\n'})
    before = project.snapshot()
    for verb in ("build", "check"):
        done = run(project, verb)
        assert (done.exit_code, done.stdout) == (2, "")
        assert done.stderr == f"docgen.toml:2:1: error: {message}\n"
    assert project.snapshot() == before


def test_the_setting_reads_from_pyproject_as_a_tuple(tmp_path):
    from docgen.config import Config, load_project

    (tmp_path / "pyproject.toml").write_text(
        '[tool.docgen]\nbuild_products = ["export", "variants"]\n', "utf-8"
    )
    config = load_project(tmp_path).config
    assert config.build_products == ("export", "variants")
    assert Config().build_products == ()


def test_which_paths_are_build_products():
    from docgen.config import Config

    both = Config(build_products=("variants", "export"))
    assert both.build_product(f"{VARIANTS}/x.alpha.generated.mdx")
    assert both.build_product(EXPORT)
    assert not both.build_product("docs/_build/agent-variantsx/y.mdx")
    assert not both.build_product("docs/models.mdx")
    assert both.build_product("anything", "variant") and both.build_product("x", "export")
    assert not both.build_product(f"{VARIANTS}/x.mdx", "page")
    variants = Config(build_products=("variants",))
    assert not variants.build_product(EXPORT) and not variants.build_product(EXPORT, "export")
    assert not Config().build_product(f"{VARIANTS}/x.alpha.generated.mdx", "variant")


# -- the notice names the file a person edits ---------------------------------------------


def notice(source: str, agent: str) -> str:
    return (
        f"{{/* This file is generated by docgen from profiles.yaml and {source} (the {agent} "
        "variant). Do not edit it by hand: change those and run `docgen build`. */}"
    )


def test_a_generated_page_s_variants_name_its_template(make_project, run):
    project = built(make_project, run)
    assert project.read(PRODUCTS[0]).splitlines()[4] == notice("templates/models.mdx.j2", "alpha")
    assert project.read(PRODUCTS[3]).splitlines()[4] == notice(
        "templates/profiles/[profile].mdx.j2", "beta"
    )


@pytest.mark.parametrize("regions", [True, False], ids=["with-regions", "hand-written"])
def test_a_hand_written_page_s_variants_name_the_page(make_project, run, regions):
    region = "{/* docgen:begin models-table */}\n{/* docgen:end */}\n\n" if regions else ""
    page = f'---\ntitle: "Guide"\n---\n\n{region}Run `$$acme onboard`.\n'
    project = make_project(files={"docs/guide.mdx": page})
    assert run(project, "build").exit_code == 0
    for agent in ("alpha", "beta"):
        text = project.read(f"{VARIANTS}/guide.{agent}.generated.mdx")
        assert text.splitlines()[4] == notice("docs/guide.mdx", agent)


def test_a_variant_with_the_old_notice_is_still_docgen_s_to_rewrite(make_project, run):
    project = built(make_project, run, setting="")
    expected = project.read(PRODUCTS[0])
    old = notice("docs/models.mdx", "alpha")
    project.write(PRODUCTS[0], expected.replace(notice("templates/models.mdx.j2", "alpha"), old))
    checked = run(project, "check")
    assert checked.exit_code == 1 and f"-{old}" in checked.stdout
    assert run(project, "build").exit_code == 0
    assert project.read(PRODUCTS[0]) == expected
