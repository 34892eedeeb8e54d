"""The pytest plugin: one item per output and per changelog entry, readable failures."""

from __future__ import annotations

import re

from docgen.render.syntax import owned

pytest_plugins = ["pytester"]


def run_docgen(pytester, root):
    return pytester.runpytest_subprocess(
        "--docgen", "--docgen-root", str(root), "-p", "no:cacheprovider", "-q"
    )


def test_in_sync_project_gives_one_passing_item_per_output(pytester, example):
    result = run_docgen(pytester, example.root)
    pages = (example.root / "docs").rglob("*.mdx")
    # the pages docgen owns, the export, the overview and the navigation's regions
    outputs = sum(owned(p.read_text("utf-8")) for p in pages) + 3
    # one item per output, one per changelog entry, and the cross-file version check
    result.assert_outcomes(passed=outputs + 1 + 1)
    listed = pytester.runpytest_subprocess(
        "--docgen", "--docgen-root", str(example.root), "-p", "no:cacheprovider", "--collect-only"
    )
    listed.stdout.fnmatch_lines(
        [f"collected {outputs + 2} items", f"*{outputs + 2} tests collected*"]
    )


def test_registry_edit_fails_with_a_readable_diff(pytester, example, run):
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 12")
    result = run_docgen(pytester, example.root)
    outcomes = result.parseoutcomes()
    # the setup page, the profile page, their three variants each, and the registry export
    assert outcomes["failed"] == 9
    out = result.stdout.str()
    # located as ``docgen check`` locates it
    located = "docs/inference/set-up-vllm.mdx:" + "{}:1: error: out of date with the registry"
    cli = run(example, "check").stdout
    line = next(n for n in range(1, 10_000) if located.format(n) in cli)
    assert located.format(line) in out
    assert "-  --max-num-seqs 16" in out and "+  --max-num-seqs 12" in out
    assert (
        "registry entry behind it: profiles.yaml:184:7 profiles.vllm.dgx-station-gb300."
        "single.deepseek-v4-flash.args.max-num-seqs"
    ) in out
    assert "Traceback" not in out


def test_broken_registry_is_one_failing_item_with_the_located_error(pytester, example):
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: lots")
    result = run_docgen(pytester, example.root)
    result.assert_outcomes(failed=1)
    assert (
        "profiles.yaml:184:21: error: '--max-num-seqs' expects an integer, got 'lots'"
        in result.stdout.str()
    )
    # The project it looked at is named: pytest's rootdir may be a folder above it.
    assert f"in the docgen project at {example.root} (--docgen-root" in result.stdout.str()


def test_damaged_changelog_entry_fails_its_item(pytester, example):
    entry = "changelog/2026-08-04.mdx"
    example.write(entry, example.read(entry) + "<!-- x -->\n")
    result = run_docgen(pytester, example.root)
    assert result.parseoutcomes()["failed"] == 1
    assert (
        "changelog/2026-08-04.mdx:16: error: HTML comments are not allowed in changelog entries"
    ) in result.stdout.str()


def test_overview_drift_names_the_changelog_entry_behind_it(pytester, example):
    entry = "changelog/2026-08-04.mdx"
    example.edit(entry, "NemoClaw v0.0.102 reduces", "NemoClaw v0.0.102 lowers")
    result = run_docgen(pytester, example.root)
    assert result.parseoutcomes()["failed"] == 1
    out = result.stdout.str()
    assert re.search(r"changelog/overview\.mdx:\d+:1: error: out of date with the changelog", out)
    assert f"changelog entry behind it: {entry}:6:1 v0.0.102" in out
    assert "registry entry behind it" not in out


def test_without_a_root_it_checks_the_project_pytest_runs_in(pytester, example, monkeypatch):
    # A setup.py above the project makes that folder pytest's rootdir; the project the
    # run starts in is still the one checked.
    import shutil

    (pytester.path / "setup.py").write_text("", "utf-8")
    site = pytester.path / "site"
    shutil.copytree(example.root, site)
    (site / "pyproject.toml").unlink()  # else its pytest settings make it the rootdir
    monkeypatch.chdir(site)
    result = pytester.runpytest_subprocess("--docgen", "-p", "no:cacheprovider", "-q")
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) > 3 and "failed" not in outcomes, result.stdout.str()
    assert "registry file not found" not in result.stdout.str()


def test_a_relative_root_in_addopts_starts_at_the_configuration_files_folder(
    pytester, example, monkeypatch
):
    """``addopts = "--docgen --docgen-root site"`` means the same from any subfolder; on
    the command line a relative root starts where pytest runs, as any path there does."""
    import shutil

    site = pytester.path / "site"
    shutil.copytree(example.root, site)
    (site / "pyproject.toml").unlink()
    (pytester.path / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\naddopts = "--docgen --docgen-root site -p no:cacheprovider"\n',
        "utf-8",
    )
    monkeypatch.chdir(site / "docs")
    result = pytester.runpytest_subprocess("-q")
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) > 3 and "failed" not in outcomes, result.stdout.str()
    typed = pytester.runpytest_subprocess("--docgen", "--docgen-root", "..", "-q")
    assert "failed" not in typed.parseoutcomes(), typed.stdout.str()
    monkeypatch.setenv("PYTEST_ADDOPTS", "--docgen-root ..")  # typed too: from where it runs
    from_env = pytester.runpytest_subprocess("-q")
    assert "failed" not in from_env.parseoutcomes(), from_env.stdout.str()


def test_run_in_the_docs_folder_it_checks_the_project_above(pytester, example, monkeypatch):
    """With no configuration file, pytest's rootdir is the folder it runs in: in the
    project's ``docs/``, the project above is checked, as ``docgen check`` there does."""
    import shutil

    site = pytester.path / "site"
    shutil.copytree(example.root, site)
    (site / "pyproject.toml").unlink()  # else its pytest settings make it the rootdir
    monkeypatch.chdir(site / "docs")
    result = pytester.runpytest_subprocess("--docgen", "-p", "no:cacheprovider", "-q")
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) > 3 and "failed" not in outcomes, result.stdout.str()
