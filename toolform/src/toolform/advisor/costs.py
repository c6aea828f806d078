"""What a tool block costs: tokens scaled from the study's cost table, and a price per request."""

from __future__ import annotations

from dataclasses import dataclass

from toolform.advisor.study import Study

#: Each answer protocol's home format: the core format the cost table measured it with.
_JSON_OBJECT_HOME = "json_schema_openai"


@dataclass(frozen=True)
class BlockCost:
    """Tokens of one format's tool block at a tool count, and the price of one request with it."""

    schema_tokens: int
    exact_tokens: float
    cost_per_request: float | None
    exact_cost: float | None


def protocol_home(study: Study, format_id: str, protocol_id: str) -> str | None:
    """The core format whose completions the cost of ``protocol_id`` is read from; None for an unmeasured one."""
    if study.default_protocol.get(format_id) == protocol_id:
        return format_id
    homes = [f for f, p in study.default_protocol.items() if p == protocol_id]
    if not homes:
        return None
    return _JSON_OBJECT_HOME if _JSON_OBJECT_HOME in homes else homes[0]


def block_cost(
    study: Study, format_id: str, protocol_id: str, n_tools: int, price: str, measured_tokens: int | None = None
) -> BlockCost:
    """Schema tokens (measured on the tools when given, else scaled per tool) and the request's price.

    The price adds the tool block (cached where the price vector caches it), the
    rest of the prompt and the completion, each as the cost table measured them.
    """
    row = study.cost_rows[format_id]
    exact = float(measured_tokens) if measured_tokens is not None else row.schema * n_tools / study.cost_n_tools
    tokens = measured_tokens if measured_tokens is not None else round(exact)
    home = protocol_home(study, format_id, protocol_id)
    if home is None:
        return BlockCost(tokens, exact, None, None)
    # Whole tokens, as an endpoint bills them: the prompt is the block plus the rest the table measured.
    prompt = round(tokens + (row.prompt - row.schema))
    completion = round(study.cost_rows[home].completion)
    vector = study.prices[price]
    per_input = float(vector["input_per_m"])
    if vector.get("schema_cached"):
        cost = tokens * float(vector["cached_input_per_m"]) + (prompt - tokens) * per_input
    else:
        cost = prompt * per_input
    cost = (cost + completion * float(vector["output_per_m"])) / 1e6
    return BlockCost(tokens, exact, round(cost, 7), cost)
