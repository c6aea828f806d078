"""The study's evidence this version of ToolForm was built against, and where it comes from.

The evidence is published inside the reference implementation's wheel on the
Python package registry; the wheel's sha256 pins exactly which bytes we accept.
"""

from __future__ import annotations

#: The requirement the setup downloads (``pip download ... --no-deps``).
REFERENCE_REQUIREMENT = "toolform==0.0.1"
#: The wheel file that requirement resolves to, and its sha256.
REFERENCE_WHEEL = "toolform-0.0.1-py3-none-any.whl"
REFERENCE_WHEEL_SHA256 = "f39c1f060198e74b0fbc2ea479441107accff91f50582211225daaaac2a0adb8"
#: The folder inside the wheel that holds the evidence and its manifest.
WHEEL_DATA_DIR = "toolform/advisor/data/"
#: The evidence version that wheel carries, and the sha256 of its manifest.json.
EVIDENCE_VERSION = "2026-09-25.3"
MANIFEST_SHA256 = "3379ff1a4507b54e0d36801ce851975141cc0748d33fe72fb05b4ff729477784"
