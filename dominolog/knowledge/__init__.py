"""What each player could hold at every event of a hand, from everything its log shows
(:mod:`~dominolog.knowledge.model`: the worlds as matchings of tiles to slots;
:mod:`~dominolog.knowledge.facts`: a hand's facts as such a model)."""

from dominolog.knowledge.facts import count_after, hand_model
from dominolog.knowledge.model import NEVER, Before, HandModel, Slot

__all__ = ["NEVER", "Before", "HandModel", "Slot", "count_after", "hand_model"]
