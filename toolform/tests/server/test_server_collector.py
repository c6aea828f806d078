"""The server's collector settings: applied, and what was held at startup frozen."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from toolform.server.collector import MIDDLE_RATIO, OLD_RATIO, YOUNG_THRESHOLD, tune_for_serving


@pytest.fixture
def restored() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


@pytest.mark.usefixtures("restored")
def test_tuning_sets_the_thresholds_and_freezes_what_is_held() -> None:
    held = [object() for _ in range(10)]  # noqa: F841 - held so that something is frozen
    tune_for_serving()
    assert gc.get_threshold() == (YOUNG_THRESHOLD, MIDDLE_RATIO, OLD_RATIO)
    assert gc.get_freeze_count() > 0


@pytest.mark.usefixtures("restored")
def test_cycles_are_still_collected() -> None:
    tune_for_serving()

    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a
    del a, b
    assert gc.collect() >= 2
