"""This user's cache folder, outside every project: the key that seals what docgen keeps
between runs, and the digest of docgen's own code that names it.

A file docgen reads back from a cache is trusted only when this user's key sealed it
(an HMAC): a file that arrives with a pull request, from another machine or from another
user is never unpickled or loaded as code.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import io
import os
import pickle
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: The size of a seal (an HMAC-SHA-256).
SEAL = hashlib.sha256().digest_size
#: docgen's own code: every file of the package a run reads.
PACKAGE = Path(__file__).resolve().parent.parent


def folder() -> Path:
    """This user's docgen cache folder: ``$XDG_CACHE_HOME/docgen`` (an absolute path),
    else ``~/.cache/docgen``."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, empty or relative: the XDG spec says to ignore it
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "docgen"


def key_file() -> Path:
    """Where this user's cache key lives."""
    return folder() / "cache-key"


def secret(create: bool = False) -> bytes | None:
    """This user's 32-byte cache key; made (readable by this user only) when ``create``.

    A key anyone else could know seals nothing: one that is not this user's own regular
    file of 32 bytes (a link, another user's file, or one others may read or write, as
    in a shared ``XDG_CACHE_HOME``) is no key, since whoever reads it could seal a cache
    file that docgen would then unpickle. ``create`` replaces a link or this user's own
    refused file (the entry itself, never what a link leads to) with a new key, so a
    cache the old one sealed is never read; another user's entry stays theirs (no key)."""
    path = key_file()
    found = _own_key(path) if os.path.lexists(path) else None
    if found is not None or not create or not _replaceable(path):
        return found
    import tempfile  # only a run that makes the key needs it

    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        made = os.urandom(32)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".cache-key.")  # mode 0600
        with os.fdopen(fd, "wb") as handle:
            handle.write(made)
        if os.path.lexists(path):
            os.replace(temporary, path)
        else:  # another run may make it meanwhile: its key is then the key
            os.link(temporary, path)
        return made
    except FileExistsError:
        return secret()
    except OSError:
        return None
    finally:
        if temporary is not None and os.path.lexists(temporary):
            os.unlink(temporary)


def _replaceable(path: Path) -> bool:
    """Whether ``create`` may put a new key at ``path``: nothing is there, or a link, or a
    file or folder this user owns (never another user's key in a shared folder)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISLNK(info.st_mode) or (mine and not stat.S_ISDIR(info.st_mode))


def _own_key(path: Path) -> bytes | None:
    """The 32 bytes of ``path`` when it is this user's private regular file, else None."""
    try:  # never through a link, never a FIFO or a device (O_NONBLOCK: no wait to open)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        private = not hasattr(os, "getuid") or (  # POSIX: this user's, for no one else
            info.st_uid == os.getuid() and not info.st_mode & 0o077
        )
        if not stat.S_ISREG(info.st_mode) or not private or info.st_size != 32:
            return None  # a folder too: checked before anything reads it
        found = os.read(fd, 33)
    finally:
        os.close(fd)
    return found if len(found) == 32 else None


def seal(key: bytes, payload: bytes | memoryview) -> bytes:
    """The seal of ``payload`` under ``key``."""
    return hmac.new(key, payload, hashlib.sha256).digest()


def unsealed(key: bytes, raw: bytes, header: bytes) -> memoryview | None:
    """The payload of ``raw`` (``header``, seal, payload) when ``key`` sealed it, else None
    (a view into ``raw``: the payload is not copied)."""
    if not raw.startswith(header):
        return None
    found, payload = raw[len(header) : len(header) + SEAL], memoryview(raw)[len(header) + SEAL :]
    return payload if hmac.compare_digest(found, seal(key, payload)) else None


@contextmanager
def sealed_pickle(key: bytes, stored: object, header: bytes) -> Iterator[memoryview]:
    """``header``, the seal under ``key`` and the pickle of ``stored``, made in one buffer
    (the pickle is never copied to put the header before it).

    The buffer is left to be freed, not closed: a write that fails part way keeps slices
    of the view in its traceback, and closing the buffer under them raises a BufferError
    in place of the write's own error."""
    buffer = io.BytesIO()
    start = len(header) + SEAL
    buffer.write(header + bytes(SEAL))
    pickle.dump(stored, buffer)
    with buffer.getbuffer() as view:
        view[len(header) : start] = seal(key, view[start:])
        yield view


def unpickled(payload: memoryview | None) -> object | None:
    """What a payload ``unsealed`` gave holds, or None (no payload, or no pickle this
    docgen can read back)."""
    if payload is None:
        return None
    try:
        found: object = pickle.loads(payload)  # noqa: S301 - sealed by this user's own key
        return found
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError, TypeError):
        return None


#: The libraries whose code shapes what docgen renders: Jinja and MarkupSafe render it,
#: PyYAML and ruamel.yaml read the registry. An upgrade of one is another docgen.
RENDERING_LIBRARIES = ("jinja2", "markupsafe", "yaml", "ruamel.yaml")


@functools.cache
def code_digest() -> bytes:
    """A digest of docgen's own code as installed (each file's name, size and time), and
    of the libraries that shape its output (where each is, its package file's size and
    time): what a cache made by another docgen must not be taken for."""
    import importlib.util

    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".j2", ".json") and path.is_file():
            digest.update(_stamp(path, path.relative_to(PACKAGE)))
    for name in RENDERING_LIBRARIES:
        try:
            spec = importlib.util.find_spec(name)
        except ModuleNotFoundError:  # its parent package is not installed
            spec = None
        origin = spec.origin if spec is not None else None
        digest.update(_stamp(Path(origin), origin) if origin else f"{name}: none\0".encode())
    return digest.digest()


def _stamp(path: Path, name: object) -> bytes:
    info = path.stat()
    return f"{name}:{info.st_size}:{info.st_mtime_ns}\0".encode()
