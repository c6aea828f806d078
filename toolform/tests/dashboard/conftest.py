"""What every browser test uses: a scripted model endpoint, our server measuring against it, and Chromium."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from support.browser import chromium
from support.scripted_endpoint import Answer, Prompt, ScriptedEndpoint
from support.serving import OUR_TOOLFORM, Server


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    """A model that calls no tool, a little late: the examples that expect none are right, the others wrong, and a
    test sees the run while it runs."""

    def script(_: Prompt) -> Answer:
        return Answer("I would not call a tool for this.", delay_s=0.15)

    with ScriptedEndpoint(script, models=("canned-model",)) as chat:
        yield chat


@pytest.fixture(scope="module")
def server(endpoint: ScriptedEndpoint, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`toolform serve` measuring against ``endpoint``, a module's own, so one module's jobs are not another's."""
    # Finished measurements go to a local evidence store of the test's own, not the user's.
    store = tmp_path_factory.mktemp("local-evidence")
    arguments = ["--endpoint", endpoint.base_url, "--endpoint-model", "canned-model", "--evidence-dir", str(store)]
    with Server(OUR_TOOLFORM, arguments) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium through Playwright, one a module; each test opens its own page."""
    # Never one a session: Playwright's sync API holds an event loop running in this thread while
    # it is open, and every later test that calls asyncio.run would fail.
    with chromium() as running:
        yield running
