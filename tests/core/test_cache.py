"""The content-addressed plan cache: what its key reads, what it stores, what it trusts."""

from __future__ import annotations

import hashlib
import hmac
import pickle
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Outcome, Project, as_any_drift

from docgen import cache
from docgen import plan as plan_module
from docgen.config import load_project


def test_build_stores_the_plan_and_check_reuses_it_without_writing(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    stored = list((project.root / cache.FOLDER).glob("*.pickle"))
    assert len(stored) == 1
    digest = cache.key(load_project(project.root))
    assert stored[0].name == f"{digest}.pickle"
    plan = cache.load(load_project(project.root), digest)
    assert plan is not None and not plan.complete
    before = project.snapshot()
    assert run(project, "check").exit_code == 0
    assert project.snapshot() == before


def test_the_cache_file_does_not_carry_the_parsed_registry(example, run):
    """The stored plan keeps no raw registry data: an image digest of profiles.yaml, which
    generated pages show in their bodies but never in their frontmatter, is not in the
    cache file's bytes (the pickle is not compressed)."""
    digest = "sha256:9204569b17ee4c0eff75194b8e6e458479c8aee18953b5ab9cf359fcdac659e2"
    assert example.read("profiles.yaml").count(f"digest: {digest}\n") == 1
    assert run(example, "build").exit_code == 0
    shown = [
        path
        for path in sorted((example.root / "docs").rglob("*"))
        if path.is_file() and digest in path.read_text("utf-8")
    ]
    assert shown  # in the pages' bodies ...
    for path in shown:  # ... and never in a frontmatter
        text = path.read_text("utf-8")
        assert digest not in (text.split("\n---", 1)[0] if text.startswith("---") else "")
    [stored] = (example.root / cache.FOLDER).glob("*.pickle")
    data = stored.read_bytes()
    assert digest.encode() not in data
    assert digest.removeprefix("sha256:").encode() not in data
    assert b"max-model-len" not in data


def test_an_input_edit_misses_the_cache_and_check_names_the_registry_line(make_project, run):
    project = make_project()
    run(project, "build")
    old_key = cache.key(load_project(project.root))
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    assert cache.key(load_project(project.root)) != old_key
    result = run(project, "check")
    assert result.exit_code == 1
    assert (
        "registry entry behind it: profiles.yaml:41:7 profiles.vllm.box.tiny.args."
        "max-num-seqs" in result.output
    )


def test_hand_edit_of_a_generated_file_is_found_on_a_cache_hit(make_project, run):
    project = make_project()
    run(project, "build")
    project.edit("docs/models.mdx", "Tiny", "Tony")
    result = run(project, "check")
    assert result.exit_code == 1
    assert "docs/models.mdx:" in result.output and "+| `tiny` | `acme/Tiny-1B`" in result.output
    assert run(project, "build").exit_code == 0
    assert "Tony" not in project.read("docs/models.mdx")


def test_generated_pages_and_filled_regions_do_not_change_the_key(make_project, run):
    page = "{/* docgen:begin models-table */}\n{/* docgen:end */}\n"
    project = make_project(files={"docs/hand.mdx": page})
    before = cache.key(load_project(project.root))
    run(project, "build")
    assert project.read("docs/hand.mdx") != page
    assert cache.key(load_project(project.root)) == before


def test_a_damaged_cache_file_is_ignored(make_project, run):
    project = make_project()
    run(project, "build")
    for stored in (project.root / cache.FOLDER).glob("*.pickle"):
        stored.write_bytes(b"garbage")
    assert run(project, "check").exit_code == 0


class _Planted:
    """Unpickling this creates a file: proof that a cache file was unpickled."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path(self.marker).touch, ())


def test_a_cache_file_from_elsewhere_is_never_unpickled(make_project, run, tmp_path):
    project = make_project()
    assert run(project, "build").exit_code == 0
    marker = tmp_path / "unpickled"
    payload = pickle.dumps(_Planted(str(marker)))
    for stored in (project.root / cache.FOLDER).glob("*.pickle"):
        # the right format, a seal made with a key that is not this user's
        forged = hmac.new(b"k" * 32, payload, hashlib.sha256).digest()
        stored.write_bytes(cache.FORMAT + forged + payload)
    assert run(project, "check").exit_code == 0
    assert not marker.exists()


def test_a_cache_sealed_under_another_key_is_ignored(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    digest = cache.key(load_project(project.root))
    assert cache.load(load_project(project.root), digest) is not None
    original = cache.key_file().read_bytes()
    try:
        cache.key_file().write_bytes(bytes(32))
        assert cache.load(load_project(project.root), digest) is None
    finally:
        cache.key_file().write_bytes(original)
    assert cache.load(load_project(project.root), digest) is not None
    assert stat.S_IMODE(cache.key_file().stat().st_mode) == 0o600


def test_a_renewed_key_makes_the_next_build_store_the_plan_again(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    digest = cache.key(load_project(project.root))
    original = cache.key_file().read_bytes()
    try:
        cache.key_file().unlink()  # as when ~/.cache is cleared
        assert cache.load(load_project(project.root), digest) is None
        assert run(project, "build").exit_code == 0
        assert cache.load(load_project(project.root), digest) is not None
    finally:
        cache.key_file().write_bytes(original)


# -- every kind of input reaches the cache key -----------------------------------------
#
# Each case edits one input of the worked example (with a hand-written page and a custom
# region added) after a build and a check, then runs ``check`` with the cache the build
# left and again without it: the two runs must print the same and exit with the verdict
# the case names. A key that leaves an input out turns the first run into a stale hit
# ("N generated files match the registry", exit 0) where the second one finds the drift.
# After a ``build`` of the edited tree, ``check`` must be a cache hit (nothing rendered).

HAND_PAGE = """\
---
title: "Operate the Sandbox"
---

Run `$$nemoclaw status` to see the sandbox.

{/* docgen:begin models-table */}
{/* docgen:end */}

{/* docgen:begin fleet */}
{/* docgen:end */}
"""
FLEET_REGION = "{{ profiles | length }} managed vLLM profiles are registered.\n"
PROFILE_TEMPLATE = "templates/profiles/[profile].mdx.j2"
SETUP_TEMPLATE = "templates/inference/set-up-vllm.mdx.j2"
ENTRY = "changelog/2026-08-04.mdx"
NEW_PAGE_TEMPLATE = '---\ntitle: "Hosts"\n---\n\n{{ host_defaults_table() }}\n'


def _move(project: Project, old: str, new: str) -> None:
    (project.root / new).parent.mkdir(parents=True, exist_ok=True)
    (project.root / old).rename(project.root / new)


def _setting(project: Project, name: str, value: str) -> None:
    """Set ``name = "value"`` in the ``[tool.docgen]`` table of pyproject.toml."""
    text = project.read("pyproject.toml")
    head, table = text.split("[tool.docgen]\n", 1)
    body, rest = table.split("\n[", 1)
    lines = [line for line in body.splitlines() if not line.startswith(f"{name} =")]
    body = "\n".join([f'{name} = "{value}"', *lines])
    project.write("pyproject.toml", f"{head}[tool.docgen]\n{body}\n\n[{rest}")


def _add_entry(project: Project) -> None:
    header = project.read(ENTRY).split("## v0.0.102", 1)[0]
    project.write("changelog/2026-09-01.mdx", f"{header}## v0.0.103\n\nNemoClaw v0.0.103 is new.\n")


def _route(project: Project) -> None:
    project.edit("pyproject.toml", '= "inference/local-inference/set-up-vllm"', '= "vllm"')


Edit = Callable[[Project], None]


def _replace(path: str, old: str, new: str) -> Edit:
    return lambda project: project.edit(path, old, new)


def _write(path: str, text: str) -> Edit:
    def edit(project: Project) -> None:
        project.write(path, text)

    return edit


def _to_docgen_toml(project: Project, extra: str) -> None:
    """Move the settings from pyproject.toml's [tool.docgen] (its last tables) to a
    docgen.toml, with ``extra`` settings first (settings live in one of the two)."""
    text = project.read("pyproject.toml")
    head, table = text.split("[tool.docgen]\n", 1)
    routes = table.replace("[tool.docgen.routes]", "[routes]")
    kept = [line for line in routes.splitlines() if line.split(" =")[0] not in extra]
    project.write("docgen.toml", extra + "\n".join(kept) + "\n")
    project.write("pyproject.toml", head)


def _delete(path: str) -> Edit:
    return lambda project: (project.root / path).unlink()


def _moved(old: str, new: str, setting: str | None = None) -> Edit:
    def edit(project: Project) -> None:
        _move(project, old, new)
        if setting is not None:
            _setting(project, setting, new)

    return edit


def _set(name: str, value: str) -> Edit:
    return lambda project: _setting(project, name, value)


def _docs_moved(project: Project) -> None:
    """The docs folder setting changed, and the changelog link with it (which must name a
    page of that folder)."""
    _setting(project, "docs", "site")
    _setting(project, "changelog_link", "site/inference/set-up-vllm.mdx")


def _comment_registry(project: Project) -> None:
    project.write("profiles.yaml", "# c\n" + project.read("profiles.yaml"))


PAGE = "docs/guides/operate.mdx"
EDITS: list[tuple[str, Edit, int]] = [
    ("registry-value", _replace("profiles.yaml", "max-num-seqs: 4\n", "max-num-seqs: 6\n"), 1),
    ("registry-comment", _comment_registry, 0),
    ("template-added", _write("templates/hosts.mdx.j2", NEW_PAGE_TEMPLATE), 1),
    ("template-removed", _delete(PROFILE_TEMPLATE), 1),
    ("template-renamed", _moved(PROFILE_TEMPLATE, "templates/models/[profile].mdx.j2"), 1),
    ("template-edited", _replace(SETUP_TEMPLATE, "an Existing Server", "a Server"), 1),
    ("partial-edited", _replace("templates/_partials/frontmatter.j2", "title:", "title: "), 1),
    ("partial-added-unused", _write("templates/_x.j2", "unused\n"), 0),
    ("region-template-edited", _replace("templates/_regions/fleet.mdx.j2", "managed", "known"), 1),
    ("region-template-shadows-builtin", _write("templates/_regions/models-table.mdx.j2", "M\n"), 1),
    ("hand-page-edited", _replace(PAGE, "see the sandbox", "inspect it"), 1),
    ("hand-page-region-edited", _replace(PAGE, "managed vLLM", "vLLM"), 1),
    ("hand-page-added", _write("docs/guides/more.mdx", "Run `$$nemoclaw logs`.\n"), 1),
    ("hand-page-added-plain", _write("docs/guides/plain.mdx", "Plain text.\n"), 0),
    ("hand-page-removed", _delete(PAGE), 1),
    ("generated-page-edited", _replace("docs/inference/set-up-vllm.mdx", "vLLM", "VLLM"), 1),
    ("changelog-entry-added", _add_entry, 1),
    (
        "changelog-entry-summary-edited",
        _replace(ENTRY, "reduces the managed", "cuts the managed"),
        1,
    ),
    ("changelog-entry-bullet-edited", _replace(ENTRY, "It retains async", "It keeps async"), 0),
    ("changelog-entry-removed", _delete(ENTRY), 1),
    ("changelog-note-added", _write("changelog.d/fix.md", "Fixed a typo.\n"), 0),
    ("setting-registry", _moved("profiles.yaml", "reg/profiles.yaml", "registry"), 1),
    ("setting-templates", _moved("templates", "tpl", "templates"), 1),
    ("setting-docs", _docs_moved, 1),
    ("setting-changelog", _moved("changelog", "history", "changelog"), 1),
    ("setting-variants", _set("variants", "docs/_variants"), 1),
    ("setting-variant-pattern", _set("variant_pattern", "{dir}/{stem}--{agent}.mdx"), 1),
    ("setting-export", _set("export", "docs/_build/export.json"), 1),
    ("setting-fragments", _set("fragments", "notes"), 0),
    ("setting-changelog-link", _set("changelog_link", PAGE), 0),
    ("setting-release-route", _set("release_route", "releases/{year}-{month}-{day}"), 1),
    ("setting-routes", _route, 1),
    (
        "settings-file-docgen-toml",
        lambda project: _to_docgen_toml(
            project, 'docs = "site"\nchangelog_link = "site/inference/set-up-vllm.mdx"\n'
        ),
        1,
    ),
]
#: Cases whose tree still fails ``check`` after a build: a rule beyond drift is broken
#: (the entry's link to the set-up page no longer resolves to a published route, as the
#: page's route is no longer mapped).
STILL_FAILS_AFTER_BUILD = {"setting-docs", "setting-routes", "settings-file-docgen-toml"}


#: The edits of a file docgen writes while nothing it is made of changes.
HAND_EDITS = {"hand-page-region-edited", "generated-page-edited"}


@pytest.fixture
def full_example(example: Project) -> Project:
    # Without the navigation every page is published for every agent, so an added page
    # counts without being listed there (the navigation's own edits: tests/navigation).
    (example.root / "docs/index.yml").unlink()
    example.write("docs/guides/operate.mdx", HAND_PAGE)
    example.write("templates/_regions/fleet.mdx.j2", FLEET_REGION)
    (example.root / "changelog.d").mkdir()
    return example


def _rendering_forbidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("rendered: the cache missed")

    monkeypatch.setattr(plan_module, "plan", refuse)


@pytest.mark.parametrize(("name", "edit", "verdict"), EDITS, ids=[name for name, _, _ in EDITS])
def test_check_gives_the_same_verdict_with_and_without_the_cache(
    full_example: Project,
    run: Callable[..., Outcome],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    edit: Callable[[Project], None],
    verdict: int,
) -> None:
    project = full_example
    assert run(project, "build").exit_code == 0
    with monkeypatch.context() as patch:
        _rendering_forbidden(patch)  # the build stored the plan: check is a hit
        assert run(project, "check").output == "34 generated files match the registry\n"
    edit(project)
    cached = run(project, "check")
    shutil.rmtree(project.root / cache.FOLDER)
    fresh = run(project, "check")
    # Only the cache can tell a hand edit (the file changed, nothing it is made of did),
    # and says so; the verdict, the diff and every other word are the same.
    assert ("edited since docgen wrote it" in cached.output) == (name in HAND_EDITS)
    assert (cached.exit_code, as_any_drift(cached.output)) == (fresh.exit_code, fresh.output)
    assert fresh.exit_code == verdict, fresh.output
    if verdict == 0:
        assert fresh.stdout.endswith(" generated files match the registry\n")
    else:
        assert not fresh.output.endswith(" generated files match the registry\n")
    # build reports the broken history rule as check does (exit 1), after writing the rest
    built = run(project, "build")
    assert built.exit_code == (1 if name in STILL_FAILS_AFTER_BUILD else 0), built.output
    with monkeypatch.context() as patch:
        _rendering_forbidden(patch)  # the build stored the edited tree's plan
        after = run(project, "check")
    assert after.exit_code == (1 if name in STILL_FAILS_AFTER_BUILD else 0), after.output


# -- the key reads only what the plan reads ----------------------------------------------

#: Runs the docgen command line in a child whose address space is capped, so a read that
#: never ends fails fast with MemoryError instead of taking the machine's memory.
CAPPED = """\
import resource, sys
cap = 1 << 30
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
from docgen.cli import main
sys.argv[0] = "docgen"
main()
"""
LEAVES = "is a symbolic link that leaves the project root; docgen reads only files inside it"
ENTRY_LINK = "changelog/2026-01-01.mdx"


def _capped(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CAPPED, "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,  # a backstop only: the capped read fails in well under a second
        check=False,
    )


@pytest.mark.parametrize(
    ("link", "exit_code", "stderr"),
    [
        ("profiles.yaml", 2, f"profiles.yaml: error: the registry {LEAVES}\n"),
        (ENTRY_LINK, 2, f"{ENTRY_LINK}: error: the changelog entry {LEAVES}\n"),
        ("docs/zero.mdx", 0, ""),  # a linked page is never read: not a page of the project
    ],
)
def test_an_input_linked_to_an_endless_file_is_refused_not_read(
    make_project, run, link: str, exit_code: int, stderr: str
) -> None:
    project = make_project()
    assert run(project, "build").exit_code == 0
    target = project.root / link
    target.parent.mkdir(exist_ok=True)
    target.unlink(missing_ok=True)
    target.symlink_to("/dev/zero")
    done = _capped(project.root, "check")
    assert (done.returncode, done.stderr) == (exit_code, stderr)
    assert done.stdout == ("4 generated files match the registry\n" if exit_code == 0 else "")


def test_the_first_build_makes_the_key_under_a_cache_home_that_does_not_exist_yet(
    make_project, run, monkeypatch, tmp_path
):
    home = tmp_path / "new-home" / ".cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    project = make_project()
    assert run(project, "build").exit_code == 0
    key = home / "docgen" / "cache-key"
    assert cache.key_file() == key
    assert len(key.read_bytes()) == 32
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    digest = cache.key(load_project(project.root))
    assert cache.load(load_project(project.root), digest) is not None


def test_a_check_the_cache_proves_in_sync_loads_no_template_engine(example, run):
    """What a hit needs is the key, the stored digests and the files: rendering,
    composing and the careful YAML reader stay unimported (they are most of a small
    project's start-up)."""
    assert run(example, "build").exit_code == 0
    probe = (
        "import sys\n"
        "from docgen.cli import main\n"
        "try:\n"
        f"    main(['--root', {str(example.root)!r}, 'check', '-q'])\n"
        "except SystemExit as exit:\n"
        "    assert exit.code in (0, None), exit.code\n"
        "heavy = ('jinja2', 'docgen.render.environment', 'docgen.changelog.compose',\n"
        "         'ruamel.yaml', 'docgen.changelog.git')\n"
        "print(sorted(name for name in heavy if name in sys.modules))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert found.stdout.splitlines()[-1] == "[]", found.stderr


def test_the_partials_are_stored_beside_the_plan_and_read_only_to_render_again(example, run):
    """A build keeps its partials' texts in a file of their own: the plan file holds none,
    the record of the last build brings them back, and a damaged partials file only
    means they are rendered again."""
    assert run(example, "build").exit_code == 0
    project = load_project(example.root)
    digest = cache.key(project)
    folder = example.root / cache.FOLDER
    stored = cache.load(project, digest)
    assert stored is not None and stored.record is not None
    assert stored.record.partials == {}  # a cache hit reads no partial
    record = cache.previous_record(project)
    assert record is not None and len(record.partials) > 3
    text, _reads = next(iter(record.partials.values()))
    assert text.encode() in (folder / f"{digest}.partials").read_bytes()
    assert text.encode() not in (folder / f"{digest}.pickle").read_bytes()
    damaged = folder / f"{digest}.partials"
    damaged.write_bytes(damaged.read_bytes()[:-1] + b"!")
    record = cache.previous_record(project)
    assert record is not None and record.partials == {} and record.units
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 17")
    assert run(example, "build").exit_code == 0
    assert run(example, "check").exit_code == 0


def test_a_hand_edited_page_is_rendered_again_from_the_stored_partials(example, run, monkeypatch):
    """A cache hit that finds a generated file edited by hand renders that page again for
    its diff: its partials come from the file stored beside the plan, none is rendered."""
    from docgen.render.partials import Partials

    assert run(example, "build").exit_code == 0
    example.edit(
        "docs/inference/set-up-vllm.mdx", "## Use an Existing Server", "## Use Some Server"
    )
    rendered: list[str] = []
    real = Partials._rendered

    def counted(self, template, context, parts):  # type: ignore[no-untyped-def]
        rendered.append(template.name)
        return real(self, template, context, parts)

    monkeypatch.setattr(Partials, "_rendered", counted)
    result = run(example, "check")
    assert result.exit_code == 1
    assert "+## Use an Existing Server" in result.output  # the diff of the re-rendered page
    assert rendered == []
    for damaged in (example.root / cache.FOLDER).glob("*.partials"):
        damaged.unlink()  # without them the page renders its partials, and says the same
    again = run(example, "check")
    assert again.exit_code == 1 and again.output == result.output
    assert "_partials/profile.j2" in rendered


SPARK_PAGE = "docs/profiles/vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4.mdx"
N1X_PAGE = "docs/profiles/vllm.n1x.single.qwen3-6-35b-a3b-nvfp4.mdx"


def _edit_one_and_touch_another(example: Project) -> None:
    """A registry edit the record reaches (the DGX Spark pages) and a hand edit of a page
    it keeps (the N1X profile's), which the build renders again for its text."""
    example.edit(N1X_PAGE, "This page describes", "This page, edited by hand, describes")
    example.edit("profiles.yaml", "max-num-seqs: 4\n", "max-num-seqs: 5\n")


def test_a_build_after_an_edit_and_a_hand_edit_elsewhere_writes_every_page(
    example, run, tmp_path
) -> None:
    """The page edited by hand is planned again; the pages the edit reached keep the text
    (or the staged file) the first plan gave them, so every one is written in full."""
    assert run(example, "build").exit_code == 0
    _edit_one_and_touch_another(example)
    reference = Project(tmp_path / "reference")
    shutil.copytree(example.root, reference.root, ignore=shutil.ignore_patterns(cache.FOLDER))
    assert run(example, "build").exit_code == 0
    assert run(reference, "build").exit_code == 0  # from scratch: no cache, no record
    assert "--max-num-seqs 5" in example.read(SPARK_PAGE)
    assert "edited by hand" not in example.read(N1X_PAGE)
    mine = {p: d for p, d in example.snapshot().items() if not p.startswith(cache.FOLDER)}
    theirs = {p: d for p, d in reference.snapshot().items() if not p.startswith(cache.FOLDER)}
    assert mine == theirs
    assert run(example, "check").exit_code == 0


def test_a_check_after_an_edit_and_a_hand_edit_elsewhere_diffs_the_rendered_text(
    example, run
) -> None:
    assert run(example, "build").exit_code == 0
    _edit_one_and_touch_another(example)
    result = run(example, "check")
    assert result.exit_code == 1
    assert "+  --max-num-seqs 5 \\" in result.output  # the page the edit reached, in full
    assert "-This page, edited by hand, describes" in result.output
    assert ",0 @@" not in result.output  # no page diffed against an empty text


def test_an_input_renamed_with_its_bytes_unchanged_misses_the_cache(make_project, run):
    """The key holds each input's name with its bytes: a template renamed makes another
    page, which a check with the cache must not take for the old one."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    before = cache.key(load_project(project.root))
    templates = project.root / "templates"
    (templates / "models.mdx.j2").rename(templates / "catalog.mdx.j2")
    assert cache.key(load_project(project.root)) != before
    result = run(project, "check")
    assert result.exit_code == 1
    assert "docs/catalog.mdx:1:1: error: missing" in result.stdout


def test_a_cache_write_the_file_size_limit_stops_leaves_no_cache_and_the_build_done(
    example: Project, tmp_path: Path
):
    """The plan cache is larger than any page of the worked example: under a file size
    limit between the two, its write failed part way, and closing the buffer under the
    slices the write's traceback held raised a BufferError (exit 3, an internal error)
    after the pages were all written."""
    import os
    import resource

    limit = 40 * 1024
    assert max(p.stat().st_size for p in example.root.rglob("*.mdx")) < limit

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    command = [sys.executable, "-m", "docgen", "--root", str(example.root), "build", "-q"]
    for _ in range(2):  # the second: a build that finds no cache to use
        done = subprocess.run(
            command, capture_output=True, text=True, preexec_fn=limited, env=env, check=False
        )
        assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert not list((example.root / cache.FOLDER).glob(f"*{cache.PLAN}"))
    unlimited = subprocess.run(command, capture_output=True, env=env, check=False)
    assert unlimited.returncode == 0
    [stored] = (example.root / cache.FOLDER).glob(f"*{cache.PLAN}")
    assert stored.stat().st_size > limit  # so the limited builds' writes did fail
    checked = subprocess.run(
        [sys.executable, "-m", "docgen", "--root", str(example.root), "check", "-q"],
        capture_output=True,
        env=env,
        check=False,
    )
    assert checked.returncode == 0


def test_a_build_an_input_edit_overlaps_stores_no_plan_an_undo_would_find(
    make_project, run, monkeypatch
):
    """A build read the registry as edited while it ran, then stored that plan under the
    key of the registry before the edit: once the edit was undone, the key hit and
    ``check`` passed over pages that still showed the edit (a hostile round)."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    project.edit("profiles.yaml", "Big Box", "Bigger Box")  # a build that renders
    real_plan = plan_module.plan

    def edited_while_planning(*args, **kwargs):
        project.edit("profiles.yaml", "Bigger Box", "Huge Box")  # after the key, before the read
        return real_plan(*args, **kwargs)

    monkeypatch.setattr(plan_module, "plan", edited_while_planning)
    assert run(project, "build").exit_code == 0
    monkeypatch.setattr(plan_module, "plan", real_plan)
    assert "Huge Box" in project.read("docs/models.mdx")
    project.edit("profiles.yaml", "Huge Box", "Bigger Box")  # the undo
    result = run(project, "check")
    assert result.exit_code == 1, result.output
    assert run(project, "build").exit_code == 0
    assert "Bigger Box" in project.read("docs/models.mdx")
    assert run(project, "check").exit_code == 0
