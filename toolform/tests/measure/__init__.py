"""Measurement (toolform.measure, ab-test) through the SDK against the scripted endpoint, the generated tasks,
and that endpoint itself.
"""
