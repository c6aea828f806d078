"""BM25 scores of one query against documents that have no index: what a catalogue seen once needs.

A catalogue sent with one request is ranked once. Building its index (every word
of every document given an id, every posting sorted) costs more than the ranking;
this scores the query's words alone, from the documents' text: each document's
length in words, and each query word's count in each document, found by numpy
comparisons over the documents' translated bytes. The arithmetic is BM25Index's, in the same
order, on the same numbers, so the scores are the index's to the last bit
(``test_catalogue_one_query.py`` holds the two together).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from toolform.catalogue.bm25 import K1, B, Scores, ranked_documents
from toolform.catalogue.tokens import _IDENTIFIER_EDGE, _NOT_WORD

#: What separates two documents in the joined text: a byte no word holds, kept by the translation.
BREAK = "\x00"
_KEEP_BREAK = b"\x00" + _NOT_WORD[1:]
_SPACE = 0x20
_WORD = re.compile(rb"[a-z0-9]+")


class OneQuery:
    """Documents' text, ready to score queries without an index (``ranked`` as BM25Index has it).

    Built only when no document holds the break byte (``OneQuery.of`` says None otherwise).
    """

    __slots__ = ("_array", "_ends", "_ends_word", "_norm", "_starts_word", "size")

    def __init__(
        self,
        array: npt.NDArray[np.uint8],
        in_word: npt.NDArray[np.bool_],
        ends: npt.NDArray[np.int64],
        lengths: npt.NDArray[np.int64],
    ) -> None:
        self._array = array
        # A place where a word may start (no word byte before it) and where one may end (none after).
        self._starts_word = np.concatenate(([True], ~in_word[:-1]))
        self._ends_word = np.concatenate((~in_word[1:], [True]))
        self._ends = ends
        self.size = size = len(lengths)
        # As BM25Index computes them, from the same lengths.
        average = float(lengths.mean()) if size and lengths.any() else 1.0
        self._norm = K1 * (1.0 - B + B * lengths / average)

    @classmethod
    def of(cls, documents: Sequence[str], split_identifiers: bool = False) -> OneQuery | None:
        """The documents ready to score, or None when one of them holds the break byte."""
        joined = BREAK.join(documents)
        if not documents or joined.count(BREAK) != len(documents) - 1:
            return None
        return cls.of_joined(joined, len(documents), split_identifiers)

    @classmethod
    def of_joined(cls, joined: str, count: int, split_identifiers: bool = False) -> OneQuery:
        """``of`` for ``count`` documents already joined, each pair apart by BREAK (and any spaces, tabs
        or newlines around it); the caller makes sure that no document holds BREAK itself."""
        if split_identifiers:
            joined = _IDENTIFIER_EDGE.sub(" ", joined)
        data = joined.lower().encode("utf-8", "surrogatepass").translate(_KEEP_BREAK)
        array = np.frombuffer(data, dtype=np.uint8)
        breaks = np.flatnonzero(array == 0)
        # Each document's words: the starts of runs of word bytes, counted by the document they fall in.
        in_word = (array != _SPACE) & (array != 0)
        starts = np.flatnonzero(in_word[1:] & ~in_word[:-1]) + 1
        if in_word.size and in_word[0]:
            starts = np.concatenate(([0], starts))
        lengths = np.bincount(np.searchsorted(breaks, starts), minlength=count).astype(np.int64)
        return cls(array, in_word, breaks.astype(np.int64), lengths)

    def _postings(self, word: bytes) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The documents holding ``word`` (ascending) and how many times each holds it."""
        array, width = self._array, len(word)
        places = array.size - width + 1
        if places <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        # Where the word's bytes are, one comparison per byte of it over the whole text, at a word's start
        # and ending at a word's end.
        match = self._starts_word[:places] & self._ends_word[width - 1 :]
        for offset, byte in enumerate(word):
            match &= array[offset : offset + places] == byte
        docs, tf = np.unique(np.searchsorted(self._ends, np.flatnonzero(match)), return_counts=True)
        return docs.astype(np.int64), tf.astype(np.int64)

    def score_vector(self, query: Sequence[bytes]) -> Scores:
        """Each document's score, as BM25Index.score_vector gives it."""
        found: dict[bytes, tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]] = {}
        for word in dict.fromkeys(query):
            if not _WORD.fullmatch(word):
                continue  # no document holds it: the index has no such word
            docs, tf = self._postings(word)
            if docs.size:
                frequency = tf.astype(np.float64)
                found[word] = (docs, frequency)
        if not found:
            return np.zeros(self.size, dtype=np.float64)
        # The idf of every word found, computed together as the index computes all of its own.
        counts = np.array([docs.size for docs, _ in found.values()], dtype=np.int64)
        idf = np.log(1.0 + (self.size - counts + 0.5) / (counts + 0.5))
        shares = {
            word: idf[i] * (frequency * (K1 + 1.0) / (frequency + self._norm[docs]))
            for i, (word, (docs, frequency)) in enumerate(found.items())
        }
        present = [word for word in query if word in found]
        docs_all = np.concatenate([found[word][0] for word in present])
        shares_all = np.concatenate([shares[word] for word in present])
        scores: Scores = np.bincount(docs_all, weights=shares_all, minlength=self.size).astype(np.float64, copy=False)
        return scores

    def ranked(self, query: Sequence[bytes], k: int | None = None) -> tuple[list[int], list[float]]:
        """``BM25Index.ranked`` for these documents."""
        return ranked_documents(self.score_vector(query), k)
