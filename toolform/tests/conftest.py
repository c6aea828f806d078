"""Servers shared by the tests: ours with the fetched evidence, and the reference."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from serving import OUR_TOOLFORM, REFERENCE_TOOLFORM, Server


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
