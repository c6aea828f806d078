"""flow-toolkit: the Python side of the Flow host boundary.

Typed values that cross between a Flow runtime and a Tool, their exact JSON
encoding and canonical text, and the runtime that serves a generated Tool
package as a process (``python -m PACKAGE``). Every rule lives in one Rust core,
shared with the Rust and TypeScript toolkits, so all agree to the last byte.

Type mapping (each Flow type and its Python form):

=========================  ====================================================
Flow                       Python
=========================  ====================================================
Int                        ``int`` (exact; ``bool`` is refused where an Int goes)
Decimal                    ``decimal.Decimal`` (exact; never ``float``; handlers
                           compute in ``exact_context()``, which raises rather
                           than rounds)
Text                       ``str``
Bool                       ``bool``
Bytes                      ``bytes``
Unit                       ``None``
Instant, Duration          :class:`Instant`, :class:`Duration` (integer nanoseconds)
List<T>                    ``list[T]``
Tuple (A, B)               ``tuple[A, B]``
Dict<Text, V>              ``dict[str, V]``
Dict<K, V>, K not Text     :class:`FlowMap` ``[K, V]``
Set<T>                     :class:`FlowSet` ``[T]``
Option<T>                  ``T | None``; ``Some[T] | None`` where T's Python values
                           may be None (Option<Option<T>>, Option<Unit>,
                           Option<json.Value>, Option of a type parameter)
record                     a frozen, slotted dataclass (keyword-only; Option
                           fields default to None)
enum                       one frozen dataclass per constructor and a union alias;
                           a constructor without payload is a class without
                           fields (``SkyClear()``)
a Tool's error type        the same, and an ``Exception`` (:func:`raisable`):
                           a handler raises it to reply Failed
generic declaration        a ``typing.Generic`` class
json.Value                 :data:`JsonValue`: None, bool, int (whole numbers),
                           Decimal (other numbers), str, list, dict
host token                 :class:`HostToken`
a Tool's type parameter    JSON (:data:`JsonValue`), with the call's types in
                           its :class:`CallContext`
=========================  ====================================================

Nothing is coerced: a ``float`` anywhere, an ``int`` where a ``Decimal`` goes, a
plain ``set`` where a ``FlowSet`` goes are refused with an :class:`EncodeError`
naming the path (``$.days[3].high_c``) and the rule. Decoding refuses what the
encoding rules refuse with a :class:`DecodeError`, likewise.

``FlowSet`` and ``FlowMap`` order and compare by Flow's rules (``decisions.md``
section 3), not Python's: records by their fields in declaration order, lists
element-wise, numbers by value; elements need not be hashable.
"""

from flow_toolkit._dynamic import codec_for
from flow_toolkit._errors import DecodeError, EncodeError, FlowError
from flow_toolkit._exact import exact_context
from flow_toolkit._native import (
    DATA_VERSION,
    Codec,
    Duration,
    HostToken,
    Instant,
    TypeCodec,
    canonical,
    check_listing,
    fingerprints,
    tool_fingerprint,
    tool_signature,
)
from flow_toolkit._raisable import raisable
from flow_toolkit._runtime import CallContext, Failed, serve
from flow_toolkit._values import FlowMap, FlowSet, JsonValue, Order, Some

__all__ = [
    "DATA_VERSION",
    "CallContext",
    "Failed",
    "Codec",
    "DecodeError",
    "Duration",
    "EncodeError",
    "FlowError",
    "FlowMap",
    "FlowSet",
    "HostToken",
    "Instant",
    "JsonValue",
    "Order",
    "Some",
    "TypeCodec",
    "canonical",
    "check_listing",
    "codec_for",
    "exact_context",
    "fingerprints",
    "raisable",
    "serve",
    "tool_fingerprint",
    "tool_signature",
]
