"""Templates compiled once per user (docgen/render/compiled.py): a later renderer loads
the code a first one compiled, but only code this user's key sealed, for the very text
and the same kind of environment; a cache it cannot use costs only a compile."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import jinja2
import pytest
from conftest import MINIMAL_REGISTRY

from docgen.io import user_cache
from docgen.registry.load import load_bytes
from docgen.registry.model import Registry
from docgen.render import compiled
from docgen.render.environment import Renderer

PAGE = "{% for p in profiles %}{{ p.id }} on {{ p.host.name }}\n{% endfor %}"


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_bytes(MINIMAL_REGISTRY.encode(), "profiles.yaml")


@pytest.fixture
def user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user of their own, with a cache key (as a first build makes it)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("DOCGEN_NO_TEMPLATE_CACHE", raising=False)
    assert user_cache.secret(create=True) is not None
    return tmp_path / "xdg" / "docgen" / "templates"


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The name of every template Jinja compiles."""
    names: list[str] = []
    real = jinja2.Environment.compile

    def counted(self, source, name=None, filename=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        names.append(name)
        return real(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    yield names


def rendered(registry: Registry, folder: Path, text: str = PAGE, recording: bool = True) -> str:
    (folder / "page.mdx.j2").write_text(text, "utf-8")
    return Renderer(registry, [folder], recording=recording).render("page.mdx.j2", "t", {})


def test_a_later_renderer_loads_the_code_a_first_one_compiled(registry, tmp_path, user, compiles):
    first = rendered(registry, tmp_path)
    assert compiles == ["page.mdx.j2"] and len(list(user.iterdir())) == 1
    assert rendered(registry, tmp_path) == first == "vllm.box.tiny on Big Box\n"
    assert compiles == ["page.mdx.j2"]  # not compiled again


def test_a_changed_template_is_compiled_again(registry, tmp_path, user, compiles):
    rendered(registry, tmp_path)
    assert rendered(registry, tmp_path, PAGE.replace(" on ", " runs on ")) == (
        "vllm.box.tiny runs on Big Box\n"
    )
    assert compiles == ["page.mdx.j2", "page.mdx.j2"]


def test_code_no_key_of_this_user_sealed_is_never_loaded(registry, tmp_path, user, compiles):
    """A file put in the cache folder by anyone else (here: code for another text, sealed
    with another key) is ignored: the template is compiled from its own text."""
    rendered(registry, tmp_path)
    (code,) = user.iterdir()
    raw = code.read_bytes()
    payload = raw[len(compiled.FORMAT) + user_cache.SEAL :]
    bucket = jinja2.bccache.Bucket(jinja2.Environment(), "k", "")
    bucket.code = compile("raise SystemExit('planted code ran')", "<planted>", "exec")
    forged = bucket.bytecode_to_string()
    code.write_bytes(compiled.FORMAT + user_cache.seal(os.urandom(32), forged) + payload)
    assert rendered(registry, tmp_path) == "vllm.box.tiny on Big Box\n"
    assert compiles == ["page.mdx.j2", "page.mdx.j2"]


def test_each_kind_of_environment_keeps_its_own_code(registry, tmp_path, user, compiles):
    """The recording environment and the plain one compile templates differently: neither
    loads the other's code."""
    rendered(registry, tmp_path, recording=True)
    rendered(registry, tmp_path, recording=False)
    assert compiles == ["page.mdx.j2", "page.mdx.j2"] and len(list(user.iterdir())) == 2


def test_a_cache_folder_that_cannot_be_written_costs_only_a_compile(
    registry, tmp_path, user, compiles
):
    user.write_text("a file where the folder would be")
    assert (
        rendered(registry, tmp_path) == rendered(registry, tmp_path) == "vllm.box.tiny on Big Box\n"
    )
    assert compiles == ["page.mdx.j2", "page.mdx.j2"]


def test_the_cache_can_be_turned_off(registry, tmp_path, user, compiles, monkeypatch):
    monkeypatch.setenv("DOCGEN_NO_TEMPLATE_CACHE", "1")
    rendered(registry, tmp_path)
    rendered(registry, tmp_path)
    assert compiles == ["page.mdx.j2", "page.mdx.j2"] and not user.exists()


def test_a_user_without_a_key_gets_nothing_kept(registry, tmp_path, monkeypatch, compiles):
    """A check on a fresh machine (docs CI) neither makes a key nor keeps any code: the
    user's cache folder stays as it was."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    rendered(registry, tmp_path)
    rendered(registry, tmp_path)
    assert compiles == ["page.mdx.j2", "page.mdx.j2"] and not (tmp_path / "xdg").exists()


def test_a_link_planted_where_the_code_is_written_is_never_written_through(
    registry, tmp_path, user
):
    """The code is written to a temporary file made afresh beside its place (never
    through a link anyone put at that name), then renamed over it."""
    from docgen.io import writes

    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own data\n")
    (tmp_path / "page.mdx.j2").write_text(PAGE, "utf-8")
    renderer = Renderer(registry, [tmp_path])
    cache = renderer.env.bytecode_cache
    assert isinstance(cache, compiled.SealedCode)
    name = cache.get_cache_key("page.mdx.j2", str(tmp_path / "page.mdx.j2"))
    user.mkdir(parents=True)
    (user / f".{name}.{os.getpid()}{writes.TMP_SUFFIX}").symlink_to(victim)
    (user / name).symlink_to(victim)
    assert renderer.render("page.mdx.j2", "t", {}) == "vllm.box.tiny on Big Box\n"
    assert victim.read_text() == "the user's own data\n"
    assert not (user / name).is_symlink()


def test_code_sealed_for_one_template_is_not_taken_for_another(registry, tmp_path, user, compiles):
    """The seal covers the file's name: a sealed file copied under another template's
    name (same text, so Jinja's own check would pass) is not loaded for it."""
    (tmp_path / "a.mdx.j2").write_text("{{ self | string }}", "utf-8")
    (tmp_path / "b.mdx.j2").write_text("{{ self | string }}", "utf-8")
    assert "'a.mdx.j2'" in Renderer(registry, [tmp_path]).render("a.mdx.j2", "t", {})
    (code,) = user.iterdir()
    renderer = Renderer(registry, [tmp_path])
    cache = renderer.env.bytecode_cache
    assert isinstance(cache, compiled.SealedCode)
    shutil.copy(code, user / cache.get_cache_key("b.mdx.j2", str(tmp_path / "b.mdx.j2")))
    assert "'b.mdx.j2'" in renderer.render("b.mdx.j2", "t", {})
    assert compiles == ["a.mdx.j2", "b.mdx.j2"]


def test_the_folder_keeps_a_bounded_number_of_files(registry, tmp_path, user, monkeypatch):
    """Each docgen, Jinja and Python (and project folder) compiles its own: beyond
    ``MAX_FILES`` the oldest go, and so does what a killed write left long ago."""
    from docgen.io import writes

    monkeypatch.setattr(compiled, "MAX_FILES", 4)
    user.mkdir(parents=True)
    left = user / f".left.1{writes.TMP_SUFFIX}"
    left.write_bytes(b"killed mid-write")
    os.utime(left, (1, 1))
    for n in range(7):
        (tmp_path / f"p{n}.mdx.j2").write_text(f"page {n}", "utf-8")
        assert Renderer(registry, [tmp_path]).render(f"p{n}.mdx.j2", "t", {}) == f"page {n}"
        assert len(list(user.iterdir())) <= 4
    assert not left.exists()


def test_the_user_cache_folder_is_absolute_and_its_key_a_regular_file(tmp_path, monkeypatch):
    """A relative ``XDG_CACHE_HOME`` is ignored, as the XDG spec says; a key that is not a
    regular file of 32 bytes (a FIFO here) is no key, reading it never blocks, and a
    build's key replaces it."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert user_cache.folder() == tmp_path / "home" / ".cache" / "docgen"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    user_cache.key_file().parent.mkdir(parents=True)
    os.mkfifo(user_cache.key_file())
    assert user_cache.secret() is None
    made = user_cache.secret(create=True)
    assert made is not None and user_cache.key_file().is_file() and user_cache.secret() == made
