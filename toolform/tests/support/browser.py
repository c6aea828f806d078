"""Debian's Chromium, driven by Playwright, on pages of a loopback server only.

The browser is the system's (`make toolform-browser` installs Debian's
``chromium``); Playwright never downloads one. Every request the page makes is
intercepted: one to any origin but the server's is refused and recorded, and
the test fails on it, as it does on any console error or uncaught exception.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, Route, sync_playwright

CHROMIUM = Path(os.environ.get("TOOLFORM_CHROMIUM", "/usr/bin/chromium"))

#: How Chromium reports an HTTP error answer in the console; a test that provokes one expects it.
FAILED_RESOURCE = re.compile(r"Failed to load resource: the server responded with a status of (\d{3})")


@contextmanager
def chromium() -> Iterator[Browser]:
    """Headless Chromium from the system, with no network beyond what the page's routes allow."""
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} does not exist; run `make toolform-browser` (Debian's chromium package)")
    with sync_playwright() as playwright:
        browser = _launch(playwright)
        try:
            yield browser
        finally:
            browser.close()


def _launch(playwright: Playwright) -> Browser:
    # Root in a container has no user namespace for Chromium's sandbox.
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"])


@dataclass
class Audit:
    """What a page did that a test must see: requests elsewhere, console errors, uncaught exceptions."""

    origin: str
    outside: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)

    def http_errors(self) -> list[int]:
        """The statuses of the HTTP error answers the console reported."""
        return [int(match[1]) for text in self.console_errors if (match := FAILED_RESOURCE.search(text))]

    def other_console_errors(self) -> list[str]:
        return [text for text in self.console_errors if not FAILED_RESOURCE.search(text)]


@contextmanager
def audited_page(browser: Browser, origin: str) -> Iterator[tuple[Page, Audit]]:
    """A fresh page whose every request is checked against ``origin`` (``http://127.0.0.1:PORT``)."""
    audit = Audit(origin)
    context = browser.new_context(viewport={"width": 1100, "height": 900}, service_workers="block")
    expected = urlsplit(origin)

    def guard(route: Route) -> None:
        url = urlsplit(route.request.url)
        if (url.scheme, url.hostname, url.port) == (expected.scheme, "127.0.0.1", expected.port):
            route.continue_()
        else:
            audit.outside.append(route.request.url)
            route.abort("blockedbyclient")

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            audit.console_errors.append(message.text)

    context.route("**/*", guard)
    page = context.new_page()
    page.on("console", console)
    page.on("pageerror", lambda error: audit.exceptions.append(str(error)))
    try:
        yield page, audit
    finally:
        context.close()
