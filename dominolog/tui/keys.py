"""Every key of the replay viewer (:data:`KEYS`) and of the recorder (:data:`RECORDER_KEYS`), in one
table each. Change a key here and it changes everywhere: the screens' bindings and the footers are
made from them.

Each entry: the action (a method ``action_<name>`` of the screen), the keys (comma separated,
Textual key names), the footer's label, whether the footer shows it, and whether it is taken
before the focused widget sees it (``priority``: the recorder's entry line owns ordinary keys).
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
    #: taken before the focused widget (the recorder's entry line) sees the key
    priority: bool = False


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
    Key("next_mistake", "m", "mistake", show=False),
    Key("previous_mistake", "M", "prev mistake", show=False),
    Key("toggle_legal", "l", "legal"),
    Key("toggle_hidden", "h", "hidden"),
    Key("scroll_table('up')", "shift+up", "scroll table", show=False),
    Key("scroll_table('down')", "shift+down", "scroll table", show=False),
    Key("scroll_table('left')", "shift+left", "scroll table", show=False),
    Key("scroll_table('right')", "shift+right", "scroll table", show=False),
    Key("toggle_help", "question_mark,f1", "keys"),
    Key("quit", "q", "quit"),
    # after quit: in an 80-column footer, the keys before it keep their place
    Key("audit", "a", "audit"),
    Key("matches", "ctrl+o", "matches", show=False),
)


#: the recorder: the entry line has the focus and takes every printable key, so its keys are
#: control keys, taken first (``priority``)
RECORDER_KEYS: tuple[Key, ...] = (
    Key("fix", "ctrl+e", "fix an entry", priority=True),
    Key("as_played", "ctrl+r", "as played", priority=True),
    Key("complete", "tab", "complete", priority=True),
    Key("cancel", "escape", "cancel"),
    Key("scroll_events(-1)", "pageup", "older events", show=False, priority=True),
    Key("scroll_events(1)", "pagedown", "newer events", show=False, priority=True),
    Key("toggle_help", "f1", "keys"),
    Key("quit", "ctrl+q", "quit", priority=True),
)


def bindings(keys: tuple[Key, ...] = KEYS) -> list[BindingType]:
    """A screen's bindings, from :data:`KEYS` (the replay screen) or :data:`RECORDER_KEYS`."""
    return [Binding(k.keys, k.action, k.label, show=k.show, key_display=k.display, priority=k.priority) for k in keys]


def keys_for(action: str, keys: tuple[Key, ...] = KEYS) -> list[str]:
    """The keys bound to ``action`` (for tests and help text)."""
    for k in keys:
        if k.action == action:
            return k.keys.split(",")
    raise KeyError(action)
