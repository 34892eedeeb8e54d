"""Registry objects turned into text by a template are refused, however it is done.

``{{ profile }}`` is refused by ``filters.finalize``; ``~ profile``, ``profile | string``,
``| pprint``, ``'{}'.format(profile.args)`` and joining objects call Python's ``repr``
themselves, which no filter sees. That text (``Profile(id=..., source=Source(...))``) is
nothing a page should show, and it holds every value and every line number behind the
object, which no read of the render records: a cached plan would keep such a page after
any edit. So while a template renders, the ``repr`` of every class of the registry model
raises instead (``rendering``); outside a render it is the dataclass's own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from docgen.registry import model

#: How many template renders this process is inside (a page includes partials).
_depth = 0


@contextmanager
def rendering() -> Iterator[None]:
    """Refuse a registry object's text inside the block (a template's render)."""
    global _depth
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1


def _refused_while_rendering(made: Callable[[Any], str]) -> Callable[[Any], str]:
    # Not functools.wraps: pprint would find the dataclass repr through __wrapped__ and
    # print the fields itself.
    def __repr__(self: Any) -> str:
        if _depth:
            raise ValueError(
                f"the template turned a {type(self).__name__} object into text (with ~, "
                "string, pprint, join or format), which a page cannot show: print one of "
                "its fields"
            )
        return made(self)

    return __repr__


for _class in vars(model).values():
    ours = isinstance(_class, type) and _class.__module__ == model.__name__
    if ours and dataclasses.is_dataclass(_class):
        made: Callable[[Any], str] = _class.__repr__  # type: ignore[assignment]
        _class.__repr__ = _refused_while_rendering(made)  # type: ignore[method-assign]
