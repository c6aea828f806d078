"""Ours against the reference on generated and hand-written inputs, whole answers compared; each difference we
mean is named in support/ (differences.py and the area's *_differences.py).
"""
