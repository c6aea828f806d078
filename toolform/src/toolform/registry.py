"""The registry of formats, protocols and models, as the study's evidence describes them.

Entries are the evidence's own records (their ``measured`` blocks keep their
source labels); this module selects and looks them up. ``registry_of`` gives
one registry per evidence, which reads each table once. One member is ours:
``supports_constraints`` says whether the format's text shows any constraint,
derived by rendering (render/constraint_visibility.py), where the study's
registry claimed it for 128 of 133 formats.
"""

from __future__ import annotations

import copy
import difflib
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from threading import Lock
from typing import cast

from toolform.errors import EvidenceUnavailable, UnknownFormat, UnknownProtocol
from toolform.evidence import Evidence

Record = dict[str, object]


def _records(evidence: Evidence, name: str) -> dict[str, Record]:
    data = evidence.data(name)
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise EvidenceUnavailable(f"evidence file '{name}' has no table of records under data")
    records = cast(dict[str, Record], data)
    return _with_constraints_shown(records) if name == "formats" else records


def _with_constraints_shown(records: dict[str, Record]) -> dict[str, Record]:
    """Each format's record with ``supports_constraints`` as its rendered text shows it."""
    # Imported here: the renderers read the registry's records, the registry reads them back.
    from toolform.render.constraint_visibility import constraints_shown

    return {
        format_id: (
            {**record, "supports_constraints": bool(constraints_shown(format_id))} if "supports_constraints" in record
            else record
        )
        for format_id, record in records.items()
    }


def close_matches(wanted: str, known: list[str]) -> list[str]:
    """Up to five known ids that look like ``wanted``, closest first."""
    return difflib.get_close_matches(wanted, known, n=5, cutoff=0.5)


def _unknown(kind: str, wanted: str, known: list[str]) -> str:
    matches = close_matches(wanted, known)
    detail = f"unknown {kind} '{wanted}'"
    return f"{detail}; close matches: {', '.join(matches)}" if matches else detail


@dataclass(frozen=True)
class FormatListing:
    """Formats selected by the filters, and the registry's counts (which ignore them)."""

    formats: list[Record]
    count_in_study: int
    count_registered: int

    def to_dict(self) -> dict[str, object]:
        return {
            "formats": copy.deepcopy(self.formats),
            "count_in_study": self.count_in_study,
            "count_registered": self.count_registered,
        }


@dataclass(frozen=True)
class FormatInfo:
    """One format's registry entry: metadata and the study's measured block."""

    entry: Record

    @property
    def id(self) -> str:
        return str(self.entry["id"])

    def to_dict(self) -> dict[str, object]:
        return copy.deepcopy(self.entry)


@dataclass(frozen=True)
class ProtocolListing:
    """Every registered answer protocol, in the registry's order."""

    protocols: list[Record]

    def to_dict(self) -> dict[str, object]:
        return {"protocols": copy.deepcopy(self.protocols)}


@dataclass(frozen=True)
class ModelZoo:
    """The study's model zoo: models, family labels, id patterns and aliases (zoo.json's data)."""

    data: Mapping[str, object]

    def to_dict(self) -> dict[str, object]:
        return copy.deepcopy(dict(self.data))


@dataclass(frozen=True)
class FactList:
    """The study's headline facts, each with its value, unit and source label."""

    facts: list[object]

    def to_dict(self) -> dict[str, object]:
        return {"facts": copy.deepcopy(self.facts)}


class Registry:
    """Formats, protocols, models and facts, read from one verified evidence set.

    Each table's records are read once and kept: the evidence never changes once opened.
    """

    def __init__(self, evidence: Evidence) -> None:
        self.evidence = evidence
        self._tables: dict[str, dict[str, Record]] = {}

    def _records(self, name: str) -> dict[str, Record]:
        found = self._tables.get(name)
        if found is None:
            found = self._tables[name] = _records(self.evidence, name)
        return found

    def formats(
        self, core: bool | None = None, family: str | None = None, in_study: bool | None = None
    ) -> FormatListing:
        """Formats filtered by ``core``, ``family`` (exact; empty means any) and ``in_study``."""
        everything = list(self._records("formats").values())
        chosen = [
            entry
            for entry in everything
            if (core is None or entry.get("core") is core)
            and (not family or entry.get("family") == family)
            and (in_study is None or entry.get("in_study") is in_study)
        ]
        in_study_count = sum(1 for entry in everything if entry.get("in_study") is True)
        return FormatListing(chosen, in_study_count, len(everything))

    def format(self, format_id: str) -> FormatInfo:
        """One format by id; UnknownFormat (with close matches) when it is not registered."""
        records = self._records("formats")
        entry = records.get(format_id)
        if entry is None:
            raise UnknownFormat(_unknown("format", format_id, list(records)))
        return FormatInfo(entry)

    def protocols(self) -> ProtocolListing:
        """Every answer protocol."""
        return ProtocolListing(list(self._records("protocols").values()))

    def protocol(self, protocol_id: str) -> Record:
        """One protocol by id; UnknownProtocol (with close matches) when it is not registered."""
        records = self._records("protocols")
        entry = records.get(protocol_id)
        if entry is None:
            raise UnknownProtocol(_unknown("protocol", protocol_id, list(records)))
        return copy.deepcopy(entry)

    def models(self) -> ModelZoo:
        """The model zoo as zoo.json gives it."""
        data = self.evidence.data("zoo")
        if not isinstance(data, dict):
            raise EvidenceUnavailable("evidence file 'zoo' has no object under data")
        return ModelZoo(cast(dict[str, object], data))

    def facts(self) -> FactList:
        """The headline facts as facts.json lists them."""
        data = self.evidence.data("facts")
        if not isinstance(data, list):
            raise EvidenceUnavailable("evidence file 'facts' has no list under data")
        return FactList(data)


#: The registries of the evidence sets opened lately, by identity (an Evidence is not hashable); each entry
#: holds its evidence, so an identity is never reused while kept.
_REGISTRIES: OrderedDict[int, Registry] = OrderedDict()
_REGISTRIES_KEPT = 8
_registries_lock = Lock()


def registry_of(evidence: Evidence) -> Registry:
    """The registry of ``evidence``, made once and shared (render, compare and the samples each ask for it)."""
    with _registries_lock:
        found = _REGISTRIES.get(id(evidence))
        if found is not None and found.evidence is evidence:
            _REGISTRIES.move_to_end(id(evidence))
            return found
        found = _REGISTRIES[id(evidence)] = Registry(evidence)
        while len(_REGISTRIES) > _REGISTRIES_KEPT:
            _REGISTRIES.popitem(last=False)
        return found
