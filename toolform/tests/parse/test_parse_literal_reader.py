"""The literal reader's regular-expression runs read exactly as its character-by-character loops did.

``_CharReader`` below is the reader as it was (each space and each character of a
string read in turn); on seeded texts of quotes, escapes, doubled quotes, lists,
objects, words and numbers, both must give the same values, raise on the same
texts and stop at the same place.
"""

from __future__ import annotations

import random
from typing import Any

from toolform.parse.protocols.literal_reader import LiteralReader


class _CharReader(LiteralReader):
    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n,":
            self.pos += 1

    def string(self) -> str:
        quote = self.text[self.pos]
        self.pos += 1
        out: list[str] = []
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch == "\\" and quote == '"' and self.pos + 1 < len(self.text):
                escaped = self.text[self.pos + 1]
                out.append({"n": "\n", "t": "\t"}.get(escaped, escaped))
                self.pos += 2
                continue
            if ch == quote:
                if quote == "'" and self.text[self.pos + 1 : self.pos + 2] == "'":
                    out.append("'")
                    self.pos += 2
                    continue
                self.pos += 1
                return "".join(out)
            out.append(ch)
            self.pos += 1
        raise ValueError("unterminated string")


PIECES = [
    '"', "'", "''", "\\", '\\"', "\\n", "\\t", "\\x", "a", "Denver", " ", ",", "\t", "\n", "[", "]", "(", ")", "{",
    "}", ":", "=", "3", "-2.5", "1e3", "true", "nil", "t", "null", "東京", "key",
]  # fmt: skip


def _read(reader: LiteralReader, rng: random.Random) -> list[Any]:
    """Values read until the text ends or a read fails, with what stopped it and where."""
    found: list[Any] = []
    for _ in range(6):
        try:
            if rng.random() < 0.3:
                found.append(("word", reader.word()))
            else:
                found.append(reader.value("(", ")") if rng.random() < 0.3 else reader.value())
        except (ValueError, IndexError) as error:
            found.append((type(error).__name__, str(error), reader.pos))
            break
        found.append(reader.pos)
    return found


def test_the_reader_reads_as_the_character_loops() -> None:
    rng = random.Random(41)
    for _ in range(20_000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))
        quotes = rng.choice(["\"'", '"', "'"])
        seed = rng.random()
        ours = _read(LiteralReader(text, quotes), random.Random(seed))
        loops = _read(_CharReader(text, quotes), random.Random(seed))
        assert repr(ours) == repr(loops), (text, quotes)
