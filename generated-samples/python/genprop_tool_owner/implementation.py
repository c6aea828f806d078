"""The implementation of the p0 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import flow_toolkit

from . import models
from .tools import P0Tools


class Implementation(P0Tools):
    """The Tools' bodies."""

    def tool(
        self,
        big: models.BigCase0WithAName[int] | models.BigCase1WithAName | models.BigCase2WithAName[int] | models.BigCase3WithAName | models.BigCase4WithAName[int] | models.BigCase5WithAName | models.BigCase6WithAName[int] | models.BigCase7WithAName | models.BigCase8WithAName[int] | models.BigCase9WithAName | models.BigCase10WithAName[int] | models.BigCase11WithAName | models.BigCase12WithAName[int] | models.BigCase13WithAName | models.BigCase14WithAName[int] | models.BigCase15WithAName | models.BigCase16WithAName[int] | models.BigCase17WithAName | models.BigCase18WithAName[int] | models.BigCase19WithAName | models.BigCase20WithAName[int] | models.BigCase21WithAName | models.BigCase22WithAName[int] | models.BigCase23WithAName | models.BigCase24WithAName[int] | models.BigCase25WithAName | models.BigCase26WithAName[int] | models.BigCase27WithAName | models.BigCase28WithAName[int] | models.BigCase29WithAName | models.BigCase30WithAName[int] | models.BigCase31WithAName | models.BigCase32WithAName[int] | models.BigCase33WithAName | models.BigCase34WithAName[int] | models.BigCase35WithAName | models.BigCase36WithAName[int] | models.BigCase37WithAName | models.BigCase38WithAName[int] | models.BigCase39WithAName | models.BigCase40WithAName[int] | models.BigCase41WithAName | models.BigCase42WithAName[int] | models.BigCase43WithAName | models.BigCase44WithAName[int] | models.BigCase45WithAName | models.BigCase46WithAName[int] | models.BigCase47WithAName | models.BigCase48WithAName[int] | models.BigCase49WithAName,  # noqa: E501
        pair: models.Pair[str, flow_toolkit.JsonValue],
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.Pair[int, models.BigCase0WithAName[bool] | models.BigCase1WithAName | models.BigCase2WithAName[bool] | models.BigCase3WithAName | models.BigCase4WithAName[bool] | models.BigCase5WithAName | models.BigCase6WithAName[bool] | models.BigCase7WithAName | models.BigCase8WithAName[bool] | models.BigCase9WithAName | models.BigCase10WithAName[bool] | models.BigCase11WithAName | models.BigCase12WithAName[bool] | models.BigCase13WithAName | models.BigCase14WithAName[bool] | models.BigCase15WithAName | models.BigCase16WithAName[bool] | models.BigCase17WithAName | models.BigCase18WithAName[bool] | models.BigCase19WithAName | models.BigCase20WithAName[bool] | models.BigCase21WithAName | models.BigCase22WithAName[bool] | models.BigCase23WithAName | models.BigCase24WithAName[bool] | models.BigCase25WithAName | models.BigCase26WithAName[bool] | models.BigCase27WithAName | models.BigCase28WithAName[bool] | models.BigCase29WithAName | models.BigCase30WithAName[bool] | models.BigCase31WithAName | models.BigCase32WithAName[bool] | models.BigCase33WithAName | models.BigCase34WithAName[bool] | models.BigCase35WithAName | models.BigCase36WithAName[bool] | models.BigCase37WithAName | models.BigCase38WithAName[bool] | models.BigCase39WithAName | models.BigCase40WithAName[bool] | models.BigCase41WithAName | models.BigCase42WithAName[bool] | models.BigCase43WithAName | models.BigCase44WithAName[bool] | models.BigCase45WithAName | models.BigCase46WithAName[bool] | models.BigCase47WithAName | models.BigCase48WithAName[bool] | models.BigCase49WithAName]:  # noqa: E501
        raise NotImplementedError("tool")
