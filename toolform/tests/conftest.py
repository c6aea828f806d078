"""Fixtures every folder may use: our server with the fetched evidence, the reference's, and the evidence itself.

Fixtures of one folder live in that folder's conftest.py (dashboard/, model/); helpers
that are not fixtures live in support/.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from toolform.evidence import Evidence, open_evidence

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
def evidence() -> Evidence:
    """The study's evidence `make toolform-evidence` fetched (or TOOLFORM_STUDY_DIR's), opened once and checked."""
    opened = open_evidence()
    assert opened.status == "ok", opened.detail
    return opened
