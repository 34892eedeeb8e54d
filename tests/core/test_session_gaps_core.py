"""Behaviour this session added that no test pinned: an explicit-only profile's override
refused wherever the profile stands, the JSON of a link at an output's path, a cache key
others may read, and the registry entries blamed for drift on a profile's own page."""

from __future__ import annotations

import json
import os

import pytest
from conftest import MINIMAL_REGISTRY, MINIMAL_TEMPLATE, git

from docgen.io import user_cache

#: A second profile, explicit-only, after the automatic one, with an override.
NAMED = """\
  vllm.box.named:
    model: tiny
    host: box
    selection: explicit-only
    image: img
    args:
      max-model-len: 1024
    overrides:
      big:
        summary: Serve more.
        args:
          max-num-seqs: 4
"""

#: A page for each profile that shows its model's label, its host's notes and its image.
PROFILE_PAGE = (
    "---\ntitle: x\n---\n\n"
    "Serves {{ profile.model.label }} on {{ profile.host.notes }} ({{ profile.image.ref }}).\n"
)


def test_an_explicit_only_profile_after_an_automatic_one_takes_no_override(make_project, run):
    """The rule reads every profile, not only those before the first automatic one."""
    project = make_project(registry=MINIMAL_REGISTRY + NAMED)
    result = run(project, "check")
    assert (result.exit_code, result.stderr.splitlines()) == (
        2,
        [
            "profiles.yaml:58:7: error: profile 'vllm.box.named' is explicit-only: it is chosen "
            "by its id, which cannot be combined with ACME_EXTRA_ARGS_JSON, so "
            "override 'big' can never be applied; drop the override or make the profile "
            "automatic"
        ],
    )


def test_a_link_to_an_identical_copy_shows_no_diff_and_no_hand_edit(make_project, run):
    """The JSON of a link at an output's path diffs what it leads to (the same text: no
    diff), and a link is never called a hand edit, even when the cache kept the output."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    page = project.root / "docs/models.mdx"
    (project.root / "docs/copy.mdx").write_bytes(page.read_bytes())
    page.unlink()
    page.symlink_to("copy.mdx")
    report = json.loads(run(project, "check", "--format", "json").stdout)
    (linked,) = [f for f in report["files"] if f["path"] == "docs/models.mdx"]
    assert linked == {
        "path": "docs/models.mdx",
        "status": "changed",
        "line": 1,
        "diff": "",
        "edited": False,
        "link": "docs/copy.mdx",
        "sources": [],
    }


def test_a_changed_file_that_is_no_link_has_no_link_key(make_project, run):
    """``link`` is in a file's JSON only when a link stands at its path."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    project.edit("docs/models.mdx", "Tiny", "Small")
    report = json.loads(run(project, "check", "--format", "json").stdout)
    (edited,) = [f for f in report["files"] if f["path"] == "docs/models.mdx"]
    assert set(edited) == {"path", "status", "line", "diff", "edited", "sources"}


def test_a_key_only_others_may_read_is_no_key(tmp_path, monkeypatch):
    """Read permission for others alone (not the group) makes a key anyone could know."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    made = user_cache.secret(create=True)
    assert made is not None and user_cache.secret() == made
    os.chmod(user_cache.key_file(), 0o604)
    assert user_cache.secret() is None


def _behind(project, run) -> dict[str, list[str]]:
    """The registry nodes ``check`` names behind each drifted page outside ``_build``."""
    report = json.loads(run(project, "check", "--format", "json").stdout)
    return {
        f["path"]: [f"{s['file']}:{s['line']}:{s['column']} {s['key']}" for s in f["sources"]]
        for f in report["files"]
        if f["status"] == "changed" and not f["path"].startswith("docs/_build/")
    }


@pytest.mark.parametrize(
    ("old", "new", "blamed"),
    [
        ("label: Tiny 1B", "label: Tiny One", "profiles.yaml:30:5 models.tiny.label"),
        ("notes: Roomy.", "notes: Spacious.", "profiles.yaml:20:37 hosts.box.notes"),
        ("vllm:1.0", "vllm:1.1", "profiles.yaml:23:5 images.img.ref"),
        (", notes: Roomy.}", "}", "HEAD:profiles.yaml:20:37 hosts.box.notes"),
        ("hf: acme/Tiny-1B", "hf: acme/Tiny-2B", "profiles.yaml:29:5 models.tiny.hf"),
    ],
    ids=["model-label", "host-notes", "image-ref", "host-notes-deleted", "model-hf"],
)
def test_a_profile_page_blames_the_field_it_shows(make_project, run, old, new, blamed):
    """A profile's own page names the model, host or image field behind its drift (a
    deleted one where it stood in the commit), and an entry's own node only once."""
    registry = MINIMAL_REGISTRY.replace("arch: amd64}", "arch: amd64, notes: Roomy.}")
    templates = {"models.mdx.j2": MINIMAL_TEMPLATE, "profiles/[profile].mdx.j2": PROFILE_PAGE}
    project = make_project(registry=registry, templates=templates)
    assert run(project, "build").exit_code == 0
    git(project.root, "init", "-q")
    git(project.root, "add", ".")
    git(project.root, "commit", "-qm", "base")
    project.edit("profiles.yaml", old, new)
    page = "docs/models.mdx" if old.startswith("hf:") else "docs/profiles/vllm.box.tiny.mdx"
    assert _behind(project, run) == {page: [blamed]}


def test_an_image_digest_is_blamed_at_its_field_on_every_page(example, run):
    """The digest is the text that names an image on a page: its change is told at the
    ``digest:`` line, not at the image entry's."""
    text = example.read("profiles.yaml")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "digest: sha256:" in t)
    old = text.splitlines()[line - 1]
    example.edit("profiles.yaml", old, old[:-1] + ("1" if old.endswith("0") else "0"))
    report = json.loads(run(example, "check", "--format", "json").stdout)
    blamed = {
        f"{s['line']}:{s['column']} {s['key']}"
        for f in report["files"]
        if f["status"] == "changed"
        for s in f["sources"]
    }
    image = text.splitlines()[line - 3].strip().rstrip(":")
    assert blamed == {f"{line}:5 images.{image}.digest"}


def test_two_values_that_change_places_are_both_behind_the_page_that_shows_both(example, run):
    """Two images' digests swapped: the setup page shows each as often as before, so
    neither showed more often; each differs from the commit, and both are named."""
    import re

    git(example.root, "init", "-q")
    git(example.root, "add", ".")
    git(example.root, "commit", "-qm", "base")
    text = example.read("profiles.yaml")
    first, second = re.findall(r"digest: (sha256:[0-9a-f]{64})", text)[:2]
    swapped = text.replace(first, "@").replace(second, first).replace("@", second)
    example.write("profiles.yaml", swapped)
    report = json.loads(run(example, "check", "--format", "json").stdout)
    page = next(f for f in report["files"] if f["path"] == "docs/inference/set-up-vllm.mdx")
    lines = swapped.splitlines()
    where = [n for n, line in enumerate(lines, 1) if "digest: sha256:" in line][:2]
    assert [s["line"] for s in page["sources"]] == where
    assert all(s["key"].endswith(".digest") for s in page["sources"])
