"""The JSON Schema of ``dominolog audit --format json`` (written to ``schemas/audit.schema.json``),
generated from its typed document model (:mod:`dominolog.docschema`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dominolog.docschema import Count, Null, Omitted, document_schema
from dominolog.knowledge.evidence_doc import EvidenceDoc

#: a tile, as "high-low"
Tile = Annotated[str, Field(pattern="^[0-6]-[0-6]$")]
#: who won: a player, a side (its players), or nobody
Winner = str | list[str] | None
#: a share of the hands the log allows
Share = Annotated[float, Field(ge=0, le=1)]
#: a 95% margin
Margin = Annotated[float, Field(ge=0)]
#: a number of things, at least one
Some = Annotated[int, Field(ge=1)]


class Verdict(BaseModel):
    # the verdict of the match, or of a hand
    model_config = ConfigDict(extra="forbid")

    valid: bool = Field(description="No certain violation.")
    violations: Count = Field(description="Violations the log proves.")
    possible: Count = Field(description="Rules some hand consistent with the log breaks and some keeps.")
    unsettled: Count = Field(description="Points hidden tiles keep open.")
    text: str
    hidden: Count | Omitted = Field(
        None, description="With --min-likelihood only: the possible violations left out, less likely than that."
    )


class Known(BaseModel):
    """What one player could hold: `holds` for certain, `may_hold` perhaps (never in `holds`), `count` tiles in
    hand."""

    model_config = ConfigDict(extra="forbid")

    holds: list[Tile]
    may_hold: list[Tile]
    count: Count


class Likelihood(BaseModel):
    """A possible violation only: the share of the hands the log allows (all equally likely) in which it is a
    violation (docs/audit.md). Counted exactly (`exact` true), or estimated from `samples` sampled hands, within
    `margin` of the share with 95% confidence."""

    model_config = ConfigDict(extra="forbid")

    share: Share
    exact: bool
    margin: Margin | Omitted = None
    samples: Some | Omitted = None


class OthersHonest(BaseModel):
    """A possible renege only: the share of the hands the log allows in which it is a renege, among those in
    which every other pass and draw of the player's was honest (docs/audit.md, Evidence of reneging). Counted:
    `broken` of `worlds` (integers, of the part of the hand that can reach the player's tiles); sampled:
    `margin` (95%) and `samples`."""

    model_config = ConfigDict(extra="forbid")

    share: Share
    exact: bool
    broken: Count | Omitted = None
    worlds: Some | Omitted = None
    margin: Margin | Omitted = None
    samples: Some | Omitted = None


class FairPlayHand(BaseModel):
    # one hand of a player's evidence
    model_config = ConfigDict(extra="forbid")

    hand: int
    weighed: bool = Field(description="False: the facts leave no world, or a play was set aside.")
    evidence: EvidenceDoc | Omitted = None
    plays: Count | Omitted = None
    passes_and_draws: Count | Omitted = None
    open: Count | Omitted = None
    worlds_by_reneges: list[Count] | Omitted = Field(
        None, description="Counted: the worlds with 0, 1, 2, ... of the player's passes and draws reneges."
    )
    share_by_reneges: list[Margin] | Omitted = Field(
        None, description="Sampled: the share of the sampled worlds with 0, 1, 2, ... reneges."
    )
    samples: Some | Omitted = None


class FairPlayPlayer(BaseModel):
    # one player's evidence, over the match and by hand
    model_config = ConfigDict(extra="forbid")

    player: str
    evidence: EvidenceDoc
    words: str = Field(description="What the figure means, in a sentence.")
    hands: list[FairPlayHand]


class FairPlay(BaseModel):
    """Each player's evidence of reneging over the match and by hand (docs/audit.md, Evidence of reneging):
    evidence, never a finding."""

    model_config = ConfigDict(extra="forbid")

    model: str
    players: list[FairPlayPlayer]


class Rule(BaseModel):
    # a rule a finding rests on
    model_config = ConfigDict(extra="forbid")

    id: str
    text: str


class Finding(BaseModel):
    # a violation, a possible one, or a rule the log cannot settle
    model_config = ConfigDict(extra="forbid")

    seq: int = Field(description="The event's position in the match (1 = match_start).")
    line: int
    code: str
    certainty: Literal["certain", "possible", "unverifiable"]
    message: str
    rules: list[Rule]
    proof: list[str]
    tiles: list[Tile] = Field(description="The tiles that make it (or would make it) a violation.")
    before: dict[str, Known] = Field(description="What each player could hold just before, by the facts alone.")
    likelihood: Likelihood | Omitted = None
    others_honest: OthersHonest | Omitted = None


class Event(BaseModel):
    # an event of a hand (or a line that is not one), and what each player could hold after it
    model_config = ConfigDict(extra="forbid")

    seq: int
    line: int
    type: str | None = Field(description="null for a line that is not an event.")
    player: str | None
    text: str
    retracted: bool = Field(description="Withdrawn by an undo.")
    ends: list[Annotated[int, Field(ge=0, le=6)]]
    turn: str | None
    boneyard: int | None
    knowledge: dict[str, Known] = Field(description="What each player could hold after this event.")
    findings: list[int] | Omitted = Field(None, description="Indexes into the hand's findings.")


class HandResult(BaseModel):
    # how the hand ended, as the log says and the rules score it
    model_config = ConfigDict(extra="forbid")

    end: str
    winner: Winner
    points: dict[str, int]
    verified: bool


class Claim(BaseModel):
    # what the log's hand_end claims
    model_config = ConfigDict(extra="forbid")

    points: dict[str, int] | None = None
    winner: Winner = None


class Hand(BaseModel):
    # a hand: its verdict, result, claim, scoring, findings and events
    model_config = ConfigDict(extra="forbid")

    number: int = Field(ge=1)
    deal_seq: int
    end_seq: int | None
    leader: str | None
    verdict: Verdict
    result: Null | HandResult
    claim: Null | Claim
    scoring: list[str] = Field(description="The scoring worked out, one step a sentence.")
    findings: list[Finding]
    events: list[Event]


class Note(BaseModel):
    seq: int
    text: str


class ChainHand(BaseModel):
    hand: int
    seq: int
    fingerprint: str


class Expected(BaseModel):
    # --expect-head: the fingerprint given, and whether the log matches it
    given: str
    ok: bool
    message: str


class Chain(BaseModel):
    # the hash chain: its state, head and fingerprints
    model_config = ConfigDict(extra="forbid")

    status: Literal["ok", "broken", "absent"]
    head: str
    fingerprint: str = Field(description="The first 10 characters of the head.")
    hands: list[ChainHand]
    expect: Null | Expected


class AuditDocument(BaseModel):
    """What `dominolog audit --format json` prints for one match (docs/audit.md)."""

    model_config = ConfigDict(extra="forbid")

    schema_: Literal["dominolog-audit/1"] = Field(alias="schema")
    source: str
    line: int
    match_id: str | None
    variant: str | None
    variant_title: str
    players: list[str]
    meta: dict[str, str]
    notes: list[Note]
    verdict: Verdict
    totals: dict[str, int]
    winner: Winner
    complete: bool
    chain: Chain
    findings: list[Finding]
    hands: list[Hand]
    fairplay: FairPlay | Omitted = None
    min_likelihood: Share | Omitted = Field(
        None, description="With --min-likelihood only: possible violations less likely than this are left out."
    )


#: the models the schema keeps under ``$defs``, by their names there
DEFS: dict[str, type[BaseModel]] = {
    "verdict": Verdict,
    "knowledge": Known,
    "likelihood": Likelihood,
    "others_honest": OthersHonest,
    "evidence": EvidenceDoc,
    "fairplay": FairPlay,
    "finding": Finding,
    "event": Event,
    "hand": Hand,
}


def audit_schema(base_uri: str) -> dict[str, Any]:
    return document_schema(AuditDocument, f"{base_uri}audit.schema.json", "dominolog audit document", defs=DEFS)
