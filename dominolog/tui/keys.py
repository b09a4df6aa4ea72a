"""Every key of the replay viewer, in one table. Change a key here and it changes everywhere:
the screen's bindings and the footer are made from it.

Each entry: the action (a method ``action_<name>`` of the replay screen), the keys (comma
separated, Textual key names), the footer's label, and whether the footer shows it.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding, BindingType


@dataclass(slots=True, frozen=True)
class Key:
    action: str
    keys: str
    label: str
    show: bool = True
    #: the footer's name for the key (default: Textual's)
    display: str | None = None


KEYS: tuple[Key, ...] = (
    Key("next_event", "right,down,n", "next"),
    Key("previous_event", "left,up,p", "prev"),
    Key("next_hand", "right_square_bracket,pagedown", "hand+"),
    Key("previous_hand", "left_square_bracket,pageup", "hand-"),
    Key("first", "home,g", "first", show=False),
    Key("last", "end,G", "last", show=False),
    Key("jump", "colon,j", "seq"),
    Key("next_violation", "v", "violation"),
    Key("previous_violation", "V", "prev violation", show=False),
    Key("toggle_legal", "l", "legal"),
    Key("toggle_hidden", "h", "hidden"),
    Key("scroll_table('up')", "shift+up", "scroll table", show=False),
    Key("scroll_table('down')", "shift+down", "scroll table", show=False),
    Key("scroll_table('left')", "shift+left", "scroll table", show=False),
    Key("scroll_table('right')", "shift+right", "scroll table", show=False),
    Key("toggle_help", "question_mark,f1", "keys"),
    Key("quit", "q", "quit"),
)


def bindings() -> list[BindingType]:
    """The replay screen's bindings, from :data:`KEYS`."""
    return [Binding(k.keys, k.action, k.label, show=k.show, key_display=k.display) for k in KEYS]


def keys_for(action: str) -> list[str]:
    """The keys bound to ``action`` (for tests and help text)."""
    for k in KEYS:
        if k.action == action:
            return k.keys.split(",")
    raise KeyError(action)
