"""Rendering (toolform.render): the formats and protocols' instructions, the reference's render fixtures, and the
JSON and YAML writers the formats use.
"""
