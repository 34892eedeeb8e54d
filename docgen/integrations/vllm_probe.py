"""Parse ``vllm serve`` commands with vLLM's own parser; run by the vLLM venv's python.

This file is shipped in the package but never imported by docgen itself: ``docgen
verify-vllm`` runs it as a script with the interpreter of the isolated vLLM
environment (see ``docgen/verify.py``). It imports nothing from docgen.

Protocol: one JSON object on stdin, one JSON object on stdout.

- ``{"commands": [["vllm", "serve", MODEL, ...], ...]}`` answers ``{"vllm": VERSION,
  "results": [{"ok": true} | {"ok": false, "error": MESSAGE}, ...]}``. Each command
  goes through the parser ``vllm serve`` builds (the CLI's top-level parser with the
  serve subcommand), the serve subcommand's ``validate`` (that is
  ``validate_parsed_serve_args``) and the API server's pre-start checks
  (``init_parser_plugin`` and ``validate_api_server_args``: tool-call and reasoning
  parser names). Nothing is started. A message is vLLM's own: argparse's
  ``vllm serve: error: ...`` line (without the usage text) or the exception's text.
- ``"options": true`` adds ``"options": [...]``: every option string the serve parser
  accepts, hidden ones included, without ``-h``/``--help``.

vLLM logs and prints go to stderr; stdout carries only the answer.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import os
import sys
from typing import Any, NoReturn, TextIO

_ENVIRONMENT = {
    "VLLM_TARGET_DEVICE": "cpu",  # else building the parser fails to infer a device
    "HF_HUB_OFFLINE": "1",
    "VLLM_NO_USAGE_STATS": "1",
    "VLLM_CONFIGURE_LOGGING": "0",
}
_HELP = ("-h", "--help")


class Rejected(Exception):
    """argparse's error or exit, raised instead of printing usage and leaving."""


def _error(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    raise Rejected(f"{parser.prog}: error: {message}")


def _exit(parser: argparse.ArgumentParser, status: int = 0, message: str | None = None) -> NoReturn:
    raise Rejected((message or "").strip() or f"{parser.prog} exited with status {status}")


def serve_parser() -> tuple[argparse.ArgumentParser, Any]:
    """vLLM's top-level CLI parser with the serve subcommand, and that subcommand."""
    serve = importlib.import_module("vllm.entrypoints.cli.serve")
    argparse_utils = importlib.import_module("vllm.utils.argparse_utils")
    top: argparse.ArgumentParser = argparse_utils.FlexibleArgumentParser(prog="vllm")
    subparsers = top.add_subparsers(required=False, dest="subparser")
    command = serve.ServeSubcommand()
    command.subparser_init(subparsers).set_defaults(dispatch_function=command.cmd)
    return top, command


def check_command(parser: argparse.ArgumentParser, command: Any, argv: list[str]) -> str | None:
    """vLLM's own message rejecting ``argv`` (``vllm serve MODEL ...``), or None."""
    cli_args = importlib.import_module("vllm.entrypoints.common.cli_args")
    try:
        args = parser.parse_args(argv[1:])
        command.validate(args)
        cli_args.init_parser_plugin(args)
        cli_args.validate_api_server_args(_with_parser_flags(args))
    except Rejected as exc:
        return str(exc)
    except Exception as exc:  # vLLM's checks raise TypeError, ValueError, KeyError...
        return _message(exc)
    return None


def _with_parser_flags(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` after vLLM merges ``--reasoning-parser`` into the structured outputs config.

    The API server validates ``structured_outputs_config.reasoning_parser``, which the
    engine fills from ``--reasoning-parser`` (``EngineArgs.create_structured_outputs_
    config``). That merge runs here on a copy, so the parser's shared default object is
    never changed and one command cannot leak into the next.
    """
    arg_utils = importlib.import_module("vllm.engine.arg_utils")
    merged = argparse.Namespace(**vars(args))
    holder = argparse.Namespace(
        reasoning_parser=getattr(args, "reasoning_parser", ""),
        reasoning_parser_plugin=getattr(args, "reasoning_parser_plugin", None),
        structured_outputs_config=copy.copy(args.structured_outputs_config),
    )
    merged.structured_outputs_config = arg_utils.EngineArgs.create_structured_outputs_config(holder)
    return merged


def _message(exc: BaseException) -> str:
    """An exception's own text (``KeyError`` would add quotes around it)."""
    if len(exc.args) == 1 and isinstance(exc.args[0], str):
        return exc.args[0]
    return str(exc) or type(exc).__name__


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The JSON answer to one request (see the module docstring)."""
    parser, command = serve_parser()
    result: dict[str, Any] = {"vllm": _version()}
    if "commands" in request:
        errors = [check_command(parser, command, list(map(str, c))) for c in request["commands"]]
        result["results"] = [
            {"ok": True} if e is None else {"ok": False, "error": e} for e in errors
        ]
    if request.get("options"):
        serve = _serve_subparser(parser)
        result["options"] = sorted(s for s in serve._option_string_actions if s not in _HELP)
    return result


def _serve_subparser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices["serve"]
            return found
    raise RuntimeError("vLLM's CLI parser has no serve subcommand")


def _version() -> str:
    return str(importlib.import_module("vllm").__version__)


def _answer_stream() -> TextIO:
    """The real stdout for the answer; fd 1 then points at stderr for vLLM's output."""
    answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    return answer


def _unshadow() -> None:
    """Drop this file's folder from the path: its ``vllm.py`` would hide the real vLLM."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]


def main() -> int:
    _unshadow()
    output = _answer_stream()
    for key, value in _ENVIRONMENT.items():
        os.environ.setdefault(key, value)
    argparse.ArgumentParser.error = _error  # type: ignore[method-assign,assignment]
    argparse.ArgumentParser.exit = _exit  # type: ignore[method-assign,assignment]
    result = answer(json.load(sys.stdin))
    json.dump(result, output)
    output.write("\n")
    output.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
