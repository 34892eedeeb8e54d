"""Effective ``vllm serve`` commands and the operator override commands built from them.

Tokens are shell-quoted the way NemoClaw quotes them: only when a token holds a
character outside ``[A-Za-z0-9_@%+=:,./-]`` (exactly ``shlex.quote``'s rule). Every
printed command reads back through ``bash`` as exactly the intended argv and
environment: values are quoted; the words that cannot be quoted (environment variable
names, the CLI) are shell-safe because the registry schema admits nothing else, and are
checked again here.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from docgen.errors import CONTROL, ConfigError, Location, Problem, surrogate_problem
from docgen.registry.model import Override, Product, Profile
from docgen.vllm.catalog import Catalog
from docgen.vllm.values import JsonLimit, load_json, show_value

#: What bash takes as a variable name in ``NAME=value command`` (the schema's ``envname``).
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def quote(token: str) -> str:
    return shlex.quote(token)


def assignment(name: str, value: str) -> str:
    """``NAME=value`` for a command's environment; a name bash would not read as one is
    a bug upstream (the registry refuses it), never printed."""
    if not _ENV_NAME.fullmatch(name):
        raise ValueError(f"not an environment variable name: {name!r}")
    return f"{name}={quote(value)}"


@dataclass(frozen=True)
class ServeCommand:
    """A full ``vllm serve`` invocation: the commands run before it (each must succeed),
    then its environment, model and argv tokens."""

    env: tuple[tuple[str, str], ...]
    model: str
    tokens: tuple[str, ...]
    steps: tuple[tuple[str, ...], ...] = ()

    @property
    def argv(self) -> list[str]:
        return ["vllm", "serve", self.model, *self.tokens]

    def shell(self, multiline: bool = False) -> str:
        """The command as a person types it: the steps joined with ``&&``, then the
        environment (which applies to ``vllm serve`` alone) and the serve command; when
        ``multiline``, each step on a line of its own and one flag per line."""
        env = [assignment(k, v) for k, v in self.env]
        steps = [" ".join(quote(word) for word in step) + " &&" for step in self.steps]
        head = " ".join([*env, "vllm", "serve", quote(self.model)])
        groups = _flag_groups(self.tokens)
        if not multiline:
            return " ".join([*steps, head, *groups])
        # bash reads on after a line that ends with &&: each step stands on a line of its own.
        return "".join(f"{step}\n" for step in steps) + " \\\n  ".join([head, *groups])


def _flag_groups(tokens: Sequence[str]) -> list[str]:
    """Join each flag with the values that follow it: ``--x 1`` stays on one line."""
    groups: list[list[str]] = []
    for token in tokens:
        if token.startswith("-") and not _is_number(token) or not groups:
            groups.append([token])
        else:
            groups[-1].append(token)
    return [" ".join(quote(t) for t in g) for g in groups]


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def serve_command(
    profile: Profile, override: Override | None = None, extra: Sequence[str] = ()
) -> ServeCommand:
    """The command the launcher runs for ``profile``: its steps, then ``vllm serve`` with
    the registry tokens (shared args first), the override's, then ``extra``: the last value
    wins."""
    tokens = [*profile.tokens, *(override.tokens if override else ()), *extra]
    steps = tuple(step.run for step in profile.steps_for(override))
    return ServeCommand(tuple(profile.env.items()), profile.model.hf, tuple(tokens), steps)


def override_setting(product: Product, override: Override) -> str:
    """``EXTRA_ARGS_JSON='[...]'``: the environment setting an operator uses to apply
    ``override`` (the words readers type, where docgen's own name is the override's id)."""
    array = json.dumps(list(override.tokens), separators=(",", ":"), ensure_ascii=False)
    return assignment(product.extra_args_env, array)


def override_command(product: Product, profile: Profile, override: Override, cli: str) -> str:
    """The environment-variable command an operator pastes to apply ``override``: the
    model setting selects the profile. An explicit-only profile has none (the registry
    rules refuse its overrides): it is chosen by its id, which the product does not
    combine with the extra-args setting, so asking for one is an error.

    ``cli`` stays as given: it is the product's CLI token, which each agent variant
    replaces with its own CLI. ``product.onboard`` is words the schema keeps shell-safe;
    quoting each one changes nothing for those and keeps any other word one argument.
    """
    if profile.selection == "explicit-only":
        raise ValueError(
            f"profile '{profile.id}' is explicit-only: it is chosen by its id, which cannot "
            f"be combined with {product.extra_args_env}, so no command applies an override"
        )
    lines = [assignment(k, v) for k, v in product.provider_env.items()]
    lines.append(assignment(product.model_env, profile.model.id))
    lines.append(override_setting(product, override))
    lines.append(" ".join([cli, *(quote(word) for word in product.onboard.split(" "))]))
    return " \\\n  ".join(lines)


def parse_extra_args(text: str, catalog: Catalog, origin: str = "--extra-args-json") -> list[str]:
    """Validate operator extra args like NemoClaw's ``*_EXTRA_ARGS_JSON`` variable."""
    where = Location(origin)
    try:
        value = load_json(text)
    except JsonLimit as exc:
        raise ConfigError.at(where, str(exc)) from None
    except json.JSONDecodeError as exc:
        raise ConfigError.at(where, f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ConfigError.at(where, "must be a JSON array of vLLM serve argument strings")
    tokens = [t.strip() for t in value]
    problems = [Problem(m, where) for m in _token_problems(tokens)]
    if not problems:
        problems = [
            Problem(f"token {i + 1} ({show_value(tokens[i])}): {m}", where)
            for i, m in catalog.check_argv(tokens)
        ]
    if problems:
        raise ConfigError(problems)
    return tokens


def _token_problems(tokens: Sequence[str]) -> list[str]:
    """What no printed command may carry: a blank token, a control character (C0, C1, a
    line separator or a bidirectional control, which would rewrite what a reader sees of
    the command), or a lone surrogate (no character: the shell text would not be the argv)."""
    out = []
    for index, token in enumerate(tokens, start=1):
        if not token:
            out.append(f"token {index} is blank")
        elif (found := CONTROL.search(token)) is not None:
            out.append(f"token {index} contains a control character (U+{ord(found[0]):04X})")
        elif (lone := surrogate_problem(token)) is not None:
            out.append(f"token {index} is no text to print: {lone}")
    return out
