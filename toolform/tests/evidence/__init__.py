"""The evidence (toolform.evidence): located, verified against its manifest, fetched from a wheel; the local
evidence store.
"""
