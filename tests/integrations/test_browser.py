"""End to end in a real browser: the worked example's MkDocs site in headless Chromium.

The test builds the site with the docgen plugin, serves it on 127.0.0.1, opens the
Hermes variant of the setup page in Debian's ``chromium`` and reads the DOM the
browser rendered. It installs nothing: without a browser it skips, or fails when the
CI environment variable is set (``.ci/run`` installs ``chromium``). The screenshot
is saved as ``hermes.png`` in the test's temporary folder.
"""

from __future__ import annotations

import functools
import os
import shutil
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import REPO

PAGE = "hermes/inference/set-up-vllm/"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
HIDDEN_TAGS = {"head", "script", "style", "noscript", "template"}
VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


@pytest.fixture
def browser() -> str:
    """Path of the browser; skip without one, but fail in CI, where it must be installed."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    reason = "headless Chromium is not installed (Debian: apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must install it (see .ci/run)")
    pytest.skip(reason)


class Rendered(HTMLParser):
    """What a reader sees in a DOM: visible text, the text of code elements, table rows."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.text: list[str] = []
        self.code: list[str] = []
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    @property
    def hidden(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID_TAGS:
            return
        style = (dict(attrs).get("style") or "").replace(" ", "")
        hidden = (
            self.hidden
            or tag in HIDDEN_TAGS
            or any(name == "hidden" for name, _ in attrs)
            or "display:none" in style
            or "visibility:hidden" in style
        )
        self.stack.append((tag, hidden))
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "code":
            self.code.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.rows:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None
        names = [name for name, _ in self.stack]
        if tag in names:
            del self.stack[len(names) - 1 - names[::-1].index(tag) :]

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)
        if any(name == "code" for name, _ in self.stack) and self.code:
            self.code[-1] += data


@pytest.fixture
def site_url(example, tmp_path: Path) -> Iterator[str]:
    """The worked example built by ``mkdocs build --strict`` and served on a free port."""
    shutil.copy(REPO / "mkdocs.yml", example.root / "mkdocs.yml")
    shutil.copytree(REPO / "site_extra", example.root / "site_extra")
    site = tmp_path / "site"
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    built = subprocess.run(command, cwd=example.root, capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def browse(browser: str, tmp_path: Path, *args: str) -> str:
    """Run headless Chromium once with a fresh profile; its stdout."""
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    command = [browser, *FLAGS, f"--user-data-dir={profile}", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_hermes_setup_page_renders_in_chromium(browser, site_url, tmp_path):
    url = site_url + PAGE
    dom = browse(browser, tmp_path, "--dump-dom", url)
    page = Rendered()
    page.feed(dom)
    text = "".join(page.text)

    assert "Set Up vLLM" in text and "NemoClaw for Hermes" in text
    header = ["Slug", "Hugging Face model", "Registered host profiles"]
    assert any(row[:3] == header for row in page.rows), page.rows
    assert ["qwen3.6-35b-a3b-nvfp4", "nvidia/Qwen3.6-35B-A3B-NVFP4"] in [r[:2] for r in page.rows]
    assert any("nemohermes onboard" in code for code in page.code)
    for leftover in ("$$nemoclaw", "<AgentOnly", "AgentOnly", "{/*"):
        assert leftover not in text, leftover

    shot = tmp_path / "hermes.png"
    browse(browser, tmp_path, f"--screenshot={shot}", "--window-size=1280,2000", url)
    assert png_size(shot) == (1280, 2000)
    assert shot.stat().st_size > 50_000, "the screenshot looks blank"
