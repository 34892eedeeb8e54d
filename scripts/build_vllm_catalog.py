"""Build docgen's shipped vLLM ``vllm serve`` argument data from the reference extract.

Usage: ``python3 scripts/build_vllm_catalog.py [REFERENCE_JSON [OUT_DIR]]``

Writes two compact, deterministic files into ``docgen/data/`` (or OUT_DIR):

- ``vllm_catalog.json``: one entry per ``--`` option of the target release, keyed by
  the canonical name without dashes. Keys whose value is null, false or empty are left
  out (``choices_enforced`` is kept whenever it is not null, since false means
  "known values, not enforced by argparse").
- ``vllm_versions.json``: what version-aware checks need: the sampled versions,
  ``flag_version_matrix`` (``present_in`` maps an option string to indexes into
  ``versions``), ``removed_flags``, ``value_history`` and ``parsers``.
"""

from __future__ import annotations

import argparse
import ast
import json
import operator
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT / ".." / "shared" / "reference" / "vllm_serve_args.json"
CATALOG_NAME = "vllm_catalog.json"
VERSIONS_NAME = "vllm_versions.json"

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Pow: operator.pow,
}
_COPIED = (
    "accepts_auto",
    "accepts_none",
    "deprecated",
    "human_readable_int",
    "item_type",
    "json_dotted_keys",
    "json_keys",
    "nargs",
    "value_type",
)


def _number(value: object) -> int | float:
    """A constraint bound: a number, or an arithmetic expression such as ``2 ** 32 - 1``."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _evaluate(ast.parse(value, mode="eval").body)
    raise ValueError(f"constraint bound {value!r} is not a number")


def _evaluate(node: ast.expr) -> int | float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_evaluate(node.operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        result: int | float = _BINARY[type(node.op)](_evaluate(node.left), _evaluate(node.right))
        return result
    raise ValueError(f"unsupported constraint expression: {ast.dump(node)}")


def _list_form(arg: Mapping[str, Any]) -> str | None:
    """How a list value goes on the command line: nargs, one flag per value, or a,b,c."""
    if arg["type"] != "list":
        return None
    if arg.get("nargs"):
        return "nargs"
    notes = " ".join(arg.get("notes") or [])
    if "repeatable" in notes:
        return "append"
    if "comma-separated" in notes:
        return "csv"
    raise ValueError(f"{arg['flag']}: cannot tell how its list is passed")


def _choice_traits(arg: Mapping[str, Any]) -> dict[str, Any]:
    note = arg.get("choices_note") or ""
    traits: dict[str, Any] = {}
    if arg.get("choices") is not None:
        traits["choices"] = [str(c) for c in arg["choices"]]
    if arg.get("choices_enforced") is not None:
        traits["choices_enforced"] = arg["choices_enforced"]
    traits["choices_case_insensitive"] = "case-insensitive" in note
    traits["choices_partial"] = "computed at runtime" in note
    traits["none_word"] = "'none' (any case)" in note
    return traits


def catalog_entry(arg: Mapping[str, Any]) -> dict[str, Any]:
    """The compact catalog record of one option from the reference extract."""
    entry: dict[str, Any] = {key: arg.get(key) for key in _COPIED}
    entry["type"] = arg["type"]
    entry["aliases"] = list(arg.get("aliases") or [])
    entry["negations"] = [n.removeprefix("--") for n in arg.get("negation_flags") or []]
    entry["constraints"] = {k: _number(v) for k, v in (arg.get("constraints") or {}).items()}
    entry["list_form"] = _list_form(arg)
    entry["json_or_str"] = arg["type"] == "json" and isinstance(arg.get("default"), str)
    entry.update(_choice_traits(arg))
    return {
        k: v for k, v in entry.items() if k == "choices_enforced" or v not in (None, False, [], {})
    }


def build_catalog(reference: Mapping[str, Any]) -> dict[str, Any]:
    flags = {
        arg["flag"].removeprefix("--"): catalog_entry(arg)
        for arg in reference["args"]
        if not arg.get("positional")
    }
    source = reference["source"]
    return {
        "flags": flags,
        "source": {
            "commit": source["commit"],
            "repo": source["repo"],
            "version": source["version"],
        },
    }


def build_versions(reference: Mapping[str, Any]) -> dict[str, Any]:
    matrix = reference["flag_version_matrix"]
    versions: list[str] = matrix["versions"]
    position = {version: index for index, version in enumerate(versions)}
    present_in = {flag: [position[v] for v in seen] for flag, seen in matrix["present_in"].items()}
    return {
        "flag_version_matrix": {"present_in": present_in, "versions": versions},
        "parsers": reference["parsers"],
        "removed_flags": reference["removed_flags"],
        "source": {"version": reference["source"]["version"]},
        "value_history": reference["value_history"],
    }


def dumps(data: object) -> str:
    """Compact, deterministic JSON text with a trailing newline."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def write(reference_path: Path, out_dir: Path) -> list[Path]:
    reference = json.loads(reference_path.read_text(encoding="utf-8"))
    outputs = {CATALOG_NAME: build_catalog(reference), VERSIONS_NAME: build_versions(reference)}
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in outputs.items():
        path = out_dir / name
        path.write_bytes(dumps(data).encode("utf-8"))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference", nargs="?", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("out_dir", nargs="?", type=Path, default=ROOT / "docgen" / "data")
    args = parser.parse_args(argv)
    for path in write(args.reference, args.out_dir):
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
