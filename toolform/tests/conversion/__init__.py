"""The IR, the loaders, the summary and its fingerprint, export (toolform.ir, loaders, summary, export,
conversion), called in process.
"""
