"""The advisor: which format and protocol to show a model its tools in, from the study's evidence
(or a measurement this installation made), with every figure's source.

>>> from toolform.advisor import Situation, advise, recommend
>>> recommend(open_evidence(), Situation(model="Qwen/Qwen3-8B", n_tools=8, tier=3)).format_id
'xml_schema'
>>> advise(open_evidence(), {"family": "qwen3"}, tools=load_tools("openai", payload), store=open_store()).basis
"""

from toolform.advisor.advise import advise
from toolform.advisor.recommend import Recommendation, recommend
from toolform.advisor.resolve import Resolution, resolve
from toolform.advisor.situation import Situation

__all__ = ["Recommendation", "Resolution", "Situation", "advise", "recommend", "resolve"]
