"""The catalogue SDK: BM25 against figures the reference gave on hand-made catalogues, keep and k,
the identifier split, the strategy rule against advisor_cases.json's catalogue reasons, plan and the
two-stage prompt, and refusals."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from toolform.catalogue import (
    MAX_CATALOGUE_TOOLS,
    BM25Index,
    Catalogue,
    TwoStage,
    catalogue_strategy,
    plan,
    retrieve,
    two_stage_prompt,
    words,
)
from toolform.catalogue.figures import nearest_count
from toolform.catalogue.retrieval import check_catalogue_size
from toolform.errors import BadRequest, PayloadTooLarge, UnknownFormat

from support.paths import TOOLFORM

EVIDENCE = TOOLFORM / "src" / "toolform" / "evidence_data"


def tool(name: str, description: str | None = None, params: dict[str, Any] | None = None) -> dict[str, Any]:
    function: dict[str, Any] = {"name": name, "parameters": {"type": "object", "properties": params or {}}}
    if description is not None:
        function["description"] = description
    return {"type": "function", "function": function}


def openai(*tools: dict[str, Any]) -> dict[str, Any]:
    return {"source": "openai", "payload": list(tools)}


WEATHER = openai(
    tool(
        "get_weather",
        "Get the current weather forecast for a city.",
        {"city": {"type": "string", "description": "City name"}, "units": {"type": "string", "enum": ["c", "f"]}},
    ),
    tool(
        "searchMaps",
        "Find places on a map near a location.",
        {"query": {"type": "string"}, "nearLocation": {"type": "string", "description": "where to look"}},
    ),
    tool(
        "send_email2",
        "Send an email message to a recipient.",
        {"to": {"type": "string"}, "body": {"type": "string"}},
    ),
)


def test_scores_are_the_references_on_a_small_catalogue() -> None:
    # The reference's answer for this catalogue and query, to six decimals.
    ranked = retrieve(WEATHER, "What is the weather in Paris tomorrow?").ranked
    assert ranked == [("get_weather", 2.315389), ("searchMaps", 0.0), ("send_email2", 0.0)]


@pytest.mark.parametrize(
    ("n_tools", "n_with_word", "score"),
    [(2, 1, 0.693147), (2, 2, 0.182322), (3, 2, 0.470004), (6, 1, 1.540445), (6, 6, 0.074108)],
)
def test_idf_is_lucenes(n_tools: int, n_with_word: int, score: float) -> None:
    names = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]
    tools = [tool(names[i], "zeta" if i < n_with_word else "omega") for i in range(n_tools)]
    assert retrieve(openai(*tools), "zeta").ranked[0] == ("alpha", score)


def test_term_frequency_and_length_use_k1_1_5_and_b_0_75() -> None:
    assert retrieve(openai(tool("alpha", "zeta zeta"), tool("bravo", "omega omega")), "zeta").ranked[0][1] == 0.99021
    longer = openai(tool("alpha", "zeta"), tool("bravo", "omega omega omega"))
    assert retrieve(longer, "zeta").ranked[0][1] == 0.815467
    # A repeated query word counts twice.
    assert retrieve(openai(tool("alpha"), tool("bravo")), "alpha alpha").ranked[0][1] == 1.386294


def test_the_document_is_names_descriptions_and_top_level_parameters() -> None:
    params = {
        "cityName": {"type": "string", "description": "The town wanted", "enum": ["parisenum"]},
        "opts": {"type": "object", "properties": {"nestedProp": {"type": "string", "description": "deep"}}},
    }
    catalogue = openai(tool("zz", None, params), tool("filler"))
    found = {word: retrieve(catalogue, word).ranked[0] for word in ("cityname", "town", "opts", "zz")}
    assert all(name == "zz" and score > 0 for name, score in found.values())
    for absent in ("city", "parisenum", "nestedprop", "deep", "string", "object"):
        assert retrieve(catalogue, absent).ranked[0][1] == 0.0


def test_words_are_the_references_unless_identifiers_are_split() -> None:
    assert words("getWeatherForecast2Day get_weather café") == ["getweatherforecast2day", "get", "weather", "caf"]
    assert words("getHTTPServer2Day_v3", split_identifiers=True) == ["get", "http", "server", "2", "day", "v", "3"]
    camel = openai(tool("getWeather"), tool("sendMail"))
    assert retrieve(camel, "weather").ranked[0][1] == 0.0
    assert retrieve(camel, "weather", split_identifiers=True).ranked[0] == ("getWeather", 0.693147)


def test_the_index_words_are_the_regular_expressions_words() -> None:
    from toolform.catalogue.tokens import word_bytes

    rng = random.Random(1)
    alphabet = "aZ9_ -.éİKßﬁ東\u212a\U0001f600xYq\ud800"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        for split in (False, True):
            assert [word.decode() for word in word_bytes(text, split)] == words(text, split), text


def test_ties_keep_the_catalogues_order() -> None:
    ranked = retrieve(openai(tool("zulu"), tool("bravo"), tool("alpha")), "nothing").ranked
    assert [name for name, _ in ranked] == ["zulu", "bravo", "alpha"]
    assert [n for n, _ in retrieve(openai(tool("bravo"), tool("alpha")), "alpha bravo").ranked] == ["bravo", "alpha"]


def test_keep_and_k_as_the_reference_has_them() -> None:
    catalogue = openai(tool("alpha", "first zeta"), tool("bravo", "second zeta"), tool("charlie", "third"))
    assert retrieve(catalogue, "zeta", k=2, keep=["charlie"]).selected == ["alpha", "charlie"]
    longer_keep = retrieve(catalogue, "zeta", k=1, keep=["charlie", "bravo"])
    assert (longer_keep.selected, longer_keep.k) == (["bravo", "charlie"], 2)
    assert retrieve(catalogue, "zeta", k=10).k == 3
    answer = retrieve(catalogue, "zeta", k=1)
    assert answer.selected == ["alpha"] and [t.name for t in answer.tools or []] == ["alpha"]
    with pytest.raises(BadRequest, match="no tool named 'nosuch'"):
        retrieve(catalogue, "zeta", keep=["nosuch"])
    with pytest.raises(BadRequest, match="k must be"):
        retrieve(catalogue, "zeta", k=0)


def test_the_index_matches_a_direct_computation() -> None:
    documents = [["a", "b", "a"], ["b", "c"], ["c", "c", "c", "d"], []]
    index = BM25Index(documents)
    average = sum(map(len, documents)) / len(documents)

    def direct(doc: list[str], query: list[str]) -> float:
        total = 0.0
        for word in query:
            n = sum(word in d for d in documents)
            tf = doc.count(word)
            if n and tf:
                idf = math.log(1 + (len(documents) - n + 0.5) / (n + 0.5))
                total += idf * tf * 2.5 / (tf + 1.5 * (0.25 + 0.75 * len(doc) / average))
        return total

    for query in (["a"], ["c", "d"], ["b", "b", "z"], []):
        assert index.scores(query) == pytest.approx([direct(d, query) for d in documents], abs=1e-12)


def test_the_top_k_are_the_full_rankings_first_k_ties_included() -> None:
    rng = random.Random(5)
    vocabulary = ["a", "b", "c", "d", "e"]
    for _ in range(200):
        documents = [rng.choices(vocabulary, k=rng.randint(0, 4)) for _ in range(rng.randint(1, 12))]
        index = BM25Index(documents)
        query = rng.choices(vocabulary, k=rng.randint(0, 3))
        full = index.ranking(query)
        pairs = zip(full, full[1:], strict=False)
        assert all(s1 > s2 or (s1 == s2 and d1 < d2) for (d1, s1), (d2, s2) in pairs)
        for k in range(1, len(documents) + 2):
            assert index.ranking(query, k) == full[:k]


def test_a_catalogue_is_indexed_once_and_asked_many_times() -> None:
    catalogue = Catalogue(WEATHER)
    first = catalogue.retrieve("email")
    assert first.selected[0] == "send_email2" and catalogue.retrieve("map").selected[0] == "searchMaps"


def test_the_catalogue_limit_is_ours_and_refused_in_the_references_words() -> None:
    check_catalogue_size(MAX_CATALOGUE_TOOLS)
    with pytest.raises(PayloadTooLarge, match=r"100,001 tools; the limit is 100,000"):
        check_catalogue_size(MAX_CATALOGUE_TOOLS + 1)


def test_nearest_count_is_log_nearest_and_the_larger_at_a_tie() -> None:
    sizes = [4, 16, 64, 256]
    assert [nearest_count(n, sizes) for n in (1, 7, 8, 31, 32, 127, 128, 5000)] == [4, 4, 16, 16, 64, 64, 256, 256]


def _advisor_cases() -> list[dict[str, Any]]:
    path = EVIDENCE / "advisor_cases.json"
    if not path.exists():
        pytest.skip("the study's evidence is not installed (make toolform-evidence)")
    cases: list[dict[str, Any]] = json.loads(path.read_text())["data"]["cases"]
    return cases


def test_the_strategy_and_its_reason_match_every_advisor_case() -> None:
    cases = _advisor_cases()
    for case in cases:
        situation, expected = case["situation"], case["expected"]
        choice = catalogue_strategy(
            situation["n_tools"],
            expected["schema_tokens"],
            situation.get("context_tokens"),
            situation.get("token_budget"),
        )
        assert (choice.strategy, choice.reason) == (expected["catalogue_strategy"], expected["catalogue_reason"])
    assert len(cases) == 382


def test_every_figure_a_reason_quotes_is_labelled_evidence() -> None:
    for n_tools, tokens, context in ((3, 200, None), (40, 3000, None), (300, 20000, None), (8, 2836, 400)):
        choice = catalogue_strategy(n_tools, tokens, context)
        assert choice.evidence and all(f.source.startswith("paper:") for f in choice.evidence)
        for figure in choice.evidence:
            assert f"{abs(figure.value):.2f}%" in choice.reason or figure.label.startswith("names and")


def test_plan_carries_a_ranking_or_the_first_stage_with_a_query() -> None:
    few = plan(WEATHER, query="weather")
    assert (few.strategy, few.retrieval, few.selection_messages) == ("one_shot", None, None)
    forty = openai(*(tool(f"tool_{i}", f"widget item{i}") for i in range(40)))
    retrieval = plan(forty, query="widget item1", k=2)
    assert retrieval.strategy == "retrieve" and retrieval.retrieval is not None
    assert retrieval.retrieval.selected[0] == "tool_1" and retrieval.to_dict()["retrieval"]["tools"] is None  # type: ignore[index]
    staged = plan(WEATHER, budget_tokens=10, query="weather")
    assert staged.strategy == "two_stage" and staged.selection_messages is not None
    assert plan(WEATHER, budget_tokens=10, query="").selection_messages is None


def test_plan_refuses_what_the_reference_refuses() -> None:
    with pytest.raises(BadRequest, match="names_then_schema is a two-stage format"):
        plan(WEATHER, format_id="names_then_schema")
    with pytest.raises(UnknownFormat):
        plan(WEATHER, format_id="nope")
    with pytest.raises(BadRequest, match="context_tokens"):
        plan(WEATHER, context_tokens=0)


def test_the_two_stage_prompt_is_the_references() -> None:
    prompt = two_stage_prompt(WEATHER, "What is the weather?", include_descriptions=False)
    system, user = (message["content"] for message in prompt.messages)
    assert system.startswith("You are an assistant that completes user requests by calling tools.")
    assert "Available tools:\n- get_weather\n- searchMaps\n- send_email2\n\nRespond with a single JSON object" in system
    assert user == (
        "What is the weather?\n\nFirst step: reply with the exact name of the one tool you would use for this "
        "request, and nothing else. You will be shown that tool's full definition next."
    )
    assert prompt.selection_format == "names_then_schema_v2"
    assert prompt.tokens_estimate == round((len(system) + 1 + len(user)) / 4)
    described = TwoStage(WEATHER).prompt("x")
    assert "- get_weather: Get the current weather forecast for a city\n" in described.messages[0]["content"]
