"""The ``expect: absent`` suggestion after a removal, exactly: one note per removed
argument that nothing keeps out yet, whatever changes come before it."""

from __future__ import annotations

from conftest import MINIMAL_REGISTRY

from docgen.changelog.changes import guard_hints
from docgen.changelog.diff import diff
from docgen.errors import Location, Problem
from docgen.registry.load import load_bytes

NEW = (
    MINIMAL_REGISTRY.replace("      max-model-len: 32768\n", "      max-model-len: 16384\n")
    .replace("      gpu-memory-utilization: 0.5\n", "")
    .replace("      max-num-seqs: 2\n", "")
    .replace("      enable-prefix-caching: true\n", "")
    .replace(
        "    overrides:\n", "    expect: {absent: [gpu-memory-utilization]}\n    overrides:\n", 1
    )
    + "launcher:\n  shared_args: {max-num-seqs: 8}\n"
)


def test_only_the_removal_nothing_keeps_out_gets_a_note_after_other_changes():
    old = load_bytes(MINIMAL_REGISTRY.encode(), "old.yaml")
    new = load_bytes(NEW.encode(), "profiles.yaml")
    changes = diff(old, new)
    kinds = [(c.kind, c.name) for c in changes if c.subject == "vllm.box.tiny"]
    assert kinds[:4] == [
        ("arg-changed", "max-model-len"),
        ("arg-removed", "gpu-memory-utilization"),  # guarded by expect: absent
        ("arg-removed", "max-num-seqs"),  # still set, by the launcher's shared args
        ("arg-removed", "enable-prefix-caching"),
    ]
    assert guard_hints(changes) == [
        Problem(
            "to keep '--enable-prefix-caching' out of profile 'vllm.box.tiny' in later edits, "
            "add 'enable-prefix-caching' to its expect: absent list",
            Location("profiles.yaml", 33, 3),
            severity="note",
            rule="changelog-guard",
        )
    ]
