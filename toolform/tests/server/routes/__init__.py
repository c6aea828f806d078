"""Each route group through a real `toolform serve` on loopback, beside the reference's server where it has the
route.
"""
