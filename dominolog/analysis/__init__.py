"""Analysis of hands as played: what the best play was worth.

- :mod:`~dominolog.analysis.ghost13`: the exact value of Ghost 13 positions (every tile is
  dealt, so both hands are known): value, best move, principal variation, and the value
  and rank of every option; the search itself is in :mod:`~dominolog.analysis.ghost13_search`.

This layer reads the reducer's state (``tiles``, ``state``, ``variants``, ``reducer``) and
nothing above it.
"""
