"""The Python forms the standard library lacks: ``Some`` (an Option that must
stay distinguishable from its None), ``FlowSet`` and ``FlowMap`` (Flow's sets and
non-Text-keyed dicts, ordered and compared by Flow's rules, not Python's), and
``JsonValue`` (json.Value's Python form)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Set
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Generic, TypeAlias, TypeVar, overload

from flow_toolkit import _native

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
K = TypeVar("K")
V_co = TypeVar("V_co", covariant=True)

JsonValue: TypeAlias = (
    "None | bool | int | Decimal | str | list[JsonValue] | dict[str, JsonValue]"
)
"""json.Value's Python form: whole numbers are ``int``, other numbers
``Decimal`` (never ``float``), arrays ``list``, objects ``dict``."""


@dataclass(frozen=True, slots=True)
class Some(Generic[T_co]):
    """Some(value) of an Option whose payload's Python values may be None
    (``Option<Option<T>>``, ``Option<Unit>``, ``Option<json.Value>``, an Option of
    a type parameter): its Python form is ``Some[T] | None``, so ``None`` and
    ``Some(None)`` stay apart. Every other Option is plain ``T | None``."""

    value: T_co


class FlowSet(Set[T_co]):
    """An immutable Flow ``Set``: elements in Flow's ascending order (the order of
    the encoding), equal elements once, under Flow's equality — so lists,
    records, dicts and JSON values can be elements, and ``1`` equals
    ``Decimal("1.0")``. Iteration is in ascending order."""

    __slots__ = ("_items",)
    _items: tuple[T_co, ...]

    def __init__(self, items: Iterable[T_co] = ()) -> None:
        object.__setattr__(self, "_items", _native.flow_sorted_set(items))

    @staticmethod
    def _from_sorted(items: tuple[T, ...]) -> FlowSet[T]:
        # Decoded sets arrive sorted and unique: no need to sort again.
        made: FlowSet[T] = FlowSet.__new__(FlowSet)
        object.__setattr__(made, "_items", items)
        return made

    @classmethod
    def _from_iterable(cls, it: Iterable[T]) -> FlowSet[T]:
        return FlowSet(it)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a FlowSet is immutable")

    def __contains__(self, item: object) -> bool:
        try:
            return _native.flow_index(self._items, item, False) >= 0
        except TypeError:
            return False

    def __iter__(self) -> Iterator[T_co]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlowSet):
            return NotImplemented
        return len(self) == len(other) and all(
            _native.flow_compare(a, b) == 0 for a, b in zip(self._items, other._items, strict=True)
        )

    def __hash__(self) -> int:
        return _native.flow_hash(self)

    def __repr__(self) -> str:
        return f"FlowSet([{', '.join(map(repr, self._items))}])"


class FlowMap(Mapping[K, V_co]):
    """An immutable Flow ``Dict`` whose keys are not Text (``Dict<Text, V>`` is a
    plain ``dict``): pairs in Flow's ascending key order, keys unique under
    Flow's equality, so lists, records and tuples can be keys. A key given twice
    with different values is refused (ValueError), never silently dropped."""

    __slots__ = ("_pairs",)
    _pairs: tuple[tuple[K, V_co], ...]

    @overload
    def __init__(self) -> None: ...
    @overload
    def __init__(self, items: Mapping[K, V_co]) -> None: ...
    @overload
    def __init__(self, items: Iterable[tuple[K, V_co]]) -> None: ...

    def __init__(self, items: Any = ()) -> None:
        if isinstance(items, Mapping):
            items = items.items()
        object.__setattr__(self, "_pairs", _native.flow_sorted_map(items))

    @staticmethod
    def _from_sorted(pairs: tuple[tuple[K, T], ...]) -> FlowMap[K, T]:
        made: FlowMap[K, T] = FlowMap.__new__(FlowMap)
        object.__setattr__(made, "_pairs", pairs)
        return made

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a FlowMap is immutable")

    def __getitem__(self, key: K) -> V_co:
        try:
            at = _native.flow_index(self._pairs, key, True)
        except TypeError:
            at = -1
        if at < 0:
            raise KeyError(key)
        return self._pairs[at][1]

    def __iter__(self) -> Iterator[K]:
        return (k for k, _ in self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)

    def items(self) -> Any:
        """The ``(key, value)`` pairs in ascending key order."""
        return _ItemsView(self._pairs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlowMap):
            return NotImplemented
        return len(self) == len(other) and all(
            _native.flow_compare(a[0], b[0]) == 0 and _native.flow_compare(a[1], b[1]) == 0
            for a, b in zip(self._pairs, other._pairs, strict=True)
        )

    def __hash__(self) -> int:
        return _native.flow_hash(self)

    def __repr__(self) -> str:
        return f"FlowMap([{', '.join(f'({k!r}, {v!r})' for k, v in self._pairs)}])"


class _ItemsView(Set[tuple[Any, Any]]):
    __slots__ = ("_pairs",)

    def __init__(self, pairs: tuple[tuple[Any, Any], ...]) -> None:
        self._pairs = pairs

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        return iter(self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)

    def __contains__(self, item: object) -> bool:
        return any(
            _native.flow_compare(p[0], item[0]) == 0 and _native.flow_compare(p[1], item[1]) == 0
            for p in self._pairs
        ) if isinstance(item, tuple) and len(item) == 2 else False
