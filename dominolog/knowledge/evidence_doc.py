"""The typed document model of :meth:`dominolog.knowledge.evidence.Evidence.as_dict`: evidence of
reneging as the audit's and the standings' documents carry it (their JSON Schemas are generated from
it, :mod:`dominolog.docschema`). Apart from :mod:`dominolog.knowledge.evidence`, so that working the
evidence out does not load pydantic."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from dominolog.docschema import Count, Omitted, null_in_type


class ExactFactor(BaseModel):
    """The Bayes factor exactly, as a fraction (every hand counted)."""

    model_config = ConfigDict(extra="forbid")

    numerator: Count
    denominator: int = Field(ge=1)


class EvidenceDoc(BaseModel):
    """Evidence of reneging over some hands: the Bayes factor of 'passes or draws while holding a play at some
    rate' against 'never' (null with `proven` > 0: a hand's log proves a renege), its log10, and with `exact`
    false (a hand sampled) the log10 at the ends of the sampled ratios' 95% margins; the hands, the turns
    (plays, passes and draws) and the passes and draws the log leaves open that it rests on."""

    model_config = ConfigDict(extra="forbid")

    bayes_factor: float | None = Field(ge=0, json_schema_extra=null_in_type)
    log10: float | None
    exact: bool
    hands: Count
    decisions: Count
    open: Count
    proven: Count
    log10_low: float | None = None
    log10_high: float | None = None
    fraction: ExactFactor | Omitted = None
