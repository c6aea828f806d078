"""The Python forms the standard library lacks: ``Some`` (an Option that must
stay distinguishable from its None), ``FlowSet`` and ``FlowMap`` (Flow's sets and
non-Text-keyed dicts, ordered and compared by Flow's rules, not Python's), and
``JsonValue`` (json.Value's Python form)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Generic, TypeAlias, TypeVar, overload

from flow_toolkit import _native

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
K = TypeVar("K")
V_co = TypeVar("V_co", covariant=True)

Order: TypeAlias = Callable[[Any, Any], int]
"""A contextual order: -1, 0 or 1 for two values. A generic call's context
supplies one (``ctx.order("T")``) for values that hold a type parameter's JSON,
ordered by the caller's type rather than by the JSON."""


def _sorted_unique(items: Iterable[Any], order: Order) -> tuple[Any, ...]:
    out: list[Any] = []
    for item in sorted(items, key=functools.cmp_to_key(order)):
        if not out or order(out[-1], item) != 0:
            out.append(item)
    return tuple(out)


def _find(items: tuple[Any, ...], item: object, order: Order | None, pairs: bool) -> int:
    if order is None:
        return _native.flow_index(items, item, pairs)
    lo, hi = 0, len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        c = order(items[mid][0] if pairs else items[mid], item)
        if c == 0:
            return mid
        lo, hi = (mid + 1, hi) if c < 0 else (lo, mid)
    return -1


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

    __slots__ = ("_items", "_order")
    _items: tuple[T_co, ...]
    _order: Order | None

    def __init__(self, items: Iterable[T_co] = (), *, order: Order | None = None) -> None:
        """``order``: a generic call's contextual order (``ctx.order("T")``);
        without it, Flow's order read from the values."""
        sorted_items = _native.flow_sorted_set(items) if order is None else _sorted_unique(items, order)
        object.__setattr__(self, "_items", sorted_items)
        object.__setattr__(self, "_order", order)

    @staticmethod
    def _from_sorted(items: tuple[T, ...], order: Order | None = None) -> FlowSet[T]:
        # Decoded sets arrive sorted and unique: no need to sort again.
        made: FlowSet[T] = FlowSet.__new__(FlowSet)
        object.__setattr__(made, "_items", items)
        object.__setattr__(made, "_order", order)
        return made

    # An instance method where the ABC has a classmethod (it calls it through
    # self): so that set operations keep the operand's contextual order.
    def _from_iterable(self, it: Iterable[T]) -> FlowSet[T]:  # type: ignore[override]
        return FlowSet(it, order=self._order)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a FlowSet is immutable")

    def __contains__(self, item: object) -> bool:
        try:
            return _find(self._items, item, self._order, False) >= 0
        except (TypeError, ValueError):
            return False

    def __iter__(self) -> Iterator[T_co]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlowSet):
            return NotImplemented
        compare = self._order or _native.flow_compare
        return len(self) == len(other) and all(
            compare(a, b) == 0 for a, b in zip(self._items, other._items, strict=True)
        )

    def __hash__(self) -> int:
        if self._order is not None:
            canonical = getattr(self._order, "canonical", repr)
            return hash(tuple(canonical(item) for item in self._items))
        return _native.flow_hash(self)

    def __repr__(self) -> str:
        return f"FlowSet([{', '.join(map(repr, self._items))}])"


class FlowMap(Mapping[K, V_co]):
    """An immutable Flow ``Dict`` whose keys are not Text (``Dict<Text, V>`` is a
    plain ``dict``): pairs in Flow's ascending key order, keys unique under
    Flow's equality, so lists, records and tuples can be keys. A key given twice
    with different values is refused (ValueError), never silently dropped."""

    __slots__ = ("_pairs", "_order")
    _pairs: tuple[tuple[K, V_co], ...]
    _order: Order | None

    @overload
    def __init__(self, *, order: Order | None = None) -> None: ...
    @overload
    def __init__(self, items: Mapping[K, V_co], *, order: Order | None = None) -> None: ...
    @overload
    def __init__(self, items: Iterable[tuple[K, V_co]], *, order: Order | None = None) -> None: ...

    def __init__(self, items: Any = (), *, order: Order | None = None) -> None:
        """``order``: a generic call's contextual order of the keys
        (``ctx.order("K")``); without it, Flow's order read from the keys."""
        if isinstance(items, Mapping):
            items = items.items()
        if order is None:
            pairs = _native.flow_sorted_map(items)
        else:
            pairs = _sorted_unique_pairs(list(items), order)
        object.__setattr__(self, "_pairs", pairs)
        object.__setattr__(self, "_order", order)

    @staticmethod
    def _from_sorted(pairs: tuple[tuple[K, T], ...], order: Order | None = None) -> FlowMap[K, T]:
        made: FlowMap[K, T] = FlowMap.__new__(FlowMap)
        object.__setattr__(made, "_pairs", pairs)
        object.__setattr__(made, "_order", order)
        return made

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a FlowMap is immutable")

    def __getitem__(self, key: K) -> V_co:
        try:
            at = _find(self._pairs, key, self._order, True)
        except (TypeError, ValueError):
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
        compare = self._order or _native.flow_compare
        return len(self) == len(other) and all(
            compare(a[0], b[0]) == 0 and _native.flow_compare(a[1], b[1]) == 0
            for a, b in zip(self._pairs, other._pairs, strict=True)
        )

    def __hash__(self) -> int:
        if self._order is not None:
            canonical = getattr(self._order, "canonical", repr)
            return hash(tuple(canonical(k) for k, _ in self._pairs))
        return _native.flow_hash(self)

    def __repr__(self) -> str:
        return f"FlowMap([{', '.join(f'({k!r}, {v!r})' for k, v in self._pairs)}])"


def _sorted_unique_pairs(pairs: list[tuple[Any, Any]], order: Order) -> tuple[tuple[Any, Any], ...]:
    out: list[tuple[Any, Any]] = []
    def by_key(a: tuple[Any, Any], b: tuple[Any, Any]) -> int:
        return order(a[0], b[0])

    for key, value in sorted(pairs, key=functools.cmp_to_key(by_key)):
        if out and order(out[-1][0], key) == 0:
            if _native.flow_compare(out[-1][1], value) != 0:
                raise ValueError(f"key {key!r} is given twice, with the values {out[-1][1]!r} and {value!r}")
            continue
        out.append((key, value))
    return tuple(out)


class _ItemsView(Set[tuple[Any, Any]]):
    __slots__ = ("_pairs",)

    def __init__(self, pairs: tuple[tuple[Any, Any], ...]) -> None:
        self._pairs = pairs

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        return iter(self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, tuple) or len(item) != 2:
            return False
        key, value = item
        return any(
            _native.flow_compare(k, key) == 0 and _native.flow_compare(v, value) == 0 for k, v in self._pairs
        )
