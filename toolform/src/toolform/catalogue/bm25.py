"""Okapi BM25 over a fixed set of documents, built once and queried many times.

Parameters are the reference's, found by running it: k1 = 1.5, b = 0.75, and
Lucene's idf, ln(1 + (N - n + 0.5) / (n + 0.5)), which stays positive when a word
is in every document. The index is compressed-sparse by word: one flat array of
documents and one of each posting's share of the score, idf * tf (k1 + 1) /
(tf + k1 (1 - b + b dl/avgdl)), both grouped by word, so a query adds one slice
per word into a score vector and a ranking is one stable sort.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import numpy.typing as npt

K1 = 1.5
B = 0.75

Scores = npt.NDArray[np.float64]


class BM25Index:
    """BM25 scores of documents (lists of words) against queries (lists of words).

    Words are any hashable values, compared as they are (the catalogue gives ASCII bytes).
    """

    __slots__ = ("_contributions", "_docs", "_offsets", "_vocabulary", "size")

    def __init__(self, documents: Sequence[Sequence[Hashable]], k1: float = K1, b: float = B) -> None:
        self.size = size = len(documents)
        vocabulary: dict[Hashable, int] = {}
        add = vocabulary.setdefault
        # Each word's id, in reading order (a new word takes the next id).
        flat = [add(word, len(vocabulary)) for words in documents for word in words]
        lengths = np.fromiter(map(len, documents), dtype=np.int64, count=size)
        doc_of_word = np.repeat(np.arange(size, dtype=np.int64), lengths)
        # One (word, document) pair per posting, sorted by word then document, with its term frequency.
        pairs, tf = np.unique(np.array(flat, dtype=np.int64) * max(size, 1) + doc_of_word, return_counts=True)
        term_of = pairs // max(size, 1)
        doc_of = pairs % max(size, 1)
        average = float(lengths.mean()) if size and lengths.any() else 1.0
        norm = k1 * (1.0 - b + b * lengths / average)
        counts = np.bincount(term_of, minlength=len(vocabulary))
        idf = np.log(1.0 + (size - counts + 0.5) / (counts + 0.5))
        frequency = tf.astype(np.float64)
        self._vocabulary = vocabulary
        self._docs = doc_of
        self._contributions = idf[term_of] * (frequency * (k1 + 1.0) / (frequency + norm[doc_of]))
        self._offsets = np.concatenate(([0], np.cumsum(counts)))

    def score_vector(self, query: Sequence[Hashable]) -> Scores:
        """Each document's score as a vector, in document order; a word the documents lack adds nothing."""
        slices = []
        for word in query:
            term = self._vocabulary.get(word)
            if term is not None:
                slices.append(slice(self._offsets[term], self._offsets[term + 1]))
        if not slices:
            return np.zeros(self.size, dtype=np.float64)
        docs = np.concatenate([self._docs[part] for part in slices])
        shares = np.concatenate([self._contributions[part] for part in slices])
        # bincount adds in input order: each document's words in the query's order, as a loop would.
        scores: Scores = np.bincount(docs, weights=shares, minlength=self.size).astype(np.float64, copy=False)
        return scores

    def scores(self, query: Sequence[Hashable]) -> list[float]:
        """Each document's score, in document order."""
        listed: list[float] = self.score_vector(query).tolist()
        return listed

    def ranking(self, query: Sequence[Hashable], k: int | None = None) -> list[tuple[int, float]]:
        """(document, score) best first, the first ``k`` (all by default); equal scores keep the
        documents' order, as the reference does."""
        documents, scores = self.ranked(query, k)
        return list(zip(documents, scores, strict=True))

    def ranked(self, query: Sequence[Hashable], k: int | None = None) -> tuple[list[int], list[float]]:
        """``ranking`` as two lists, the documents and their scores, without a pair per document."""
        return ranked_documents(self.score_vector(query), k)


def ranked_documents(scores: Scores, k: int | None = None) -> tuple[list[int], list[float]]:
    """Documents best first by ``scores`` and their scores, the first ``k`` (all by default); equal
    scores keep the documents' order, as the reference does."""
    size = len(scores)
    if k is not None and k < size:
        # Every document scoring at least the k-th best, ties included, then a stable sort of those.
        threshold = np.partition(scores, size - k)[size - k]
        candidates = np.flatnonzero(scores >= threshold)
        order = candidates[np.argsort(-scores[candidates], kind="stable")][:k]
    else:
        # Scores are never negative: sort the scored documents, the rest follow in their order.
        scored = np.flatnonzero(scores)
        order = np.concatenate((scored[np.argsort(-scores[scored], kind="stable")], np.flatnonzero(scores == 0.0)))
    return order.tolist(), scores[order].tolist()
