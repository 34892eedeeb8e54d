"""The machine-readable registry export (``registry.json``): what runtime code reads of
the registry, each profile with the argv its serve command runs."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from docgen.errors import printable_json
from docgen.outputs import Output
from docgen.provenance import registry_sources
from docgen.registry.model import Model, Profile, Registry
from docgen.render.syntax import notice

if TYPE_CHECKING:
    from docgen.config import Project

EXPORT_VERSION = 1


def export_data(reg: Registry) -> dict[str, Any]:
    """The machine-readable registry for runtime code (shape version 1)."""
    return {
        "$comment": notice("docgen's export", reg.path, comment="plain"),
        "version": EXPORT_VERSION,
        "product": reg.product.name,
        "agents": [
            {"id": a.id, "cli": a.cli, "env": dict(a.env), "default": a.default} for a in reg.agents
        ],
        "models": [_export_model(reg, m) for m in reg.models.values()],
        "profiles": [_export_profile(p) for p in reg.profiles.values()],
    }


def _export_model(reg: Registry, m: Model) -> dict[str, Any]:
    """A model with every host it is registered for and its facts on each."""
    return {
        "id": m.id,
        "hf": m.hf,
        "gated": m.gated,
        "hosts": [
            {
                "host": on.host,
                "min_compute_capability": on.min_compute_capability or None,
                "support": on.support,
                "selection": on.selection,
            }
            for on in reg.registered_hosts(m)
        ],
    }


def _export_profile(p: Profile) -> dict[str, Any]:
    from docgen.registry.serve import serve_command

    return {
        "id": p.id,
        "model": p.model.id,
        "hf": p.model.hf,
        "host": p.host.id,
        "default": p.default,
        "support": p.support,
        "selection": p.selection,
        "image": None if p.image is None else {"ref": p.image.ref, "digest": p.image.digest},
        "env": dict(p.env),
        "before": [list(step.run) for step in p.steps],
        "argv": serve_command(p).argv,
        "overrides": {o.id: list(o.tokens) for o in p.overrides},
    }


def export_text(reg: Registry) -> str:
    """The export's text, as docgen writes it: UTF-8, with every control character a
    terminal or an editor acts on (DEL, C1, the line separators, the bidirectional
    controls) written as its JSON escape, as JSON itself writes C0, so no registry text
    reorders or hides what a reviewer reads in the committed file."""
    return printable_json(json.dumps(export_data(reg), indent=2, ensure_ascii=False)) + "\n"


def export_output(project: Project, reg: Registry, text: str | None = None) -> Output:
    """The export (its ``text``, when already made), with the registry nodes behind its
    drift."""
    text = export_text(reg) if text is None else text
    # The export shows no host's name (a host's text), so no host is behind its drift.
    sources = tuple(s for s in registry_sources(reg) if s.keypath[0] != "hosts")
    return Output(project.config.export, text, "docgen export", sources, "export")
