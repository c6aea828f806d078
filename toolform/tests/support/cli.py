"""The `toolform` command of this checkout, run as a user runs it: no TOOLFORM_ variable of the caller's."""

from __future__ import annotations

import os
import subprocess

from support.serving import OUR_TOOLFORM


def toolform(*arguments: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``toolform ARGUMENTS`` with ``env`` added to the caller's environment less its TOOLFORM_ variables."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("TOOLFORM_")}
    environment.update(env or {})
    return subprocess.run(
        [str(OUR_TOOLFORM), *arguments], capture_output=True, text=True, env=environment, timeout=60, check=False
    )
