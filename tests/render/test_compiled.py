"""Templates compiled once per user (docgen/render/compiled.py): a later renderer loads
the code a first one compiled, but only code this user's key sealed, for the very text
and the same kind of environment; a cache it cannot use costs only a compile."""

from __future__ import annotations

import os
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
