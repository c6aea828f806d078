"""Which of the study's evidence a model name points at: a checkpoint, an anchor, a family, or nothing.

The order is the study's own precision: a checkpoint measured on its own, then a
model measured directly (an anchor, by name and reasoning effort), then the zoo's
record of the id, then the zoo's family patterns; a name that matches none of
these is resolved to nothing, and the pooled table is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from toolform.advisor.study import AnchorRow, Study

MatchedBy = Literal["checkpoint", "anchor", "zoo", "pattern", "family", "none"]

#: The effort an anchor name without one means, when the anchor was measured at several.
DEFAULT_EFFORT = "medium"
#: Families the study split by size: a name matching the first at this size or more is the second.
SIZE_SPLITS: tuple[tuple[str, float, str], ...] = (("qwen3.5", 100.0, "qwen3.5-large"),)
#: A size in a model name: ``8B``, ``1.5b``, ``A3B``; the first one is the total.
_SIZE = re.compile(r"(\d+(?:\.\d+)?)[bB](?![A-Za-z0-9])")


@dataclass(frozen=True)
class Resolution:
    """What a model name (or a family key) resolved to, and by which rule."""

    query: str | None
    family: str | None
    family_label: str | None
    anchor: AnchorRow | None
    params_b: float | None
    kind: str | None
    context_tokens: int | None
    matched_by: MatchedBy
    checkpoint: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "family": self.family,
            "family_label": self.family_label,
            "anchor": self.anchor.label if self.anchor else None,
            "params_b": self.params_b,
            "kind": self.kind,
            "context_tokens": self.context_tokens,
            "matched_by": self.matched_by,
            "checkpoint": self.checkpoint,
        }


def _key(text: str) -> str:
    """A name compared without case, spaces or punctuation: ``Claude Opus 5.5`` is ``claude-opus-5-5``."""
    return re.sub(r"[^a-z0-9]", "", text.casefold())


def size_in_name(name: str) -> float | None:
    """The parameter count a model name states (``Qwen3-8B`` is 8.0), if any.

    The largest size named is the total (``30B-A3B`` names the active parameters second).
    """
    sizes = [float(found.group(1)) for found in _SIZE.finditer(name)]
    return max(sizes) if sizes else None


def find_anchor(study: Study, query: str) -> AnchorRow | None:
    """The anchor a name denotes: its name and effort anywhere in it, or exactly its name.

    A bare name means the medium effort when the anchor was measured at several,
    or its one effort; a name with an effort the study did not measure matches no anchor.
    """
    wanted = _key(query)
    if not wanted:
        return None
    with_effort = [a for a in study.anchors if _key(a.label) in wanted]
    if with_effort:
        return max(with_effort, key=lambda a: len(_key(a.label)))
    by_name = [a for a in study.anchors if _key(a.name) == wanted]
    if len(by_name) == 1:
        return by_name[0]
    return next((a for a in by_name if a.effort == DEFAULT_EFFORT), None)


def family_label(study: Study, family: str | None) -> str | None:
    """The family's label in the study's tables (its evidence row), else the zoo's."""
    if family is None:
        return None
    row = study.families.get(family)
    if row is not None:
        return row.label
    label = study.zoo_families.get(family, {}).get("label")
    return None if label is None else str(label)


def resolve(study: Study, model: str | None, family: str | None, params_b: float | None) -> Resolution:
    """Resolve the situation's model (or family): the rules in the module's order.

    ``params_b`` given by the caller wins over the zoo's and the name's.
    """
    if family is not None:
        # A family named outright is what the caller knows best; the model name is kept as the query.
        key = study.aliases.get(family, family)
        return Resolution(model, key, family_label(study, key), None, params_b, None, None, "family", None)
    if model is None:
        return Resolution(None, None, None, None, params_b, None, None, "none", None)
    zoo = study.zoo_models.get(model.casefold())
    kind = None if zoo is None else zoo.get("kind")
    context = None if zoo is None or zoo.get("max_model_len") is None else int(zoo["max_model_len"])
    zoo_params = None if zoo is None or zoo.get("params_b") is None else float(zoo["params_b"])
    size = params_b if params_b is not None else zoo_params if zoo_params is not None else size_in_name(model)

    checkpoint = study.checkpoints.get(model.casefold())
    if checkpoint is not None:
        size = params_b if params_b is not None else checkpoint.params_b if zoo_params is None else zoo_params
        return Resolution(
            model, checkpoint.family, family_label(study, checkpoint.family), None, size, kind, context,
            "checkpoint", checkpoint.id,
        )
    anchor = find_anchor(study, model)
    if anchor is not None:
        return Resolution(model, None, None, anchor, size, kind, context, "anchor", None)
    if zoo is not None:
        key = study.aliases.get(str(zoo["family"]), str(zoo["family"]))
        return Resolution(model, key, family_label(study, key), None, size, kind, context, "zoo", None)
    for pattern, pattern_family in study.patterns:
        if re.search(pattern, model, re.IGNORECASE):
            key = study.aliases.get(pattern_family, pattern_family)
            for small, threshold, large in SIZE_SPLITS:
                if key == small and size is not None and size >= threshold:
                    key = large
            return Resolution(model, key, family_label(study, key), None, size, None, None, "pattern", None)
    return Resolution(model, None, None, None, size, None, None, "none", None)
