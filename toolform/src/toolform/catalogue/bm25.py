"""Okapi BM25 over a fixed set of documents, built once and queried many times.

Parameters are the reference's, found by running it: k1 = 1.5, b = 0.75, and
Lucene's idf, ln(1 + (N - n + 0.5) / (n + 0.5)), which stays positive when a word
is in every document. Each word's postings hold its documents and the part of the
score that does not depend on the query (tf (k1 + 1) / (tf + k1 (1 - b + b dl/avgdl))),
as flat arrays, so a query is one multiply-add per posting.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Sequence

K1 = 1.5
B = 0.75


class BM25Index:
    """BM25 scores of documents (lists of words) against queries (lists of words)."""

    __slots__ = ("_doc_ids", "_idf", "_vocabulary", "_weights", "size")

    def __init__(self, documents: Sequence[Sequence[str]], k1: float = K1, b: float = B) -> None:
        self.size = len(documents)
        lengths = [len(words) for words in documents]
        average = (sum(lengths) / self.size) if self.size else 0.0
        vocabulary: dict[str, int] = {}
        doc_ids: list[array[int]] = []
        weights: list[array[float]] = []
        for doc, words in enumerate(documents):
            if not words:
                continue
            norm = k1 * (1.0 - b + b * lengths[doc] / average)
            for word, tf in Counter(words).items():
                term = vocabulary.get(word)
                if term is None:
                    term = vocabulary[word] = len(doc_ids)
                    doc_ids.append(array("l"))
                    weights.append(array("d"))
                doc_ids[term].append(doc)
                weights[term].append(tf * (k1 + 1.0) / (tf + norm))
        self._vocabulary = vocabulary
        self._doc_ids = doc_ids
        self._weights = weights
        total = self.size
        self._idf = array("d", (math.log(1.0 + (total - len(ids) + 0.5) / (len(ids) + 0.5)) for ids in doc_ids))

    def scores(self, query: Sequence[str]) -> list[float]:
        """Each document's score, in document order; a word the documents lack adds nothing."""
        scores = [0.0] * self.size
        for word in query:
            term = self._vocabulary.get(word)
            if term is None:
                continue
            idf = self._idf[term]
            for doc, weight in zip(self._doc_ids[term], self._weights[term], strict=True):
                scores[doc] += idf * weight
        return scores

    def ranking(self, query: Sequence[str]) -> list[tuple[int, float]]:
        """(document, score) best first; equal scores keep the documents' order, as the reference does."""
        scores = self.scores(query)
        order = sorted(range(self.size), key=scores.__getitem__, reverse=True)
        return [(doc, scores[doc]) for doc in order]
