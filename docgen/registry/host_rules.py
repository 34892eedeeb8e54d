"""The rules that tie hosts to the rest of the registry: a host's default image exists and
every image a host runs is built for its arch, a host's default profile is one it offers
(and one it offers only when named takes no operator override),
a model is registered only for hosts that exist, and a model's support state and selection
on a host agree with its profile there."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docgen.errors import Problem, did_you_mean, one_line
from docgen.registry.model import Product
from docgen.registry.source import KeyPath


class HostRules:
    """The host rules, for ``rules.Checker`` (which provides ``data`` and ``at``)."""

    data: dict[str, Any]

    def at(self, keypath: KeyPath, message: str, *, key: bool = False) -> Problem:
        raise NotImplementedError

    def _host_images(self) -> Iterator[Problem]:
        """A host's default image is one the registry has."""
        images = self.data.get("images") or {}
        for hid, host in (self.data.get("hosts") or {}).items():
            image = host.get("image") if isinstance(host, dict) else None
            if isinstance(image, str) and image not in images:
                yield self.at(
                    ("hosts", hid, "image"),
                    f"host '{hid}' names unknown image '{one_line(image)}'"
                    f"{did_you_mean(image, images)}",
                )

    def _image_platforms(self) -> Iterator[Problem]:
        """An image a host runs (its default, or a profile's own) is built for the host's
        arch, where both are known: an amd64 image does not start on an arm64 host."""
        images, hosts = self.data.get("images") or {}, self.data.get("hosts") or {}
        runs: list[tuple[KeyPath, str, str]] = [
            (("hosts", hid, "image"), hid, host["image"])
            for hid, host in hosts.items()
            if isinstance(host.get("image"), str)
        ]
        for pid, profile in (self.data.get("profiles") or {}).items():
            if isinstance(profile.get("image"), str):
                runs.append((("profiles", pid, "image"), profile["host"], profile["image"]))
        for where, hid, iid in runs:
            arch = (hosts.get(hid) or {}).get("arch")
            platform = (images.get(iid) or {}).get("platform", "")
            built = platform.partition("/")[2]
            if arch in ("arm64", "amd64") and built and built != arch:
                yield self.at(
                    where,
                    f"image '{iid}' is built for {platform}, but host '{hid}' is {arch}",
                )

    def _default_profiles(self) -> Iterator[Problem]:
        """A host's default profile is one the host offers by itself: not explicit-only
        (used only when named) and not disabled (not offered at all)."""
        for pid, profile in (self.data.get("profiles") or {}).items():
            for field, never in (("selection", "explicit-only"), ("support", "disabled")):
                if profile.get("default") and profile.get(field) == never:
                    yield self.at(
                        ("profiles", pid, field),
                        f"profile '{pid}' is its host's default, but a default cannot be "
                        f"{never}; drop 'default: true' or choose another {field}",
                    )

    def _explicit_only_overrides(self) -> Iterator[Problem]:
        """An explicit-only profile takes no override: it is chosen by its id (``onboard
        --profile``), which the product refuses beside its extra-args setting (NemoClaw:
        "NEMOCLAW_SERVING_PRESET conflicts with NEMOCLAW_VLLM_EXTRA_ARGS_JSON"), so no
        command the docs could print applies one."""
        product = self.data.get("product") or {}
        setting = product.get("extra_args_env", Product.extra_args_env)
        for pid, profile in (self.data.get("profiles") or {}).items():
            if profile.get("selection") != "explicit-only":
                continue
            for oid in profile.get("overrides") or {}:
                yield self.at(
                    ("profiles", pid, "overrides", oid),
                    f"profile '{pid}' is explicit-only: it is chosen by its id, "
                    f"which cannot be combined with {setting}, so override '{oid}' can never "
                    "be applied; drop the override or make the profile automatic",
                    key=True,
                )

    def _model_hosts(self) -> Iterator[Problem]:
        """A model is registered only for hosts the registry has, and its support state
        and selection on a host agree with its profile there (one fact, one place)."""
        hosts = self.data.get("hosts") or {}
        first: dict[tuple[Any, Any], tuple[str, dict[str, Any]]] = {}
        for pid, profile in (self.data.get("profiles") or {}).items():
            if isinstance(profile, dict):
                first.setdefault((profile.get("model"), profile.get("host")), (pid, profile))
        for mid, model in (self.data.get("models") or {}).items():
            for hid, facts in (model.get("hosts") or {}).items() if isinstance(model, dict) else ():
                if hid not in hosts:
                    yield self.at(
                        ("models", mid, "hosts", hid),
                        f"model '{mid}' is registered for unknown host "
                        f"'{one_line(hid)}'{did_you_mean(hid, hosts)}",
                        key=True,
                    )
                if (mid, hid) in first:
                    yield from self._model_host_state(mid, hid, facts, *first[mid, hid])

    def _model_host_state(
        self, mid: str, hid: str, facts: dict[str, Any], pid: str, profile: dict[str, Any]
    ) -> Iterator[Problem]:
        """A support state or selection that contradicts the model's first profile there."""
        for name, default in (("support", "supported"), ("selection", "automatic")):
            declared, own = facts.get(name), profile.get(name, default)
            if declared is not None and declared != own:
                said = (
                    f"says '{own}'"
                    if name in profile
                    else f"is '{own}' (it sets no {name}, and that is the default)"
                )
                yield self.at(
                    ("models", mid, "hosts", hid, name),
                    f"model '{mid}' says {name} '{declared}' on host '{hid}', but its "
                    f"profile '{pid}' there {said}: set it in one place",
                )
