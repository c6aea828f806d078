"""The dashboard in a real headless Chromium against a real `toolform serve`; the fixtures are in conftest.py."""
