"""Shared by the tests: the study's evidence, our server with it, the reference's, and the local model."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from local_model import LocalModel
from serving import OUR_TOOLFORM, REFERENCE_TOOLFORM, Server
from toolform.evidence import Evidence, open_evidence


@pytest.fixture(scope="session")
def evidence() -> Evidence:
    """The study's evidence `make toolform-evidence` fetched (or TOOLFORM_STUDY_DIR's), opened once and checked."""
    opened = open_evidence()
    assert opened.status == "ok", opened.detail
    return opened


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
