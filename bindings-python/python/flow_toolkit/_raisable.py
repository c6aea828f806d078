"""Generated classes a handler can raise: those of a type used as a Tool's
declared error (flow-gen writes ``@flow_toolkit.raisable`` on them).

Such a class is an ``Exception`` subclass and stays a frozen, slotted
dataclass. A frozen dataclass refuses every attribute assignment, but Python
assigns some on a raised exception (``contextlib.contextmanager`` sets
``__traceback__``, ``add_note`` sets ``__notes__``); :func:`raisable` keeps the
refusal for the fields only, so the value cannot change while the exception
machinery still works.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

_E = TypeVar("_E", bound=BaseException)


def _rebuild(cls: type[_E], fields: dict[str, Any]) -> _E:
    return cls(**fields)


def raisable(cls: type[_E]) -> type[_E]:
    """Makes ``cls``, a frozen dataclass that subclasses ``Exception``, fit to
    raise: its fields stay read-only (``dataclasses.FrozenInstanceError``),
    other attributes (``__traceback__``, ``__notes__``, ...) can be set; equality
    and hashing stay the dataclass's, by fields; ``str()`` lists the fields,
    as a traceback's last line shows them; pickling rebuilds it from them
    (``BaseException``'s own would call it with ``args``, which a keyword-only
    dataclass does not take)."""
    if not issubclass(cls, BaseException):
        raise TypeError(f"raisable: {cls.__qualname__} is not an exception class")
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        raise TypeError(f"raisable: {cls.__qualname__} is not a frozen dataclass")
    names = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    fields = frozenset(names)

    def __setattr__(self: BaseException, name: str, value: object) -> None:
        if name in fields:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        BaseException.__setattr__(self, name, value)

    def __delattr__(self: BaseException, name: str) -> None:
        if name in fields:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        BaseException.__delattr__(self, name)

    def __str__(self: BaseException) -> str:
        return ", ".join(f"{name}={getattr(self, name)!r}" for name in names)

    def __reduce__(self: BaseException) -> tuple[Any, ...]:
        return (_rebuild, (type(self), {name: getattr(self, name) for name in names}))

    for method in (__setattr__, __delattr__, __str__, __reduce__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)
    return cls
