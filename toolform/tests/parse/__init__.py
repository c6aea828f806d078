"""Parsing replies (toolform.parse): each protocol's readers, repairs and validation, Flow's typed calls, and the
fast readers held to plain readings.
"""
