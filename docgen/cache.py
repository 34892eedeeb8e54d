"""A content-addressed cache of the plan, so an unchanged project is not rendered again.

The key hashes every input that can change an output: docgen's own code and
templates, the settings, the registry, the project's templates, the hand-written
pages and the changelog entries. On a hit the stored plan is used as is; on a miss
the plan is rendered and stored. The cache lives in ``.docgen-cache/`` at the project
root (safe to delete, never committed); a damaged or foreign file is ignored.

The key reads what the plan reads and nothing more: not the generated pages nor the
release overview (outputs, which a build rewrites after computing the key), not a
registry, page or changelog entry linked from outside the root (the plan refuses or
ignores those), and never a file that is not a regular file (a FIFO, /dev/zero).
Templates are followed wherever they lead, as Jinja follows them.

Each file is sealed with an HMAC under a key that never leaves this user's cache
folder (``$XDG_CACHE_HOME/docgen/cache-key``, else ``~/.cache/docgen/cache-key``), so
a cache file that arrives with a pull request is not this machine's own and is never
unpickled. Without a usable key there is no cache.
"""

from __future__ import annotations

import copyreg
import hashlib
import hmac
import os
import pickle
import tempfile
import types
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from docgen.changelog.entries import OVERVIEW
from docgen.config import Project
from docgen.io import files
from docgen.plan import Plan
from docgen.render.syntax import NOTICE_REACH, owned

FOLDER = ".docgen-cache"
FORMAT = b"docgen-plan-cache-2\n"
SEAL = hashlib.sha256().digest_size
PACKAGE = Path(__file__).resolve().parent


def _proxy(items: dict[object, object]) -> types.MappingProxyType[object, object]:
    return types.MappingProxyType(items)


def _pickle_proxy(proxy: types.MappingProxyType[object, object]) -> tuple[object, ...]:
    return _proxy, (dict(proxy),)


copyreg.pickle(types.MappingProxyType, _pickle_proxy)  # type: ignore[arg-type]


def key(project: Project) -> str:
    """A digest of every input of the plan."""
    digest = hashlib.sha256(FORMAT)
    for name, data in _inputs(project):
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(data)
    return digest.hexdigest()


def _inputs(project: Project) -> Iterator[tuple[str, bytes]]:
    """Each input's name and the SHA-256 of what of it can change the plan."""
    yield "config", _sha(repr(project.config).encode())
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".j2", ".json") and path.is_file():
            info = path.stat()
            yield f"docgen:{path.name}", _sha(f"{info.st_size}:{info.st_mtime_ns}".encode())
    inside = files.Inside(project.root)
    yield "registry", _file_digest(project.registry_path, inside)
    cfg = project.config
    # Templates are trusted code that Jinja reads through any link, so they are followed.
    for found in files.listing(project, cfg.templates).files:
        yield found.rel, _file_digest(found.path, None)
    overview = f"{cfg.changelog}/{OVERVIEW}"  # an output, not an input
    for found in files.listing(project, cfg.changelog).files:
        if found.rel != overview:
            yield found.rel, _file_digest(found.path, inside)
    for found in files.pages(project):
        text = _page_input(found.path, inside)
        if text is not None:
            yield found.rel, _sha(text)


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _page_input(path: str, inside: files.Inside) -> bytes | None:
    """What of a page can change the plan: nothing for a generated page, the text outside
    its regions for a page with regions, else all of it (a marker where it is not read)."""
    from docgen.render.regions import strip_regions

    where = files.readable(path, inside)
    if where is None:
        return _file_digest(path, inside)
    try:
        with open(where, "rb") as handle:
            raw = handle.read()
    except OSError:
        return MISSING
    head = raw[:NOTICE_REACH].decode("utf-8", "replace")
    if owned(head):
        return None
    if b"docgen:" in raw:
        return strip_regions(raw.decode("utf-8", "replace")).encode()
    return raw


MISSING = b"\0missing"


def _file_digest(path: str | Path, inside: files.Inside | None) -> bytes:
    """The SHA-256 of a file's bytes, read in blocks; for a file that is not read (see
    ``files.readable``), a marker of what lies there instead."""
    where = files.readable(path, inside)
    if where is None:
        try:
            return b"\0not read:" + os.fsencode(os.readlink(path))
        except OSError:  # not a link: missing, or not a regular file
            return MISSING if not os.path.lexists(path) else b"\0not a file"
    digest = hashlib.sha256()
    try:
        with open(where, "rb") as handle:
            while block := handle.read(1 << 20):
                digest.update(block)
    except OSError:
        return MISSING
    return digest.digest()


def load(project: Project, digest: str) -> Plan | None:
    """The stored plan for ``digest``, or None (also for a file this machine did not seal)."""
    payload = _sealed_payload(project, digest)
    if payload is None:
        return None
    try:
        plan = pickle.loads(payload)  # noqa: S301 - sealed by this user's own key
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return None
    return plan if isinstance(plan, Plan) else None


def _sealed_payload(project: Project, digest: str) -> bytes | None:
    """The pickled plan stored for ``digest`` if this user's key sealed it, else None."""
    secret = _secret()
    if secret is None:
        return None
    try:
        raw = (project.root / FOLDER / f"{digest}.pickle").read_bytes()
    except OSError:
        return None
    if not raw.startswith(FORMAT):
        return None
    seal, payload = raw[len(FORMAT) : len(FORMAT) + SEAL], raw[len(FORMAT) + SEAL :]
    return payload if hmac.compare_digest(seal, _seal(secret, payload)) else None


def store(project: Project, digest: str, plan: Plan) -> None:
    """Keep ``plan`` as the only cache entry; any failure just leaves no cache."""
    folder = project.root / FOLDER
    secret = _secret(create=True)
    if secret is None:
        return
    try:
        folder.mkdir(exist_ok=True)
        (folder / ".gitignore").write_text("*\n", "utf-8")
        payload = pickle.dumps(slim(plan))
        data = FORMAT + _seal(secret, payload) + payload
        fd, tmp = tempfile.mkstemp(dir=folder)  # beside its place: a rename is atomic
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, folder / f"{digest}.pickle")
        finally:
            Path(tmp).unlink(missing_ok=True)
        for old in folder.glob("*.pickle"):
            if old.name != f"{digest}.pickle":
                old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return


def _seal(secret: bytes, payload: bytes) -> bytes:
    return hmac.new(secret, payload, hashlib.sha256).digest()


def key_file() -> Path:
    """Where this user's cache key lives (outside every project)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "docgen" / "cache-key"


def _secret(create: bool = False) -> bytes | None:
    """This user's 32-byte cache key; made (readable by this user only) when ``create``."""
    path = key_file()
    try:
        secret = path.read_bytes()
        return secret if len(secret) == 32 else None
    except FileNotFoundError:
        if not create:
            return None
    except OSError:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        secret = os.urandom(32)
        with os.fdopen(fd, "wb") as handle:
            handle.write(secret)
        return secret
    except FileExistsError:  # another build made it meanwhile
        return _secret()
    except OSError:
        return None


def slim(plan: Plan) -> Plan:
    """What a cache hit needs to prove a tree in sync: the digest of each output's text,
    the pages, the product and the agents.

    Texts, the registry's profiles and the sources behind each output are left out (they
    would be most of the storing and loading time); a caller that finds drift re-plans.
    """
    registry = replace(plan.registry, hosts={}, images={}, models={}, profiles={})
    outputs = tuple(
        replace(o, text="", sources=(), digest=hashlib.sha256(o.text.encode()).hexdigest())
        for o in plan.outputs
    )
    return Plan(registry, outputs, plan.pages, complete=False)


def cached_plan(project: Project) -> tuple[Plan, str]:
    """The plan of ``project`` and its input digest: a slim plan from the cache when
    nothing it depends on changed (``plan.complete`` is then False), else rendered.

    Nothing is written here; ``build`` stores the plan after it wrote every output.
    """
    from docgen.plan import plan

    digest = key(project)
    found = load(project, digest)
    return (found if found is not None else plan(project)), digest


def remember(project: Project, digest: str, plan: Plan) -> None:
    """Store a plan a successful build just wrote, unless this machine already holds it
    (a file under that name that fails its seal, e.g. after the key was renewed, is
    replaced)."""
    if plan.complete and _sealed_payload(project, digest) is None:
        store(project, digest, plan)
