"""Servers shared by the tests: ours with the fetched evidence, and the reference."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.local_model import LocalModel
from support.serving import OUR_TOOLFORM, REFERENCE_TOOLFORM, Server


@pytest.fixture(scope="session")
def ours() -> Iterator[Server]:
    """`toolform serve` from this checkout, reading the evidence `make toolform-evidence` fetched."""
    with Server(OUR_TOOLFORM) as server:
        yield server


@pytest.fixture(scope="session")
def reference() -> Iterator[Server]:
    """The reference's `toolform serve`, from its own venv."""
    with Server(REFERENCE_TOOLFORM) as server:
        yield server


@pytest.fixture(scope="session")
def local_model() -> Iterator[LocalModel]:
    """The local llama.cpp model server (`make model-serve`'s), on a port of its own for the session."""
    with LocalModel() as model:
        yield model
