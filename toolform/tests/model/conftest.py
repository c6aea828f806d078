"""The local model server, started once for the tests that measure it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.local_model import LocalModel


@pytest.fixture(scope="session")
def local_model() -> Iterator[LocalModel]:
    """The local llama.cpp model server (`make model-serve`'s), on a port of its own for the session."""
    with LocalModel() as model:
        yield model
