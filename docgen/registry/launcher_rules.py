"""The rules of the launcher section: its shared args and steps are vLLM flags, a profile
omits only what the section has and does not set a shared arg it keeps, and every command
(with the shared args, and with each override applied) meets vLLM's start-time rules."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any

from docgen.errors import Problem, did_you_mean, one_line
from docgen.registry.source import KeyPath, Positions
from docgen.vllm import requirements


class LauncherRules:
    """The launcher's rules, for ``rules.Checker`` (which provides ``at`` and ``_args``)."""

    data: dict[str, Any]
    pos: Positions
    start_rules: bool

    def at(self, keypath: KeyPath, message: str, *, key: bool = False) -> Problem:
        raise NotImplementedError

    def _args(self, base: KeyPath, args: dict[str, Any]) -> Iterator[Problem]:
        raise NotImplementedError

    def _launcher(self) -> Iterator[Problem]:
        """The shared args and each step's ``when`` are vLLM flags of the default catalog."""
        launcher = self.data.get("launcher") or {}
        yield from self._args(("launcher", "shared_args"), launcher.get("shared_args") or {})
        for sid, step in (launcher.get("before_serve") or {}).items():
            yield from self._args(("launcher", "before_serve", sid, "when"), step.get("when") or {})

    def _omissions(
        self, base: KeyPath, profile: dict[str, Any]
    ) -> Generator[Problem, None, dict[str, Any]]:
        """What the profile omits must be in the launcher section, and its args may not set
        a shared arg it keeps; returns the shared args it keeps."""
        launcher = self.data.get("launcher") or {}
        shared, steps = launcher.get("shared_args") or {}, launcher.get("before_serve") or {}
        omit = profile.get("launcher") or {}
        pid = base[-1]
        kinds = (("omit_args", shared, "'{}'", "shared_args"),
                 ("omit_steps", steps, "step '{}'", "before_serve"))  # fmt: skip
        for field, known, shown, section in kinds:
            listed = omit.get(field)
            for index, name in enumerate(listed if isinstance(listed, list) else []):
                if name not in known:
                    yield self.at(
                        (*base, "launcher", field, index),
                        f"profile '{pid}' omits {shown.format(one_line(name))}, which is not "
                        f"one of launcher.{section}{did_you_mean(name, known)}",
                    )
        omitted = omit.get("omit_args")
        kept = {
            k: v for k, v in shared.items() if not isinstance(omitted, list) or k not in omitted
        }
        for name in profile["args"]:
            if name in kept:
                line = self.pos.of_key(("launcher", "shared_args", name)).line
                yield self.at(
                    (*base, "args", name),
                    f"'--{name}' is one of launcher.shared_args (line {line}), which the "
                    f"command already sets; remove it here, or list it in profile '{pid}' "
                    "launcher.omit_args to set it here instead",
                    key=True,
                )
        return kept

    def _requirements(
        self, base: KeyPath, profile: dict[str, Any], shared: dict[str, Any]
    ) -> Iterator[Problem]:
        """vLLM's start-time rules between flags, for the profile's command and for its
        command with each override applied (the override's values win). A problem stands
        at the flag that the rule starts from, where the command last sets it."""
        if not self.start_rules:
            return
        layers: list[tuple[KeyPath, dict[str, Any]]] = [
            (("launcher", "shared_args"), shared),
            ((*base, "args"), profile["args"]),
        ]
        commands = [(layers, "")]
        for oid, override in (profile.get("overrides") or {}).items():
            keypath = (*base, "overrides", oid, "args")
            commands.append(([*layers, (keypath, override["args"])], f" with override '{oid}'"))
        reported: set[requirements.Requirement] = set()
        for stack, how in commands:
            values = {k: v for _, args in stack for k, v in args.items()}
            # A rule the profile's own command breaks is reported once, not per override.
            for rule in [r for r in requirements.broken(values) if r not in reported]:
                keypath = next(kp for kp, args in reversed(stack) if rule.flag in args)
                yield self.at(
                    (*keypath, rule.flag),
                    f"vLLM refuses to start profile '{base[-1]}'{how}: {rule.problem()}",
                    key=True,
                )
            if not how:
                reported = set(requirements.broken(values))
