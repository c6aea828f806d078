"""Scores without an index (OneQuery, for a catalogue asked about once) are the index's, to the last bit."""

from __future__ import annotations

import random

import numpy as np
import pytest
from toolform.catalogue import BM25Index, tool_document
from toolform.catalogue.one_query import OneQuery
from toolform.catalogue.retrieval import Catalogue, catalogue_for, catalogue_text
from toolform.catalogue.tokens import word_bytes
from toolform.loaders import load

from support import catalogues

ODD_TEXTS = ["", "   ", "Naïve café 東京 über KELVIN İstanbul ΣΑΣ", "a1b2 getHTTPServer2 e-mail isn't", "x" * 40]


def _documents(seed: int) -> list[str]:
    rng = random.Random(seed)
    size = rng.choice([1, 2, 3, 17, 120, 600])
    documents = [tool_document(tool) for tool in load("openai", catalogues.catalogue(seed, size)).toolset]
    for _ in range(rng.randint(0, 3)):
        documents[rng.randrange(len(documents))] = rng.choice(ODD_TEXTS)
    return documents


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("split", [False, True])
def test_scores_without_an_index_are_the_index_scores(seed: int, split: bool) -> None:
    documents = _documents(seed)
    index = BM25Index([word_bytes(text, split) for text in documents])
    once = OneQuery.of(documents, split)
    assert once is not None
    rng = random.Random(seed)
    for draw in range(8):
        words = catalogues.query(seed * 10 + draw) + rng.choice(["", " get get", " x" * 3, " zzz", " 東京 café"])
        query = word_bytes(words, split)
        # Equal bit for bit, not close: the route's answers must not depend on which one ranked them.
        assert np.array_equal(index.score_vector(query), once.score_vector(query)), words
        assert index.ranked(query) == once.ranked(query)
        assert index.ranked(query, 3) == once.ranked(query, 3)


def test_a_document_holding_the_break_byte_is_left_to_the_index() -> None:
    assert OneQuery.of(["get weather", "a\x00b"]) is None
    assert OneQuery.of([]) is None


def test_a_catalogue_is_scored_once_without_an_index_then_indexed_and_kept() -> None:
    tools = {"source": "openai", "payload": catalogues.catalogue(77, 40)}
    first = catalogue_for(tools)
    second = catalogue_for(tools)
    third = catalogue_for(tools)
    assert isinstance(first.index, OneQuery)
    assert isinstance(second.index, BM25Index)
    assert third.index is second.index
    fresh = Catalogue(tools)
    for seed in range(10):
        query = catalogues.query(seed)
        expected = fresh.retrieve(query, 5).to_dict()
        assert first.retrieve(query, 5).to_dict() == expected == second.retrieve(query, 5).to_dict()


def test_the_catalogue_text_is_the_documents_joined() -> None:
    toolset = load("openai", catalogues.catalogue(5, 30)).toolset
    assert catalogue_text(toolset).split("\n\x00\n") == [tool_document(tool) for tool in toolset]


def test_a_catalogue_whose_prose_holds_the_break_byte_is_answered_from_an_index() -> None:
    payload = catalogues.catalogue(78, 20)
    payload[3]["function"]["description"] = "get the\x00weather"
    tools = {"source": "openai", "payload": payload}
    first = catalogue_for(tools)
    assert isinstance(first.index, BM25Index)
    fresh = Catalogue(tools)
    for seed in range(5):
        query = catalogues.query(seed) + " weather"
        assert first.retrieve(query, 4).to_dict() == fresh.retrieve(query, 4).to_dict()
