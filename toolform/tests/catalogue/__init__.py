"""The catalogue's SDK (toolform.catalogue): BM25 retrieval, the strategy, plans and the two-stage prompt."""
