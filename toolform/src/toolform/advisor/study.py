"""The study's tables the advisor reads, taken from the verified evidence once.

Every number here is the evidence's own; this module only gives the tables names
and types. Percent values stay percent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from toolform.errors import EvidenceUnavailable
from toolform.evidence import Evidence

#: How the advisor's evidence entries name each core format (the study's own short names).
FORMAT_LABELS: dict[str, str] = {
    "xml_schema": "XML",
    "natural_language": "natural language",
    "python_stub": "Python stub",
    "json_schema_openai": "JSON Schema",
    "yaml_schema": "YAML",
    "typescript": "TypeScript",
    "markdown_table": "Markdown table",
    "json_minimal": "minimal schema",
}


@dataclass(frozen=True)
class AnchorRow:
    """One model measured directly (tab_models_main's anchor rows)."""

    label: str
    name: str
    effort: str | None
    accuracy: dict[str, float]


@dataclass(frozen=True)
class FamilyRow:
    """One open family's mean row (tab_models_main)."""

    family: str
    label: str
    checkpoints: int
    params: str | None
    accuracy: dict[str, float]


@dataclass(frozen=True)
class CheckpointRow:
    """One open checkpoint's own row (tab_models_full)."""

    id: str
    family: str
    params_b: float | None
    accuracy: dict[str, float]


@dataclass(frozen=True)
class CostRow:
    """Tokens per instance of one core format at 8 tools (tab_cost)."""

    schema: float
    prompt: float
    completion: float


class Study:
    """Typed views of the evidence files the advisor needs: read once, then looked up."""

    def __init__(self, evidence: Evidence) -> None:
        self.version = evidence.version
        core = _dict(evidence.data("core_main"))
        self.core_rows: list[dict[str, Any]] = _list(core["rows"])
        #: The eight core formats in the study's order, each with its default protocol.
        self.core_formats: list[str] = [str(row["format_id"]) for row in self.core_rows]
        self.default_protocol: dict[str, str] = {str(r["format_id"]): str(r["protocol_id"]) for r in self.core_rows}
        self.pooled: dict[str, dict[str, float]] = {
            rule: {k: float(v) for k, v in _dict(table).items()} for rule, table in _dict(core["by_rule"]).items()
        }
        conditions = _dict(evidence.document("core_main")).get("conditions", {})
        self.pooled_checkpoints = int(_dict(conditions).get("checkpoints", 0))

        families = _dict(evidence.data("families"))
        self.families: dict[str, FamilyRow] = {}
        self.anchors: list[AnchorRow] = []
        for row in _list(families["rows"]):
            accuracy = {k: float(v) for k, v in _dict(row["accuracy"]).items()}
            if row.get("family"):
                self.families[str(row["family"])] = FamilyRow(
                    str(row["family"]), str(row["label"]), int(row["checkpoints"]),
                    None if row.get("params") is None else str(row["params"]), accuracy,
                )
            else:
                label = str(row["label"])
                effort = None if row.get("effort") is None else str(row["effort"])
                name = label[: -len(f" ({effort})")] if effort is not None and label.endswith(f" ({effort})") else label
                self.anchors.append(AnchorRow(label, name, effort, accuracy))
        self.checkpoints: dict[str, CheckpointRow] = {}
        for row in _list(families["checkpoints"]):
            params = row.get("params_b")
            self.checkpoints[str(row["id"]).casefold()] = CheckpointRow(
                str(row["id"]), str(row["family"]), None if params is None else float(params),
                {k: float(v) for k, v in _dict(row["accuracy"]).items()},
            )
        sizes = [c.params_b for c in self.checkpoints.values() if c.params_b is not None]
        self.checkpoint_params: tuple[float, float] = (min(sizes), max(sizes)) if sizes else (0.0, 0.0)

        zoo = _dict(evidence.data("zoo"))
        self.zoo_models: dict[str, dict[str, Any]] = {str(m["id"]).casefold(): m for m in _list(zoo["models"])}
        self.zoo_families: dict[str, dict[str, Any]] = {k: _dict(v) for k, v in _dict(zoo["families"]).items()}
        self.patterns: list[tuple[str, str]] = [(str(p), str(f)) for p, f in _list(zoo["patterns"])]
        self.aliases: dict[str, str] = {str(k): str(v) for k, v in _dict(zoo.get("aliases", {})).items()}

        counts = _dict(evidence.data("tool_count"))
        self.counts: list[int] = [int(n) for n in _list(counts["counts"])]
        self.count_accuracy: dict[str, list[float]] = {
            k: [float(x) for x in _list(v)] for k, v in _dict(counts["accuracy"]).items()
        }
        self.count_overall: dict[int, dict[str, Any]] = {int(r["n_tools"]): r for r in _list(counts["overall"])}
        self.retrieval: list[dict[str, Any]] = _list(counts["retrieval"])

        tiers = _dict(evidence.data("tiers"))
        self.tiers: list[int] = [int(t) for t in _list(tiers["tiers"])]
        self.tier_accuracy: dict[str, list[float]] = {
            k: [float(x) for x in _list(v)] for k, v in _dict(tiers["accuracy"]).items()
        }

        crossing = _dict(evidence.data("protocol_crossing"))
        self.crossing_protocols: list[str] = [str(p) for p in _list(crossing["protocols"])]
        self.crossing: dict[str, dict[str, dict[str, float]]] = {
            rule: {f: {p: float(v) for p, v in _dict(cells).items()} for f, cells in _dict(_dict(t)["cells"]).items()}
            for rule, t in _dict(crossing["rules"]).items()
        }
        self.crossing_ratio: dict[str, float] = {k: float(v) for k, v in _dict(crossing["ratios"]).items()}
        self.crossing_checkpoints = int(crossing["checkpoints"])

        cost = _dict(evidence.data("cost"))
        self.cost_rows: dict[str, CostRow] = {
            str(r["format_id"]): CostRow(float(r["schema"]), float(r["prompt"]), float(r["completion"]))
            for r in _list(cost["rows"])
        }
        self.cost_n_tools = int(cost["n_tools"])
        self.prices: dict[str, dict[str, Any]] = {k: _dict(v) for k, v in _dict(cost["prices"]).items()}

        disclosure = _dict(evidence.data("disclosure"))
        self.disclosure: dict[int, dict[str, Any]] = {
            int(r["n_tools"]): r for r in _list(disclosure["second_design"]) if r.get("arm") == "names_desc"
        }

        surface = _dict(evidence.data("surface"))
        self.surface_form = str(surface["form"])
        self.surface_heldout_r2 = float(surface["heldout_r2"])
        self.surface_complexity: dict[int, float] = {
            int(k): float(v) for k, v in _dict(surface["complexity_by_tier"]).items()
        }
        self.surface_fits: dict[str, dict[str, float]] = {
            k: {p: float(x) for p, x in _dict(_dict(v)["params"]).items()} for k, v in _dict(surface["fits"]).items()
        }

        self.format_names: dict[str, str] = {
            k: str(_dict(v)["name"]) for k, v in _dict(evidence.data("formats")).items()
        }
        self.protocol_names: dict[str, str] = {
            k: str(_dict(v)["name"]) for k, v in _dict(evidence.data("protocols")).items()
        }
        self.selection_facts: dict[str, dict[str, Any]] = {
            str(f["id"]): f for f in _list(evidence.data("facts")) if isinstance(f, dict) and "id" in f
        }


def _dict(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise EvidenceUnavailable("an evidence table the advisor reads is not an object; check the evidence's version")
    return cast(dict[str, Any], value)


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise EvidenceUnavailable("an evidence table the advisor reads is not a list; check the evidence's version")
    return value
