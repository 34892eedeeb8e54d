"""A content-addressed cache of the plan, so an unchanged project is not rendered again.

The key hashes every input that can change an output: docgen's own code and
templates, the settings, the registry, the project's templates, the hand-written
pages and the changelog entries. On a hit the stored plan is used as is; on a miss
the plan is rendered and stored. The cache lives in ``.docgen-cache/`` at the project
root (safe to delete, never committed); a damaged or foreign file is ignored.

What the key reads is ``docgen.inputs``'s to say.

The cache is written through ``docgen.io.writes`` into docgen's own folder only: when
``.docgen-cache`` or its ``.gitignore`` is a symbolic link, there is no cache.

Each file is sealed with an HMAC under a key that never leaves this user's cache
folder (``$XDG_CACHE_HOME/docgen/cache-key``, else ``~/.cache/docgen/cache-key``), so
a cache file that arrives with a pull request is not this machine's own and is never
unpickled. Without a usable key there is no cache.
"""

from __future__ import annotations

import copyreg
import os
import pickle
import types
from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace

from docgen.config import Project
from docgen.errors import DocgenError
from docgen.incremental import Record
from docgen.inputs import FORMAT, key
from docgen.io import files, user_cache, writes
from docgen.io.user_cache import key_file as key_file
from docgen.plan import Output, Plan
from docgen.registry.model import Registry

FOLDER = files.OWN_FOLDER
SEAL = user_cache.SEAL
#: The suffixes of an entry's two files: its slim plan, and its partials' texts.
PLAN, PARTIALS = ".pickle", ".partials"


def _proxy(items: dict[object, object]) -> types.MappingProxyType[object, object]:
    return types.MappingProxyType(items)


def _pickle_proxy(proxy: types.MappingProxyType[object, object]) -> tuple[object, ...]:
    return _proxy, (dict(proxy),)


copyreg.pickle(types.MappingProxyType, _pickle_proxy)  # type: ignore[arg-type]


def load(project: Project, digest: str) -> Plan | None:
    """The stored plan for ``digest``, or None (also for a file this machine did not seal)."""
    plan = user_cache.unpickled(_sealed_payload(project, digest))
    return plan if isinstance(plan, Plan) else None


def _with_stored_partials(project: Project, digest: str, record: Record) -> Record:
    """``record`` with the partials stored beside the plan for ``digest`` (see ``store``),
    or with none."""
    found = user_cache.unpickled(_sealed_payload(project, digest, PARTIALS))
    if not (isinstance(found, tuple) and len(found) == 2 and all(type(d) is dict for d in found)):
        return replace(record, partials={}, included={})
    return replace(record, partials=found[0], included=found[1])


def _sealed_payload(project: Project, digest: str, suffix: str = PLAN) -> memoryview | None:
    """The pickled plan (or partials) stored for ``digest`` if this user's key sealed it,
    else None (a view into the file's bytes: the pickle is not copied)."""
    secret = user_cache.secret()
    if secret is None:
        return None
    inside = files.Inside(project.root)
    raw = files.read_quietly(project.root / FOLDER / f"{digest}{suffix}", inside, MAX_BYTES)
    return None if raw is None else user_cache.unsealed(secret, raw, FORMAT)


def store(project: Project, digest: str, plan: Plan) -> None:
    """Keep ``plan`` as the only cache entry; any failure just leaves no cache.

    The texts of the partials its pages included go to a file of their own, read only
    when the plan is rendered again (a cache hit reads the plan alone)."""
    secret = user_cache.secret(create=True)
    if secret is None:
        return
    record = plan.record
    partials = (dict(record.partials), dict(record.included)) if record is not None else ({}, {})
    folder = writes.own_folder(project)
    if folder is None:
        return
    # The plan last: a plan file is the entry (the partials are only worth a look).
    names = [f"{digest}{PARTIALS}", f"{digest}{PLAN}"]
    try:  # each written beside its place: a rename is atomic
        for name, stored in zip(names, (partials, slim(plan)), strict=True):
            with user_cache.sealed_pickle(secret, stored, FORMAT) as sealed:
                if len(sealed) > MAX_BYTES:
                    return
                writes.write_atomic(os.path.join(folder, name), sealed)
    except (DocgenError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    try:
        with os.scandir(folder) as listed:
            old = [e.path for e in listed if e.name not in names and e.name.endswith(_LEFT)]
    except OSError:
        return
    for path in old:  # docgen's own folder is a real folder inside the root
        with suppress(OSError):
            writes.remove(path)


#: The largest cache file read or written.
MAX_BYTES = 256_000_000
#: What a cache folder holds besides the entry: older entries and killed writes' temporaries.
_LEFT = (PLAN, PARTIALS, writes.TMP_SUFFIX)


def slim(plan: Plan) -> Plan:
    """What a cache hit needs to prove a tree in sync: the digest of each output's text,
    the pages, the product and the agents.

    Texts, the registry's profiles and the sources behind each output are left out (they
    would be most of the storing and loading time); a caller that finds drift re-plans.
    """
    registry = replace(plan.registry, hosts={}, images={}, models={}, profiles={}, _document=None)
    outputs = tuple(
        replace(
            o,
            text="",
            sources=(),
            digest=o.text_digest,
            verified=False,
            staged="",
            stat=(),
        )
        for o in plan.outputs
    )
    record = None if plan.record is None else replace(plan.record, partials={}, included={})
    return Plan(
        registry, outputs, plan.pages, complete=False, navigation=plan.navigation,
        record=record,
    )  # fmt: skip


def previous_record(project: Project) -> Record | None:
    """What each page of the last stored plan read (``plan`` uses it only when that plan
    had the shared inputs the project has now)."""
    folder = project.root / FOLDER
    try:
        names = [e.name for e in os.scandir(folder) if e.name.endswith(PLAN)]
    except OSError:
        return None
    for name in names:
        digest = name[: -len(PLAN)]
        found = load(project, digest)
        if found is not None and found.record is not None:
            return _with_stored_partials(project, digest, found.record)
    return None


def with_partials(project: Project, digest: str, record: Record | None) -> Record | None:
    """``record`` with the partials stored beside the plan for ``digest`` (a record from a
    cache hit carries none; see ``store``)."""
    if record is None or record.partials or not digest:
        return record
    return _with_stored_partials(project, digest, record)


def cached_plan(
    project: Project,
    stored: bool = True,
    stage: Callable[[Output], Output] | None = None,
    on_registry: Callable[[Registry], object] | None = None,
) -> tuple[Plan, str]:
    """The plan of ``project`` and its input digest: a slim plan from the cache when
    nothing it depends on changed (``plan.complete`` is then False), else rendered.

    Nothing is written here; ``build`` stores the plan after it wrote every output. When
    the plan will not be ``stored`` and the project has no cache (a fresh clone in docs
    CI), there is nothing to look up or record: the plan is rendered alone, digest "",
    with the text of drifted outputs only. A plan rendered here passes each output
    through ``stage``; ``on_registry`` hears the registry a plan loads (see ``plan``).
    """
    from docgen.plan import plan

    if not stored and not (project.root / FOLDER).is_dir():
        return plan(project, drift_only=True, on_registry=on_registry), ""
    digest = key(project)
    found = load(project, digest)
    if found is not None:
        return found, digest
    record = previous_record(project)
    return plan(project, record=record, stage=stage, on_registry=on_registry), digest


def remember(project: Project, digest: str, plan: Plan) -> None:
    """Store a plan a successful build just wrote, with what its pages read, unless this
    machine already holds it (a file under that name that fails its seal, e.g. after the
    key was renewed, is replaced), or an input changed while the build ran: the plan may
    hold what the edit made, and under the key of the inputs before it, an undo of the
    edit would find it and take the edited pages for the inputs' own."""
    from docgen.heap import collector_paused

    if plan.record is None or _sealed_payload(project, digest) is not None:
        return
    if key(project) != digest:
        return
    with collector_paused():  # the slim plan it pickles is all alive: nothing to collect
        store(project, digest, plan)
