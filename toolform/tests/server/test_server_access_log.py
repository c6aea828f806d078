"""The lean access formatter writes uvicorn's own access lines, character for character."""

from __future__ import annotations

import logging
import random

import pytest
from toolform.server.access_log import ACCESS_FORMAT, LeanAccessFormatter, log_config
from uvicorn.logging import AccessFormatter

_ADDRESSES = ["127.0.0.1:5000", "[::1]:80", "", "10.0.0.2:65535", "%s:1"]
_METHODS = ["GET", "POST", "DELETE", "OPTIONS", "PÖST"]
_PATHS = ["/api/v1/parse", "/", "/a b?x=%41&y=\"q\"", "/é/東京", "/%(levelname)s", "/%%"]
_STATUSES = [200, 201, 204, 301, 400, 404, 413, 422, 500, 503, 101, 418, 599, 999, 0]
_LEVELS = [logging.INFO, logging.WARNING, logging.ERROR, logging.DEBUG, logging.CRITICAL, 5, 25]


def _record(rng: random.Random) -> logging.LogRecord:
    args = (rng.choice(_ADDRESSES), rng.choice(_METHODS), rng.choice(_PATHS), rng.choice(["1.1", "1.0", "2"]),
            rng.choice(_STATUSES))  # fmt: skip
    return logging.LogRecord("uvicorn.access", rng.choice(_LEVELS), __file__, 1, '%s - "%s %s HTTP/%s" %d', args, None)


@pytest.mark.parametrize("colours", [False, True])
def test_lines_are_uvicorns(colours: bool) -> None:
    rng = random.Random(3)
    lean = LeanAccessFormatter(ACCESS_FORMAT, use_colors=colours)
    uvicorns = AccessFormatter(ACCESS_FORMAT, use_colors=colours)
    for _ in range(2000):
        record = _record(rng)
        assert lean.format(record) == uvicorns.format(record)


def test_other_formats_and_records_are_left_to_uvicorn() -> None:
    other = "%(levelname)s %(client_addr)s %(status_code)s"
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, "%s %s %s %s %d", ("a", "b", "c", "d", 200),
                               None)  # fmt: skip
    lean, uvicorns = LeanAccessFormatter(other, use_colors=False), AccessFormatter(other, use_colors=False)
    assert lean.format(record) == uvicorns.format(record)
    coloured = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                                 ("a:1", "GET", "/", "1.1", 200), None)  # fmt: skip
    coloured.color_message = "in colour %s %s %s %s %d"
    assert LeanAccessFormatter(ACCESS_FORMAT, use_colors=False).format(coloured) == AccessFormatter(
        ACCESS_FORMAT, use_colors=False
    ).format(coloured)


def test_the_server_configuration_is_uvicorns_with_the_lean_formatter() -> None:
    from uvicorn.config import LOGGING_CONFIG

    config = log_config()
    assert config["formatters"]["access"]["()"] is LeanAccessFormatter
    config["formatters"]["access"]["()"] = LOGGING_CONFIG["formatters"]["access"]["()"]
    assert config == LOGGING_CONFIG
