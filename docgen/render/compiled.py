"""Templates compiled once per user, not once per run.

Jinja turns each template into Python code the first time a process loads it: about a
sixth of a check of the worked example. The code is kept in this user's cache folder
(``$XDG_CACHE_HOME/docgen/templates/``, outside every project), sealed with the user's
key (see ``docgen.io.user_cache``), so a file anyone else put there is never loaded.

A file's name is a digest of what the code depends on besides the template's text:
docgen's own code, Jinja's and Python's versions, the environment's kind, the
template's name and file. Jinja checks the text itself (the bucket's checksum). Keeping
the code is best effort: a folder that cannot be written, or a file that cannot be
read, only means the template is compiled again.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from contextlib import suppress
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket

from docgen.errors import DocgenError
from docgen.io import files, user_cache, writes

#: The first bytes of every file: which docgen format it is.
FORMAT = b"docgen-template-code-1\n"
#: The largest file read back (the code of a template is tens of kilobytes).
MAX_BYTES = 16_000_000


class SealedCode(jinja2.BytecodeCache):
    """Jinja's code of each template, kept sealed in this user's cache folder."""

    def __init__(self, environment: jinja2.Environment, key: bytes) -> None:
        self.key = key
        self.folder = user_cache.folder() / "templates"
        kind = type(environment)
        self.made_by = b"\0".join(
            [
                user_cache.code_digest(),
                jinja2.__version__.encode(),
                sys.version.encode(),
                f"{kind.__module__}.{kind.__qualname__}".encode(),
            ]
        )

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        digest = hashlib.sha256(self.made_by)
        digest.update(f"\0{name}\0{filename or ''}".encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def load_bytecode(self, bucket: Bucket) -> None:
        raw = files.read_quietly(self.folder / bucket.key, None, MAX_BYTES)
        payload = None if raw is None else user_cache.unsealed(self.key, raw, FORMAT)
        # The seal covers the file's name too: code is never taken for another template.
        if payload is not None and bytes(payload[:KEY_BYTES]) == bucket.key.encode():
            bucket.bytecode_from_string(bytes(payload[KEY_BYTES:]))  # Jinja checks the text

    def dump_bytecode(self, bucket: Bucket) -> None:
        payload = bucket.key.encode() + bucket.bytecode_to_string()
        sealed = FORMAT + user_cache.seal(self.key, payload) + payload
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            # A temporary file made afresh (never through a link), then renamed over.
            writes.write_atomic(self.folder / bucket.key, sealed)
        except (OSError, DocgenError):
            return
        _prune(self.folder)


#: The length of a file's name (a SHA-256 in hex), which its sealed payload starts with.
KEY_BYTES = 64
#: How many files the folder keeps: beyond that the oldest go (each docgen, Jinja or
#: Python, and each project folder, compiles its own).
MAX_FILES = 512
#: How old a temporary file a killed write left must be before it is removed (seconds).
STALE_SECONDS = 3600


def _prune(folder: Path) -> None:
    """Remove what a killed write left long ago and, beyond ``MAX_FILES``, the oldest half."""
    now = time.time()
    try:
        with os.scandir(folder) as listed:
            found = [(e.stat(follow_symlinks=False).st_mtime, e.path, e.name) for e in listed]
    except OSError:
        return
    left = [f for f in found if f[2].endswith(writes.TMP_SUFFIX) and now - f[0] > STALE_SECONDS]
    kept = sorted(f for f in found if not f[2].endswith(writes.TMP_SUFFIX))
    if len(kept) > MAX_FILES:
        left += kept[: len(kept) - MAX_FILES // 2]
    for _time, path, _name in left:
        with suppress(OSError):
            os.unlink(path)


def kept_for(environment: jinja2.Environment) -> SealedCode | None:
    """The kept code of ``environment``'s templates, or None when this user has no cache
    key (a build that stores its plan makes one; nothing else does, so a check on a fresh
    machine leaves the user's cache folder as it found it) or ``DOCGEN_NO_TEMPLATE_CACHE``
    is set."""
    if os.environ.get("DOCGEN_NO_TEMPLATE_CACHE"):
        return None
    key = user_cache.secret()
    return None if key is None else SealedCode(environment, key)
