"""A content-addressed cache of the plan, so an unchanged project is not rendered again.

The key hashes every input that can change an output: docgen's own code and
templates, the settings, the registry, the project's templates, the hand-written
pages and the changelog entries. On a hit the stored plan is used as is; on a miss
the plan is rendered and stored. The cache lives in ``.docgen-cache/`` at the project
root (safe to delete, never committed); a damaged or foreign file is ignored.

The key reads what the plan reads and nothing more: not the generated pages nor the
release overview (outputs, which a build rewrites after computing the key), not a file
linked from outside the root (the plan refuses or ignores those: the key holds the link
instead), and never a file that is not a regular file (a FIFO, /dev/zero). The template
folder is hashed as the template loader reads it: through links that stay inside the
root. Folders count too (their names), so a folder where the plan expects a file (a
template or entry name) misses the cache and the plan reports it: a warm cache never
hides an error.

The cache is written through ``docgen.io.writes`` into docgen's own folder only: when
``.docgen-cache`` or its ``.gitignore`` is a symbolic link, there is no cache.

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
import types
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import replace
from pathlib import Path

from docgen.changelog.entries import OVERVIEW
from docgen.config import Project
from docgen.errors import DocgenError
from docgen.io import files, writes
from docgen.plan import Plan
from docgen.render.syntax import NOTICE_REACH, owned

FOLDER = files.OWN_FOLDER
FORMAT = b"docgen-plan-cache-4\n"
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
    navigation = cfg.navigation or f"{cfg.docs}/index.yml"
    yield navigation, _navigation_input(project.path(navigation), inside)
    overview = f"{cfg.changelog}/{OVERVIEW}"  # an output, not an input
    for folder in (cfg.templates, cfg.changelog):
        listed = files.listing(project, folder)
        if not listed.inside:
            yield folder, b"\0outside"
        for found in listed.folders:  # linked folders inside the root are read through
            yield from _tree_input(project, found, inside)
        for found in listed.files:
            if found.rel != overview:
                yield found.rel, _file_digest(found.path, inside)
    for found in files.pages(project):
        text = _page_input(found.path, inside)
        if text is not None:
            yield found.rel, _sha(text)


def _tree_input(
    project: Project, found: files.Found, inside: files.Inside
) -> Iterator[tuple[str, bytes]]:
    """A folder's name (a folder where a file is expected is an error the key must not
    hide); for a linked one, where it leads and, when inside the root, all below it."""
    yield found.rel, _file_digest(found.path, inside)  # a marker: no folder is read
    if found.kind != files.DIR and inside.contains(found.path):
        for below in files.followed(project, found.rel):
            yield below.rel, _file_digest(below.path, inside)


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
        raw = files.read_bytes(where)
    except OSError:
        raw = None
    if raw is None:
        return MISSING
    head = raw[: 4 * NOTICE_REACH].decode("utf-8", "replace")  # UTF-8: up to 4 bytes a char
    if owned(head):
        return None
    if b"docgen:" in raw:
        return strip_regions(raw.decode("utf-8", "replace")).encode()
    return raw


MISSING = b"\0missing"


def _navigation_input(path: Path, inside: files.Inside) -> bytes:
    """What of the navigation can change the plan: all but what its managed regions hold
    (docgen writes that, from the rest)."""
    from docgen.navigation import outside_regions

    where = files.readable(path, inside)
    raw = None if where is None else files.read_bytes(where)
    if raw is None:
        return _file_digest(path, inside)
    return _sha(outside_regions(raw.decode("utf-8", "replace")).encode())


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
    inside = files.Inside(project.root)
    raw = files.read_quietly(project.root / FOLDER / f"{digest}.pickle", inside, MAX_BYTES)
    if raw is None or not raw.startswith(FORMAT):
        return None
    seal, payload = raw[len(FORMAT) : len(FORMAT) + SEAL], raw[len(FORMAT) + SEAL :]
    return payload if hmac.compare_digest(seal, _seal(secret, payload)) else None


def store(project: Project, digest: str, plan: Plan) -> None:
    """Keep ``plan`` as the only cache entry; any failure just leaves no cache."""
    secret = _secret(create=True)
    if secret is None:
        return
    try:
        payload = pickle.dumps(slim(plan))
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    folder = writes.own_folder(project)
    if folder is None or len(payload) > MAX_BYTES:
        return
    name = f"{digest}.pickle"
    try:  # written beside its place: a rename is atomic
        writes.write_atomic(os.path.join(folder, name), FORMAT + _seal(secret, payload) + payload)
    except DocgenError:
        return
    try:
        with os.scandir(folder) as listed:
            old = [e.path for e in listed if e.name != name and e.name.endswith(_LEFT)]
    except OSError:
        return
    for path in old:  # docgen's own folder is a real folder inside the root
        with suppress(OSError):
            writes.remove(path)


#: The largest cache file read or written.
MAX_BYTES = 256_000_000
#: What a cache folder holds besides the entry: older entries and killed writes' temporaries.
_LEFT = (".pickle", writes.TMP_SUFFIX)


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
    return Plan(registry, outputs, plan.pages, complete=False, navigation=plan.navigation)


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
