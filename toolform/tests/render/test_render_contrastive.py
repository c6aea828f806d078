"""The contrastive format's nearest tool, found for all tools at once, is the one ``nearest`` finds for each."""

from __future__ import annotations

import pytest
from toolform.render.families.novel import _nearest_each, nearest
from toolform.render.toolsets import tools_of

from support import toolsets
from toolform import loaders


@pytest.mark.parametrize("seed", range(40))
def test_nearest_each_is_nearest(seed: int) -> None:
    tools = tools_of(loaders.load("openai", toolsets.openai_list(toolsets.tool_set(seed, 2 + seed % 9))).toolset)
    assert _nearest_each(tools) == [nearest(t, [o for o in tools if o is not t]) for t in tools]
