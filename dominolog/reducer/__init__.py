"""The reducer: folds a match's records into its state, event by event (one fold).

- :mod:`~dominolog.reducer.fold`: :class:`MatchReducer`, the fold and its dispatch;
  ``attempt``/``rollback`` to try an event without keeping it;
- :mod:`~dominolog.reducer.chain`: the hash chain as read;
- :mod:`~dominolog.reducer.hands`: hand and match boundaries, reveals, and the re-check
  of hidden hands once the reveals are in;
- :mod:`~dominolog.reducer.history`: the open hand's events and ``undo`` by saved states;
- :mod:`~dominolog.reducer.claims`: the table's claimed scores against the rules';
- :mod:`~dominolog.reducer.context`: where the variants' hooks report;
- :mod:`~dominolog.reducer.report`: :class:`MatchReport`, what ``verify`` says;
- :mod:`~dominolog.reducer.checks`: which entries a recorder refuses.
"""

from dominolog.reducer.chain import record_canon
from dominolog.reducer.checks import refusal_message, refusals
from dominolog.reducer.fold import TURN_EVENTS, Mark, MatchReducer, reduce_match, verify_match
from dominolog.reducer.report import MatchReport

__all__ = [
    "TURN_EVENTS",
    "Mark",
    "MatchReducer",
    "MatchReport",
    "record_canon",
    "reduce_match",
    "refusal_message",
    "refusals",
    "verify_match",
]
