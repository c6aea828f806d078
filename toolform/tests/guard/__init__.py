"""The guard's SDK (toolform.guard): rules, strictness and actions, the reference's guard fixtures, the project's
corpora, the scan's fast paths.
"""
