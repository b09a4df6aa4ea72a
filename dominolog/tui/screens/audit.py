"""The audit's explanation of one event (the ``a`` key): its findings, each with how sure it is, the
rules it rests on and the proof in sentences (the FINDING entries of the audit document,
:func:`dominolog.audit.document.build_audit`), and what the whole log shows of the hidden hands
after it. Everything from the log is drawn as written: Rich ``Text``, never markup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from dominolog.log.reader import Record
from dominolog.log.words import describe_record
from dominolog.textsafe import cut, visible
from dominolog.tui.knowing import CERTAIN, POSSIBLE, Known

#: how each certainty is drawn: (sign, words, style)
CERTAINTY = {
    CERTAIN: ("✗", "certain", "bold red"),
    POSSIBLE: ("?", "possible", "bold yellow"),
}
UNSETTLED = ("?", "not settled", "dim yellow")


def _safe(value: object, limit: int = 2000) -> str:
    return visible(cut(value if isinstance(value, str) else str(value), limit))


def paragraphs(
    record: Record,
    findings: Sequence[Mapping[str, Any]],
    known: Mapping[str, Known] | None = None,
    hidden: str = "",
    fair: Sequence[str] = (),
) -> list[tuple[int, Text]]:
    """The explanation, as paragraphs each with its indent: the event, each finding (certainty,
    code, message, rules, proof, tiles), then each hidden hand as the whole log shows it after the
    event. A paragraph's lines wrap at its indent. ``hidden``: what ``--min-likelihood`` left out
    here, in words; ``fair``: each player's evidence of reneging over the match, in words."""
    out: list[tuple[int, Text]] = []
    head = Text()
    head.append(f"seq {record.seq} (line {record.line}): ", style="bold")
    head.append(_safe(describe_record(record)))
    out.append((0, head))
    if not findings:
        out.append((0, Text("")))
        words = (
            f"no finding shown at this event: {hidden}"
            if hidden
            else "no finding at this event: the rules find nothing wrong here"
        )
        out.append((0, Text(words, style="dim")))
    elif hidden:
        out.append((0, Text("")))
        out.append((0, Text(f"also at this event: {hidden}", style="dim")))
    for f in findings:
        sign, words, style = CERTAINTY.get(str(f.get("certainty")), UNSETTLED)
        out.append((0, Text("")))
        out.append(
            (0, Text.assemble((f"{sign} {words}", style), (" · ", "dim"), (_safe(f.get("code", "?"), 100), "bold")))
        )
        out.append((2, Text(_safe(f.get("message", "")))))
        rules = f.get("rules") or []
        if rules:
            out.append((2, Text("rules", style="bold")))
            for r in rules:
                out.append(
                    (4, Text.assemble((f"{_safe(r.get('id', '?'), 20)}  ", "bold cyan"), _safe(r.get("text", ""))))
                )
        proof = f.get("proof") or []
        if proof:
            out.append((2, Text("proof", style="bold")))
            for k, sentence in enumerate(proof, 1):
                out.append((4, Text.assemble((f"{k}. ", "dim"), _safe(sentence))))
        tiles = f.get("tiles") or []
        if tiles:
            out.append((2, Text.assemble(("tiles that decide it: ", "dim"), " ".join(_safe(t, 10) for t in tiles))))
    if fair:
        out.append((0, Text("")))
        out.append((0, Text("fair play over the match (evidence of reneging, not a finding)", style="bold")))
        for sentence in fair:
            out.append((2, Text(_safe(sentence))))
    if known:
        out.append((0, Text("")))
        out.append((0, Text("what the whole log shows after this event", style="bold")))
        for player, k in known.items():
            line = Text.assemble((f"{_safe(player, 100)} ({k.count}): ", "bold"), k.words())
            if k.open:
                line.append(": " + " ".join(str(t) for t in sorted(k.may)), style="dim")
            out.append((2, line))
    return out


def explanation(
    record: Record,
    findings: Sequence[Mapping[str, Any]],
    known: Mapping[str, Known] | None = None,
    hidden: str = "",
    fair: Sequence[str] = (),
) -> Group:
    """:func:`paragraphs` drawn: each paragraph's lines wrap at its indent."""
    drawn = paragraphs(record, findings, known, hidden, fair)
    return Group(*(Padding(text, (0, 0, 0, indent)) for indent, text in drawn))


def plain(
    record: Record,
    findings: Sequence[Mapping[str, Any]],
    known: Mapping[str, Known] | None = None,
    hidden: str = "",
    fair: Sequence[str] = (),
) -> str:
    """:func:`paragraphs` as plain text, one line a paragraph (for tests)."""
    drawn = paragraphs(record, findings, known, hidden, fair)
    return "\n".join(" " * indent + text.plain for indent, text in drawn)


class AuditScreen(ModalScreen[None]):
    """The explanation of one event; escape (or ``a``, ``q``) closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,a,q", "close", "close"),
        Binding("down,j", "scroll(1)", "down", show=False),
        Binding("up,k", "scroll(-1)", "up", show=False),
    ]

    def __init__(
        self,
        record: Record,
        findings: Sequence[Mapping[str, Any]],
        known: Mapping[str, Known] | None = None,
        hidden: str = "",
        fair: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.record = record
        self.findings = list(findings)
        self.known = known
        self.hidden = hidden
        self.fair = list(fair)

    def compose(self) -> ComposeResult:
        with Vertical(id="audit-box"):
            yield Label(f"the audit of seq {self.record.seq} (escape closes)", id="audit-title")
            with VerticalScroll(id="audit-scroll"):
                yield Static(
                    explanation(self.record, self.findings, self.known, self.hidden, self.fair), id="audit-text"
                )

    @property
    def text(self) -> str:
        """The explanation shown, as plain text, one line a paragraph (for tests)."""
        return plain(self.record, self.findings, self.known, self.hidden, self.fair)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#audit-scroll", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
