"""``vllm serve`` argv: the tokens of one registry value, and the problems in operator tokens.

Tokens are read the way vLLM 0.34.0's ``FlexibleArgumentParser`` reads them, only
stricter where the parser is lax: prefix abbreviations are unknown options.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from docgen.errors import did_you_mean, printable_json
from docgen.vllm.flag import Flag
from docgen.vllm.values import check_token, no_negation, scalar_text, unknown_key

_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")  # argparse's own test
_O_LEVELS = ("0", "1", "2", "3")
_OPTIMIZATION_LEVEL = "--optimization-level"


def flag_tokens(flag: Flag, value: object) -> list[str]:
    """The argv tokens for one registry arg (see ``Catalog.tokens``)."""
    if isinstance(value, bool):
        return [flag.option] if value else [_negation(flag)]
    if value is None:
        return [flag.option, "None"]
    if flag.type == "json" and isinstance(value, (dict, list)):
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return [flag.option, printable_json(text)]
    if flag.type == "list" and isinstance(value, list):
        return _list_tokens(flag, [scalar_text(item) for item in value])
    return [flag.option, scalar_text(value)]


def same_object(value: object, wanted: object) -> bool:
    """Two JSON objects that mean the same whatever the order of their keys (their argv
    words keep the order as written)."""
    both = isinstance(value, dict) and isinstance(wanted, dict)
    return both and json.dumps(value, sort_keys=True) == json.dumps(wanted, sort_keys=True)


def option_like(flag: Flag, value: object) -> list[str]:
    """Problems with a registry value whose argv token vLLM's parser would take for an
    option (``--port``, ``-x``): a flag of its own in the command docgen prints, which
    ``expect: absent`` cannot see."""
    if isinstance(value, bool) or value is None:
        return []
    tokens = flag_tokens(flag, value)
    return [
        f"{flag.quoted} is given the value '{token}', which vLLM's parser reads as an "
        "option, not a value; a value cannot start with '-' (unless it is a negative number)"
        for token in tokens
        if token != flag.option and _is_option(token)
    ]


def _negation(flag: Flag) -> str:
    if not flag.negations:
        raise ValueError(no_negation(flag))
    return f"--{flag.negations[0]}"


def _list_tokens(flag: Flag, items: list[str]) -> list[str]:
    if flag.list_form == "append":
        return [token for item in items for token in (flag.option, item)]
    if flag.list_form == "csv":
        return [flag.option, ",".join(items)]
    return [flag.option, *items]


# --- operator argv ------------------------------------------------------------------


def argv_problems(options: Mapping[str, Flag], tokens: Sequence[str]) -> list[tuple[int, str]]:
    """Problems in argv ``tokens`` by token index; ``options`` maps each option string
    (``--x``, an alias, a negation) to its flag."""
    return _Scan(options, tokens).problems


def _is_option(token: str) -> bool:
    """argparse's test: a dash, not a negative number, no space inside."""
    return (
        len(token) > 1
        and token[0] == "-"
        and not _NEGATIVE_NUMBER.match(token)
        and " " not in token
    )


def _split(token: str) -> tuple[str, str, str | None]:
    """(option with ``_`` -> ``-`` before the first ``.``, dotted keys, value after ``=``)."""
    if token.startswith("-O") and token != "-O":  # -O3, -O=3: vLLM's shorthand
        return _OPTIMIZATION_LEVEL, "", token[3:] if token[2] == "=" else token[2:]
    head, equals, inline = token.partition("=")
    name, _, keys = head.partition(".")
    if name.startswith("--"):
        name = "--" + name[2:].replace("_", "-")
    return name, keys, inline if equals else None


class _Scan:
    """One pass over argv tokens, collecting the problems found."""

    def __init__(self, options: Mapping[str, Flag], tokens: Sequence[str]) -> None:
        self.options = options
        self.tokens = list(tokens)
        self.at = 0
        self.problems: list[tuple[int, str]] = []
        while self.at < len(self.tokens):
            self._step()

    def _opens(self, token: str) -> bool:
        """Whether argparse reads ``token`` as an option: also one with a space when what
        stands before its ``=`` is an option (argparse splits there before its space
        rule: ``--chat-template=a b``)."""
        if _is_option(token):
            return True
        return (
            len(token) > 1
            and token[0] == "-"
            and "=" in token
            and (_split(token)[0] in self.options)
        )

    def _step(self) -> None:
        token = self.tokens[self.at]
        self.at += 1
        if not self._opens(token):
            self.problems.append((self.at - 1, f"unexpected argument '{token}'"))
        elif token == "-O" and self._following() in _O_LEVELS:
            self._option(self.at - 1, _OPTIMIZATION_LEVEL, "", None)
        else:
            self._option(self.at - 1, *self._split_attached(token))

    def _split_attached(self, token: str) -> tuple[str, str, str | None]:
        """``_split``, and as argparse reads a single-dash token that is no option but
        opens with a one-letter option that takes a value: that option with the rest
        attached as its value (``-qawq`` is ``-q awq``; ``-tp4`` stays unknown)."""
        name, keys, inline = _split(token)
        if name in self.options or token.startswith("--") or len(token) <= 2:
            return name, keys, inline
        short = self.options.get(token[:2])
        if short is None or short.type == "bool":
            return name, keys, inline
        return token[:2], "", token[2:]

    def _following(self) -> str | None:
        """The next token if it is a value rather than an option."""
        if self.at < len(self.tokens) and not self._opens(self.tokens[self.at]):
            return self.tokens[self.at]
        return None

    def _option(self, index: int, name: str, keys: str, inline: str | None) -> None:
        flag = self.options.get(name)
        if flag is None:
            self._unknown(index, name, inline)
        elif keys:
            self._dotted(index, flag, f"{name}.{keys}", inline)
        elif flag.type == "bool":
            self._switch(index, name, inline)
        else:
            self._valued(index, name, flag, inline)

    def _unknown(self, index: int, name: str, inline: str | None) -> None:
        hint = did_you_mean(name, self.options)
        self.problems.append((index, f"unknown option '{name}'{hint}"))
        if inline is None and self._following() is not None:
            self.at += 1  # most likely its value: do not report it again

    def _switch(self, index: int, name: str, inline: str | None) -> None:
        if inline is not None:
            message = f"'{name}' is an on/off flag and takes no value, got '{inline}'"
            self.problems.append((index, message))
            return
        stray = self._following()
        if stray is not None:
            message = (
                f"unexpected argument '{stray}'; '{name}' is an on/off flag and takes no value"
            )
            self.problems.append((self.at, message))
            self.at += 1

    def _valued(self, index: int, name: str, flag: Flag, inline: str | None) -> None:
        values = [(index, inline)] if inline is not None else self._take(flag)
        if not values:
            self._missing(index, name)
            return
        for value_index, text in values:
            self.problems += [(value_index, m) for m in check_token(flag, text)]

    def _take(self, flag: Flag) -> list[tuple[int, str]]:
        taken: list[tuple[int, str]] = []
        while (text := self._following()) is not None:
            taken.append((self.at, text))
            self.at += 1
            if flag.list_form != "nargs":
                break
        return taken

    def _missing(self, index: int, name: str) -> None:
        if self.at < len(self.tokens):
            message = f"'{name}' expects a value, got the option '{self.tokens[self.at]}'"
        else:
            message = f"'{name}' expects a value"
        self.problems.append((index, message))

    def _dotted(self, index: int, flag: Flag, spelled: str, inline: str | None) -> None:
        """``--x.a.b value`` (``--x.a+`` appends): only JSON options take dotted keys."""
        if inline is None:
            if self._following() is None:
                self._missing(index, spelled)
                return
            self.at += 1
        if not flag.json_dotted_keys:
            message = f"'{spelled}' is not accepted: only JSON options take dotted keys"
            self.problems.append((index, message))
            return
        path = spelled.split(".")[1:]
        path[-1] = path[-1].removesuffix("+")
        if flag.json_keys and path[0] not in flag.json_keys:
            self.problems.append((index, unknown_key(flag, path[0])))
