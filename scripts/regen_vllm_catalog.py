"""Rewrite docgen's vLLM catalog from the ``vllm serve`` parser of an installed vLLM.

Usage (with the python of the vLLM environment, see ``docgen verify-vllm --setup``)::

    .cache/vllm-0.34.0/bin/python scripts/regen_vllm_catalog.py [--check] [--out FILE]

It builds the parser exactly as ``vllm serve`` does and reads, for every option: its
canonical name, aliases, ``--no-``/``--disable-`` negations, type (bool, int, float,
str, json, list, choice), enforced choices, ``nargs`` and the registered tool-call and
reasoning parser names. Fields the parser cannot tell (bounds, JSON keys, value lists
vLLM only checks at engine start, list forms) are kept from the existing catalog, so an
option that changed keeps what is still true and a new option gets what is known (a
new option whose value type hides behind a lambda is written as ``str``: review the
``+`` lines it prints). The output has the format ``scripts/build_vllm_catalog.py``
writes; for vLLM 0.34.0 it reproduces the shipped file byte for byte. ``--check``
writes nothing and exits 1 if the file would change.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # docgen.integrations.vllm_probe: stdlib only, safe in the vLLM venv

from build_vllm_catalog import CATALOG_NAME, dumps  # noqa: E402  (scripts/ is on the path)

from docgen.integrations import vllm_probe  # noqa: E402

DEFAULT_OUT = ROOT / "docgen" / "data" / CATALOG_NAME
_JSON_TYPES = {"loads", "parse_dataclass", "union_dict_and_str"}
_SCALARS = {"int": "int", "float": "float", "str": "str"}
_HUMAN = {"human_readable_int", "human_readable_int_or_auto"}
_PARSER_FLAGS = {
    "tool-call-parser": ("vllm.tool_parsers", "ToolParserManager"),
    "reasoning-parser": ("vllm.reasoning", "ReasoningParserManager"),
}


def serve_actions() -> list[tuple[argparse.Action, list[str]]]:
    """Each option action of the serve parser with every string it is registered under."""
    parser, _ = vllm_probe.serve_parser()
    serve = vllm_probe._serve_subparser(parser)
    strings: dict[int, list[str]] = {}
    for option, action in serve._option_string_actions.items():
        strings.setdefault(id(action), []).append(option)
    return [
        (action, strings[id(action)])
        for action in serve._actions
        if action.option_strings and not isinstance(action, argparse._HelpAction)
    ]


def canonical(action: argparse.Action) -> str:
    """The first ``--`` option string that is not a negation, without dashes."""
    negative = _negative(action)
    for option in action.option_strings:
        if option.startswith("--") and option not in negative:
            return option[2:]
    raise ValueError(f"no long option among {action.option_strings}")


def _negative(action: argparse.Action) -> set[str]:
    marked = getattr(action, "negative_option_strings", None)
    if marked is not None:
        return set(marked)
    if action.nargs == 0 and len(action.option_strings) > 1:
        return {s for s in action.option_strings if s.startswith("--no-")}
    return set()


def negations(action: argparse.Action, registered: list[str], old: list[str]) -> list[str]:
    """Negations without dashes, in the existing order where the set is unchanged."""
    name = canonical(action)
    found = {s[2:] for s in registered if s.startswith("--") and s[2:] != name}
    found = {s for s in found if s in {n[2:] for n in _negative(action)} or s == f"no-{name}"}
    if set(old) == found:
        return list(old)
    return sorted(found, key=lambda s: (not s.startswith("no-"), s))


def aliases(action: argparse.Action) -> list[str]:
    """Other spellings, dashes kept: ``-tp``, ``--device-memory-utilization``."""
    skip = {f"--{canonical(action)}", *_negative(action)}
    return [s for s in action.option_strings if s not in skip]


def _innermost(kind: Any) -> Any:
    """The type inside vLLM's ``optional_type(...)``/``parse_type(...)`` wrappers."""
    for cell in getattr(kind, "__closure__", None) or ():
        inner = cell.cell_contents
        if callable(inner) and inner is not kind:
            return _innermost(inner)
    return kind


def _type_name(kind: Any) -> str | None:
    if kind is None:
        return "str"
    name = getattr(_innermost(kind), "__name__", "")
    if name in _SCALARS:
        return _SCALARS[name]
    if name in _HUMAN:
        return "int"
    return "json" if name in _JSON_TYPES else None


def introspect(action: argparse.Action) -> dict[str, Any]:
    """What the parser itself says about one option."""
    found: dict[str, Any] = {}
    listed = action.nargs in ("+", "*") or isinstance(action, argparse._AppendAction)
    if action.nargs == 0:
        found["type"] = "bool"
    elif listed:
        found["type"] = "list"
        found["nargs"] = action.nargs if action.nargs in ("+", "*") else None
        item = _type_name(action.type)
        if item is not None:
            found["item_type"] = item
    elif action.choices is not None:
        found["type"] = "choice"
        ints = all(isinstance(c, int) for c in action.choices if c is not None)
        found["value_type"] = "int" if ints else "str"
    else:
        kind = _type_name(action.type)
        if kind is not None:
            found["type"] = kind
    if action.choices is not None:  # None among them means "unset" (accepts_none)
        found["choices"] = [str(c) for c in action.choices if c is not None]
        found["choices_enforced"] = True
    if getattr(_innermost(action.type), "__name__", "") in _HUMAN:
        found["human_readable_int"] = True
    return found


def parser_names(flag: str) -> list[str] | None:
    """The registered tool-call or reasoning parser names for those two flags."""
    if flag not in _PARSER_FLAGS:
        return None
    module, manager = _PARSER_FLAGS[flag]
    registered: Callable[[], list[str]] = getattr(
        importlib.import_module(module), manager
    ).list_registered
    return sorted(registered())


def record(action: argparse.Action, registered: list[str], old: dict[str, Any]) -> dict[str, Any]:
    """The catalog record: the existing one, corrected by what the parser says."""
    name = canonical(action)
    entry = dict(old)
    entry.update(introspect(action))
    entry["aliases"] = aliases(action)
    entry["negations"] = negations(action, registered, old.get("negations", []))
    names = parser_names(name)
    if names is not None:
        entry["choices"] = names
    entry.setdefault("type", "str")  # a new option whose type the parser hides
    return {
        k: v for k, v in entry.items() if k == "choices_enforced" or v not in (None, False, [], {})
    }


def regenerate(existing: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The new catalog and the names of options added or removed."""
    old_flags: dict[str, Any] = existing["flags"]
    flags = {}
    for action, registered in serve_actions():
        name = canonical(action)
        flags[name] = record(action, registered, old_flags.get(name, {}))
    changes = [f"+ --{n} ({flags[n]['type']})" for n in sorted(flags.keys() - old_flags.keys())]
    changes += [f"- --{n}" for n in sorted(old_flags.keys() - flags.keys())]
    return {"flags": flags, "source": _source(existing["source"])}, changes


def _source(old: dict[str, Any]) -> dict[str, Any]:
    version = importlib.import_module("vllm").__version__
    info = importlib.import_module("vllm._version")
    commit = str(getattr(info, "commit_id", "") or "").removeprefix("g") or old["commit"]
    return {"commit": commit, "repo": old.get("repo", "vllm-project/vllm"), "version": version}


def _lines(changes: list[str]) -> Iterator[str]:
    yield from changes or ["no option added or removed"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="catalog file to rewrite")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on change")
    args = parser.parse_args(argv)
    for key, value in vllm_probe._ENVIRONMENT.items():
        os.environ.setdefault(key, value)
    existing = json.loads(args.out.read_text(encoding="utf-8"))
    catalog, changes = regenerate(existing)
    text = dumps(catalog)
    for line in _lines(changes):
        print(line)
    if args.check:
        same = text == args.out.read_text(encoding="utf-8")
        print("catalog is up to date" if same else f"{args.out} would change")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(
        f"wrote {args.out} ({len(catalog['flags'])} options, vLLM {catalog['source']['version']})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
