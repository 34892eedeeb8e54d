"""The docgen MkDocs plugin and the preview site it serves (docgen.integrations.preview)."""

from __future__ import annotations

import queue
import shutil
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY, REPO
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files

from docgen.config import load_project
from docgen.errors import ConfigError, DocgenError
from docgen.integrations.mkdocs_plugin import DocgenPlugin
from docgen.integrations.preview import build_site
from docgen.plan import plan
from docgen.render.syntax import owned

PAGE = '---\ntitle: "{title}"\n---\n\n{body}\n'


@pytest.fixture
def site_project(example):
    """The worked example with the repository's mkdocs.yml and its static-files folder."""
    shutil.copy(REPO / "mkdocs.yml", example.root / "mkdocs.yml")
    shutil.copytree(REPO / "site_extra", example.root / "site_extra")
    return example


def site_of(root: Path, agents: tuple[str, ...] = ()):
    project = load_project(root)
    return build_site(project, plan(project), agents)


def mkdocs(root: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mkdocs", *args]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=timeout)


def test_one_section_per_agent_with_variants_resolved(site_project):
    site = site_of(site_project.root)
    titles = [next(iter(item)) for item in site.nav]
    assert titles == [
        "Home",
        "NemoClaw for OpenClaw",
        "NemoClaw for Hermes",
        "NemoClaw for Deep Agents",
    ]
    pages = {p.uri: p for p in site.pages}
    hermes = pages["hermes/inference/set-up-vllm.md"].markdown
    assert "nemohermes onboard" in hermes and "NEMOCLAW_AGENT=hermes" in hermes
    assert "NEMOCLAW_AGENT=openclaw" not in hermes
    for page in site.pages:
        for leftover in ("$$nemoclaw", "AgentOnly", "{/*", "<Note", "<Warning"):
            assert leftover not in page.markdown, (page.uri, leftover)
    assert "nemoclaw onboard" in pages["openclaw/inference/set-up-vllm.md"].markdown
    assert len([u for u in pages if u.startswith("deepagents/profiles/")]) == 6


def test_nav_nests_folders_as_sections_with_page_titles(site_project):
    hermes = site_of(site_project.root).nav[2]["NemoClaw for Hermes"]
    choose = "hermes/inference/choose-local-inference-server.md"
    assert hermes[0] == {
        "Inference": [
            {"Choose a Local Inference Server": choose},
            {"Set Up vLLM": "hermes/inference/set-up-vllm.md"},
        ]
    }
    profiles = hermes[1]["Profiles"]
    assert {
        "Qwen3.6 35B-A3B NVFP4 on N1x": "hermes/profiles/vllm.n1x.single.qwen3-6-35b-a3b-nvfp4.md"
    } in profiles


def test_nothing_has_to_be_built_first(site_project):
    before = site_of(site_project.root)
    for path in (site_project.root / "docs").rglob("*.*"):
        if path.is_file() and owned(path.read_text("utf-8")):  # every file docgen generates
            path.unlink()
    after = site_of(site_project.root)
    assert [(p.uri, p.markdown) for p in after.pages] == [(p.uri, p.markdown) for p in before.pages]


def test_agents_option_limits_the_sections_and_rejects_unknown_ids(site_project):
    site = site_of(site_project.root, ("hermes",))
    assert {p.uri.split("/")[0] for p in site.pages} == {"index.md", "hermes"}
    with pytest.raises(ConfigError, match="unknown agent 'hermess'.*did you mean 'hermes'"):
        site_of(site_project.root, ("hermess",))
    with pytest.raises(ConfigError) as caught:  # nothing close: the agents there are
        site_of(site_project.root, ("nope",))
    assert str(caught.value) == (
        "error: unknown agent 'nope' in the docgen plugin's agents; the registry has "
        "openclaw, hermes, deepagents"
    )


def test_route_links_point_at_site_pages_or_show_as_text(make_project):
    body = "[B](b), [B for beta](/guide/beta/guide/b#top), [Gone](nowhere), [Web](https://x.org)"
    project = make_project(
        templates={
            "guide/a.mdx.j2": PAGE.format(title="A", body=body),
            "guide/b.mdx.j2": PAGE.format(title="B", body="Run `$$acme onboard`."),
        }
    )
    site = site_of(project.root)
    page = next(p for p in site.pages if p.uri == "alpha/guide/a.md").markdown
    assert "[B](b.md), [B for beta](../../beta/guide/b.md#top), Gone, [Web](https://x.org)" in page
    assert [str(p) for p in site.unresolved] == [
        "docs/guide/a.mdx:7: warning: route 'nowhere' is not a page of this site; "
        "the preview shows it as plain text"
    ]


def test_a_route_whose_last_part_holds_a_dot_links_to_its_page(make_project):
    """A profile's id holds dots (``vllm.box.tiny``): its route was taken for a file's
    name with the suffix ``.tiny``, left as it was, and ``mkdocs build --strict`` failed;
    a link to a file (``report.pdf``) still stays as written."""
    body = "[P](/guide/beta/profiles/vllm.box.tiny), [Q](../profiles/vllm.box.tiny), [R](r.pdf)"
    project = make_project(
        templates={
            "guide/a.mdx.j2": PAGE.format(title="A", body=body),
            "profiles/[profile].mdx.j2": PAGE.format(title="{{ profile.id }}", body="Profile."),
        }
    )
    site = site_of(project.root)
    page = next(p for p in site.pages if p.uri == "alpha/guide/a.md").markdown
    assert (
        "[P](../../beta/profiles/vllm.box.tiny.md), [Q](../profiles/vllm.box.tiny.md), [R](r.pdf)"
        in page
    )
    assert not site.unresolved


@pytest.mark.parametrize(
    ("option", "level", "word"), [("info", "INFO", "note"), ("warn", "WARNING", "warning")]
)
def test_unresolved_routes_are_logged_in_the_words_of_their_level(
    make_project, caplog, option, level, word
):
    project = make_project(
        templates={"guide/a.mdx.j2": PAGE.format(title="A", body="[Gone](nowhere)")}
    )
    plugin = DocgenPlugin()
    plugin.load_config({"unresolved_links": option})
    plugin.project_root = project.root
    with caplog.at_level("INFO", logger="mkdocs.plugins.docgen.integrations.mkdocs_plugin"):
        plugin._report_links(plugin._site())
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            level,
            f"docs/guide/a.mdx:7: {word}: route 'nowhere' is not a page of this site; "
            "the preview shows it as plain text",
        )
    ]


def test_unresolved_routes_link_to_the_published_site_when_the_registry_has_one(make_project):
    registry = MINIMAL_REGISTRY.replace(
        "  docs_base: /guide/{agent}\n",
        "  docs_base: /guide/{agent}\n  site_url: https://docs.example.org/acme\n",
    )
    page = PAGE.format(title="A", body="[Gone](nowhere#part), [API](/api/v1)")
    project = make_project(registry=registry, templates={"guide/a.mdx.j2": page})
    markdown = next(p for p in site_of(project.root).pages if p.uri == "beta/guide/a.md").markdown
    assert "[Gone](https://docs.example.org/acme/guide/beta/guide/nowhere#part)" in markdown
    assert "[API](https://docs.example.org/acme/api/v1)" in markdown


def test_hand_written_pages_and_images_join_every_section_they_are_published_for(make_project):
    project = make_project(
        files={
            "docs/guide/hand.mdx": PAGE.format(title="Hand", body="![flow](../images/flow.png)"),
            "docs/guide/beta-only.mdx": '---\ntitle: "Beta"\nagent-variants: ["beta"]\n---\n\nB.\n',
            "docs/images/flow.png": "not really a png",
        }
    )
    site = site_of(project.root)
    uris = {p.uri for p in site.pages}
    assert {"alpha/guide/hand.md", "beta/guide/hand.md", "beta/guide/beta-only.md"} <= uris
    assert "alpha/guide/beta-only.md" not in uris
    assert ("beta/images/flow.png", project.root / "docs/images/flow.png") in site.assets


def test_a_file_a_template_made_joins_every_section_as_a_download(site_project, tmp_path, run):
    """A page links to ``models.json``, which a template makes: the preview copies it as
    built, so ``mkdocs build --strict`` finds what the link leads to."""
    site_project.write(
        "templates/inference/models.json.j2",
        '{"models": {{ models.values() | map(attribute="hf") | list | tojson }}}\n',
    )
    site_project.edit(
        "docs/inference/choose-local-inference-server.mdx",
        "Read [Set Up vLLM](set-up-vllm)",
        "Read [the models as JSON](models.json) and [Set Up vLLM](set-up-vllm)",
    )
    assert run(site_project, "build", "-q").exit_code == 0
    site = site_of(site_project.root)
    made = site_project.root / "docs/inference/models.json"
    assert ("hermes/inference/models.json", made) in site.assets
    assert not any(uri.endswith("registry.json") for uri, _ in site.assets)  # not a template's
    result = mkdocs(site_project.root, "build", "--strict", "--site-dir", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site/hermes/inference/models.json").read_text("utf-8") == made.read_text(
        "utf-8"
    )


def test_mkdocs_build_strict_on_the_repository(site_project, tmp_path):
    result = mkdocs(site_project.root, "build", "--strict", "--site-dir", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site/hermes/inference/set-up-vllm/index.html").read_text("utf-8")
    assert "<title>Set Up vLLM - NemoClaw</title>" in page
    assert '<div class="admonition note">' in page and "nemohermes onboard" in page
    assert "is not a page of this site" not in result.stderr  # every route resolves
    assert (tmp_path / "site/index.html").is_file()


def test_registry_error_fails_the_build_with_the_located_message(site_project, tmp_path):
    site_project.edit("profiles.yaml", "max-num-seqs: 4", "max-num-seqz: 4")
    with pytest.raises(DocgenError) as caught:
        plan(load_project(site_project.root))
    expected = [str(p) for p in caught.value.problems]
    assert expected[0].startswith("profiles.yaml:") and ": error: unknown vLLM" in expected[0]
    result = mkdocs(site_project.root, "build", "--site-dir", str(tmp_path / "site"))
    assert result.returncode == 1
    assert all(line in result.stderr for line in expected), result.stderr
    assert "Traceback" not in result.stderr


def test_a_registry_error_leaves_the_last_good_site_in_place(site_project, tmp_path):
    """MkDocs empties the site folder after ``on_pre_build``: the plan fails there, first."""
    site = tmp_path / "site"
    assert mkdocs(site_project.root, "build", "--site-dir", str(site)).returncode == 0
    before = sorted(p.relative_to(site) for p in site.rglob("*"))
    site_project.edit("profiles.yaml", "max-num-seqs: 4", "max-num-seqz: 4")
    result = mkdocs(site_project.root, "build", "--site-dir", str(site))
    assert result.returncode == 1 and "unknown vLLM" in result.stderr
    assert sorted(p.relative_to(site) for p in site.rglob("*")) == before
    assert (site / "index.html").is_file()


@pytest.mark.parametrize(
    "shadow", ["hermes/inference/set-up-vllm.md", "hermes/inference/set-up-vllm/index.md"]
)
def test_a_static_file_at_a_plugin_pages_address_is_a_warning_not_a_traceback(
    site_project, tmp_path, shadow
):
    site_project.write(f"site_extra/{shadow}", "# Shadow\n")
    strict = mkdocs(site_project.root, "build", "--strict", "--site-dir", str(tmp_path / "s"))
    assert strict.returncode == 1
    assert (
        f"site_extra/{shadow}: warning: docgen's preview serves its own "
        "file at this address; this one is not served"
    ) in strict.stderr
    assert "Traceback" not in strict.stderr and "DeprecationWarning" not in strict.stderr
    assert mkdocs(site_project.root, "build", "--site-dir", str(tmp_path / "s")).returncode == 0
    page = (tmp_path / "s/hermes/inference/set-up-vllm/index.html").read_text("utf-8")
    assert "nemohermes onboard" in page and "Shadow" not in page


def test_plugin_root_option_and_an_in_process_build(site_project, tmp_path):
    preview = site_project.root / "preview"
    (preview / "extra").mkdir(parents=True)
    site_project.write("docs/images/flow.png", "an image")
    (preview / "mkdocs.yml").write_text(
        "site_name: Preview\ndocs_dir: extra\nplugins:\n"
        "  - docgen:\n      root: ..\n      agents: [deepagents]\n",
        "utf-8",
    )
    config = load_config(str(preview / "mkdocs.yml"), site_dir=str(tmp_path / "out"))
    build(config)
    page = tmp_path / "out/deepagents/inference/set-up-vllm/index.html"
    assert "nemo-deepagents onboard" in page.read_text("utf-8")
    assert not (tmp_path / "out/hermes").exists()
    assert (tmp_path / "out/deepagents/images/flow.png").read_text("utf-8") == "an image"


def test_plugin_errors_are_plugin_errors_with_the_problems_text(site_project, tmp_path):
    site_project.write("profiles.yaml", "schema: 1\nproduct: [\n")
    config = load_config(str(site_project.root / "mkdocs.yml"), site_dir=str(tmp_path / "out"))
    config = config.plugins.on_config(config)
    with pytest.raises(PluginError, match=r"^profiles\.yaml:\d+:\d+: error: "):
        config.plugins.on_files(Files([]), config=config)


class _Server:
    def __init__(self) -> None:
        self.watched: list[str] = []

    def watch(self, path: str) -> None:
        self.watched.append(path)


def test_serve_watches_the_registry_templates_docs_and_settings(site_project):
    plugin = DocgenPlugin()
    plugin.load_config({})
    plugin.project_root = site_project.root
    server = _Server()
    plugin.on_serve(server, config=None, builder=None)  # type: ignore[arg-type]
    names = [Path(p).relative_to(site_project.root).as_posix() for p in server.watched]
    assert names == ["profiles.yaml", "templates", "docs", "changelog", "pyproject.toml"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _fetch(url: str) -> str:
    """The page, or "" while a rebuild has it missing."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return str(response.read().decode("utf-8"))
    except urllib.error.HTTPError:
        return ""


def test_mkdocs_serve_rebuilds_when_the_registry_or_a_template_changes(site_project):
    address = f"127.0.0.1:{_free_port()}"
    command = [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", address]
    server = subprocess.Popen(
        command, cwd=site_project.root, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(
        target=lambda: [lines.put(line) for line in server.stderr], daemon=True
    ).start()

    log: list[str] = []

    def wait_for(text: str) -> None:
        """Read the server's log up to a line with ``text``; fail on an error or a timeout."""
        while True:
            try:
                log.append(lines.get(timeout=60))
            except queue.Empty:
                pytest.fail(f"no '{text}' from mkdocs serve within 60 s:\n{''.join(log)}")
            assert "ERROR" not in log[-1], "".join(log)
            if text in log[-1]:
                return

    def rebuilt_with(text: str) -> bool:
        """Wait for rebuilds until the page shows ``text`` (an edit may cause two).

        "Reloading browsers" follows every successful rebuild; "Documentation built in N
        seconds" does not do for this, as mkdocs drops a message identical to an earlier one.
        """
        while text not in _fetch(url):
            wait_for("Reloading browsers")
        return True

    url = f"http://{address}/hermes/inference/set-up-vllm/"
    try:
        wait_for("Serving on")
        assert "Preview edit." not in _fetch(url)
        template = "templates/inference/set-up-vllm.mdx.j2"
        site_project.edit(template, "## Related Topics", "Preview edit.\n\n## Related Topics")
        assert rebuilt_with("<p>Preview edit.</p>")
        site_project.edit("profiles.yaml", "name: N1x,", "name: N1x Box,")
        assert rebuilt_with("<td>N1x Box</td>")
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_an_unknown_agent_in_mkdocs_yml_is_located_there(site_project, tmp_path):
    text = site_project.read("mkdocs.yml")
    assert "  - docgen\n" in text
    site_project.write(
        "mkdocs.yml", text.replace("  - docgen\n", "  - docgen:\n      agents: [hermess]\n")
    )
    line = site_project.read("mkdocs.yml").splitlines().index("      agents: [hermess]") + 1
    result = mkdocs(site_project.root, "build", "--site-dir", str(tmp_path / "site"))
    assert result.returncode == 1
    assert (
        f"mkdocs.yml:{line}: error: unknown agent 'hermess' in the docgen plugin's agents; "
        "did you mean 'hermes'?"
    ) in result.stderr
    assert "Traceback" not in result.stderr


def test_a_changelog_under_the_docs_is_previewed_with_its_overview(example):
    """Entries under the docs folder are pages of the site, and so is the overview docgen
    generates beside them, for every agent; a changelog outside the docs is in neither."""
    published = [p.uri for p in site_of(example.root).pages]
    assert not [uri for uri in published if "changelog" in uri or "release-notes" in uri]
    shutil.move(example.root / "changelog", example.root / "docs" / "changelog")
    example.edit("pyproject.toml", 'changelog = "changelog"', 'changelog = "docs/changelog"')
    site = site_of(example.root)
    previewed = {p.uri for p in site.pages if "/changelog/" in p.uri}
    assert previewed == {
        f"{agent}/changelog/{name}.md"
        for agent in ("openclaw", "hermes", "deepagents")
        for name in ("2026-08-04", "overview")
    }
    overview = next(p for p in site.pages if p.uri == "hermes/changelog/overview.md")
    assert "v0.0.102" in overview.markdown
    assert site.unresolved == ()


def test_each_release_is_a_page_of_every_section_at_its_release_route(make_project):
    """Without a navigation docgen publishes each entry at ``release_route`` for every
    agent: the preview shows it there, titled by its date, newest first under "Release
    Notes", and links to it and from it lead to site pages."""
    first = "## v0.1.0\n\nAcme v0.1.0 adds a guide.\n\n- Read [the guide](/guide/beta/guide/a).\n"
    second = "{/* A comment. */}\n\n## v0.2.0\n\nAcme v0.2.0 tunes it.\n"
    page = PAGE.format(title="A", body="See [the release](/guide/alpha/release-notes/2026/2/10).")
    project = make_project(
        templates={"guide/a.mdx.j2": page},
        files={"changelog/2026-01-02.mdx": first, "changelog/2026-02-10.mdx": second},
    )
    site = site_of(project.root)
    dated = {p.uri: p for p in site.pages if "/release-notes/" in p.uri}
    assert sorted(dated) == [
        f"{agent}/release-notes/2026/{day}.md"
        for agent in ("alpha", "beta")
        for day in ("1/2", "2/10")
    ]
    assert dated["beta/release-notes/2026/2/10.md"].title == "February 10, 2026"
    assert "A comment" not in dated["beta/release-notes/2026/2/10.md"].markdown
    assert "[the guide](../../../guide/a.md)" in dated["beta/release-notes/2026/1/2.md"].markdown
    assert (
        "[the guide](../../../../beta/guide/a.md)"
        in dated["alpha/release-notes/2026/1/2.md"].markdown
    )
    guide = next(p for p in site.pages if p.uri == "alpha/guide/a.md").markdown
    assert "[the release](../release-notes/2026/2/10.md)" in guide
    alpha = next(section["Acme for Alpha"] for section in site.nav if "Acme for Alpha" in section)
    assert alpha[-1] == {
        "Release Notes": [
            {"February 10, 2026": "alpha/release-notes/2026/2/10.md"},
            {"January 2, 2026": "alpha/release-notes/2026/1/2.md"},
        ]
    }
    assert site.unresolved == ()


@pytest.mark.parametrize("own", ["release-notes/2026/1/2", "release-notes/2026/1/2/index"])
def test_a_docs_page_at_a_release_route_keeps_it(make_project, own):
    """Also ``.../2/index``, which MkDocs serves at the same address."""
    entry = "## v0.1.0\n\nAcme v0.1.0 adds a guide.\n"
    page = PAGE.format(title="Our own notes", body="Hand-written.")
    project = make_project(
        templates={"guide/a.mdx.j2": PAGE.format(title="A", body="Hello.")},
        files={"changelog/2026-01-02.mdx": entry, f"docs/{own}.mdx": page},
    )
    site = site_of(project.root)
    found = [p for p in site.pages if p.uri.startswith("alpha/release-notes/2026/1/2")]
    assert [(p.title, p.source) for p in found] == [("Our own notes", f"docs/{own}.mdx")]


def test_untrusted_page_text_and_entries_run_nothing_in_the_preview(site_project, tmp_path):
    """A pull request's page or changelog entry may hold a script, an event handler, a
    frame or a ``javascript:`` link: the preview's HTML keeps none of them (it is
    sanitized), while anchors, admonitions, code and links between pages stay."""
    hostile = (
        "Hi <script>alert(1)</script> there.\n\n"
        '<img src="flow.png" onerror="alert(2)">\n\n'
        '<iframe src="https://example.org/"></iframe>\n\n'
        '[click](javascript:alert(3))\n\n<div onclick="alert(4)" style="x">held</div>\n\n'
        "<Note>\nA note.\n</Note>\n\n## Next Steps\n\n[Set up](set-up-vllm)\n"
    )
    site_project.write("docs/inference/hostile.mdx", PAGE.format(title="Hostile", body=hostile))
    spdx = site_project.read("changelog/2026-08-04.mdx").split("*/}", 1)[0] + "*/}\n\n"
    site_project.write(
        "changelog/2026-09-01.mdx", spdx + "## v9.0.0\n\nHi <script>alert(5)</script>.\n"
    )
    (site_project.root / "docs/index.yml").unlink()  # no navigation: every agent has releases
    result = mkdocs(site_project.root, "build", "--site-dir", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site/hermes/inference/hostile/index.html").read_text("utf-8")
    body = page.split('role="main"', 1)[1]
    for held in ("<script>alert", "onerror", "<iframe", "javascript:", "onclick", 'style="x"'):
        assert held not in body
    assert "Hi  there." in body and "held</div>" in body
    assert '<div class="admonition note">' in body and 'id="next-steps"' in body
    assert 'href="../set-up-vllm/"' in body
    entry = (tmp_path / "site/hermes/release-notes/2026/9/1/index.html").read_text("utf-8")
    assert "alert(5)" not in entry and "v9.0.0" in entry


@pytest.mark.parametrize("name", ["20260102", "2026-02-30", "2026-1-2", "notes"])
def test_an_entry_whose_name_is_no_real_date_has_no_release_page(make_project, name):
    """``check`` refuses such a name (YYYY-MM-DD.mdx only; Python 3.11 would read
    ``20260102`` as a date), so the preview publishes no release page for it."""
    entry = "## v0.1.0\n\nAcme v0.1.0 adds a guide.\n"
    project = make_project(files={f"changelog/{name}.mdx": entry})
    assert [p.uri for p in site_of(project.root).pages if "release" in p.uri] == []


@pytest.mark.parametrize("theme", ["readthedocs", "mkdocs"])
def test_titles_and_folder_names_reach_the_theme_as_text(make_project, tmp_path, theme):
    """Themes put nav titles into their HTML as they are: an agent's title (registry
    text), a page's frontmatter title and a folder's name are escaped, so none becomes a
    tag or an attribute of the built site."""
    registry = MINIMAL_REGISTRY.replace(
        "title: Acme for Alpha", 'title: "Alpha <img src=x onerror=alert(1)>"'
    )
    evil = '---\ntitle: \'Evil" onmouseover="alert(2)" x="\'\n---\n\nText.\n'
    project = make_project(
        registry=registry,
        files={
            "docs/<img src=x onerror=alert(3)>/p.mdx": PAGE.format(title="P", body="Text."),
            "docs/evil.mdx": evil,
            # a block MkDocs would take for the page's metadata once the comment is gone
            "docs/meta.mdx": '{/* c */}\n---\nsrc: ["<img src=x onerror=alert(4)>"]\n---\n\nB.\n',
            "site_extra/.keep": "",
            "mkdocs.yml": f"site_name: S\ndocs_dir: site_extra\ntheme: {theme}\n"
            "plugins: [docgen]\n",
        },
    )
    result = mkdocs(project.root, "build", "--site-dir", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    built = "".join(p.read_text("utf-8") for p in (tmp_path / "site").rglob("*.html"))
    assert _event_handlers(built) == set()
    assert "Alpha &lt;img src=x onerror=alert(1)&gt;" in built


def _event_handlers(page: str) -> set[str]:
    """Every ``on...`` attribute of the HTML's elements, as a browser's parser finds them."""
    from html.parser import HTMLParser

    found: set[str] = set()

    class Handlers(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.update(name for name, _value in attrs if name.startswith("on"))

    Handlers().feed(page)
    return found


def test_a_sections_pages_come_before_its_folders():
    from docgen.integrations.preview_nav import SitePage, section_nav

    pages = [SitePage("a/zeta.md", "Zeta", "", ""), SitePage("a/guide/x.md", "X", "", "")]
    assert section_nav(pages) == [{"Zeta": "a/zeta.md"}, {"Guide": [{"X": "a/guide/x.md"}]}]


def test_an_image_linked_from_outside_the_root_is_never_copied(make_project, tmp_path):
    """A link under docs/ that leads out of the project (or to no regular file) is no
    asset of the preview: MkDocs would copy what it leads to into the site."""
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET\n", "utf-8")
    project = make_project(files={"docs/images/flow.png": "not really a png"})
    (project.root / "docs/leak.png").symlink_to(secret)
    (project.root / "docs/gone.png").symlink_to(tmp_path / "nothing-here")
    (project.root / "docs/same.png").symlink_to(project.root / "docs/images/flow.png")
    assets = dict(site_of(project.root).assets)
    assert "alpha/leak.png" not in assets and "alpha/gone.png" not in assets
    assert assets["alpha/same.png"] == project.root / "docs/images/flow.png"
    assert assets["alpha/images/flow.png"] == project.root / "docs/images/flow.png"


@pytest.mark.parametrize("git_folder", [".git", ".GIT"])
def test_a_link_into_gits_own_folder_is_never_copied(git_folder, make_project, tmp_path):
    """``.git/config`` holds what ``actions/checkout`` stores: a pull request's link to it
    (an image under docs/, a file of MkDocs' own folder) would publish a CI token."""
    project = make_project(files={f"{git_folder}/config": "AUTHORIZATION: basic TOKEN\n"})
    (project.root / "docs").mkdir(exist_ok=True)
    (project.root / "docs/logo.png").symlink_to(f"../{git_folder}/config")
    (project.root / "site_extra").mkdir()
    (project.root / "site_extra/x.pdf").symlink_to(f"../{git_folder}/config")
    (project.root / "mkdocs.yml").write_text(
        "site_name: S\ndocs_dir: site_extra\nplugins: [docgen]\n", "utf-8"
    )
    assert "alpha/logo.png" not in dict(site_of(project.root).assets)
    site = tmp_path / "site"
    result = mkdocs(project.root, "build", "--site-dir", str(site))
    assert result.returncode == 0, result.stderr
    assert "site_extra/x.pdf: warning: a link that leads out of the project (or into .git)" in (
        result.stderr
    )
    assert not [p for p in site.rglob("*") if p.is_file() and b"TOKEN" in p.read_bytes()]


def test_odd_page_names_link_from_the_home_page_and_a_shared_address_is_a_warning(
    make_project, tmp_path
):
    """Page names are file names: ``#``, ``?``, ``%`` and ``)`` in one must not break the
    home page's links (``--strict`` checks each). MkDocs serves ``col.md`` and
    ``col/index.md`` at one address and shows one: the preview says which it leaves out."""
    names = ["a#b", "a?b", "a%41b", "a)b", "col", "col/index"]
    pages = {f"docs/{n}.mdx": PAGE.format(title=n, body="Text.") for n in names}
    project = make_project(
        files={
            **pages,
            "site_extra/.keep": "",
            "mkdocs.yml": "site_name: S\ndocs_dir: site_extra\nplugins: [docgen]\n",
        },
    )
    site = site_of(project.root)
    assert [str(p) for p in site.clashes] == [
        "docs/col.mdx: warning: MkDocs serves this page and docs/col/index.mdx at the same "
        "address (col/), so the preview leaves this one out: rename one of them"
    ]
    uris = {p.uri for p in site.pages}
    assert {"alpha/col/index.md", "beta/col/index.md"} <= uris and "alpha/col.md" not in uris
    strict = mkdocs(project.root, "build", "--strict", "--site-dir", str(tmp_path / "site"))
    assert strict.returncode == 1
    assert "docs/col.mdx: warning: MkDocs serves this page" in strict.stderr
    (project.root / "docs/col.mdx").unlink()
    result = mkdocs(project.root, "build", "--strict", "--site-dir", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    home = (tmp_path / "site/index.html").read_text("utf-8")
    for name in ("a%23b", "a%3Fb", "a%2541b", "a%29b"):
        assert f'href="alpha/{name}/"' in home


def test_mkdocs_own_pages_are_sanitized_and_links_out_of_the_project_not_copied(
    site_project, tmp_path
):
    """``site_extra`` is MkDocs' own docs folder, but its text is a pull request's too: a
    page there ran a script, and a link there to a file outside the project copied it
    into the site."""
    secret = tmp_path / "secret.png"
    secret.write_text("SECRET", "utf-8")
    (site_project.root / "site_extra/leak.png").symlink_to(secret)
    page = site_project.root / "site_extra/extra.md"
    page.write_text('# Extra\n\n<script>alert("x")</script>\n\nText.\n', "utf-8")
    site = tmp_path / "site"
    result = mkdocs(site_project.root, "build", "--site-dir", str(site))
    assert result.returncode == 0, result.stderr
    assert not (site / "leak.png").exists()
    assert "site_extra/leak.png: warning: a link that leads out of the project" in result.stderr
    html = (site / "extra/index.html").read_text("utf-8")
    assert "Text." in html and 'alert("x")' not in html


def test_what_is_no_regular_file_in_mkdocs_own_folder_is_not_copied(site_project, tmp_path):
    """A FIFO there stopped ``mkdocs build`` with a traceback, and a device copied
    ``/dev/zero`` into the site until the disk was full (a hostile round); a linked
    folder leading out of the project is one warning, at the link, not one per name
    below it."""
    import os

    extra = site_project.root / "site_extra"
    os.mkfifo(extra / "fifo.txt")
    (extra / "zero.bin").symlink_to("/dev/zero")  # a device, as mknod would make one
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    for name in ("secret-a.md", "deep/secret-b.md"):
        (outside / name).write_text("# Secret\n", "utf-8")
    (extra / "away").symlink_to(outside)
    site = tmp_path / "site"
    result = mkdocs(site_project.root, "build", "--site-dir", str(site))
    assert result.returncode == 0, result.stderr
    assert not (site / "fifo.txt").exists() and not (site / "zero.bin").exists()
    assert "site_extra/fifo.txt: warning: not a regular file" in result.stderr
    assert "site_extra/away: warning: a link that leads out of the project" in result.stderr
    assert "secret" not in result.stderr and not (site / "away").exists()


def test_a_linked_folder_inside_the_project_names_each_file_it_leaves_out(site_project, tmp_path):
    """A folder link that stays inside the project was said to lead out, and a FIFO below
    it went unnamed (a review): each left-out file is said with its own reason."""
    import os

    shared = site_project.root / "shared"
    shared.mkdir()
    (shared / "leak.png").symlink_to("/etc/hostname")
    os.mkfifo(shared / "pipe.png")
    (site_project.root / "site_extra/assets").symlink_to("../shared")
    result = mkdocs(site_project.root, "build", "--site-dir", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    assert "site_extra/assets/leak.png: warning: a link that leads out" in result.stderr
    assert "site_extra/assets/pipe.png: warning: not a regular file" in result.stderr
    assert "site_extra/assets: warning" not in result.stderr


@pytest.mark.parametrize(
    ("folder", "title"),
    [("set_up-guides", "Set up guides"), ("inference", "Inference"), ("a<b>_c", "A&lt;b&gt; c")],
)
def test_a_folders_section_title_reads_dashes_and_underscores_as_spaces(folder, title):
    from docgen.integrations.preview_nav import _section_title

    assert _section_title(folder) == title
