"""Which picture the table looks at now, named as data (DESIGN.md rule 17; pure).

Two pictures: ``table`` (the table set up for a player count, issue #35) and ``plane`` (a
plane and where its upgrades go). A :class:`PictureRequest` holds everything a picture is
drawn from; its :attr:`~PictureRequest.name` is a short file name the page asks the box for
(``GET /api/picture/<name>.svg``, companion/web/pictures_api.py), and :func:`parse` reads one
back, refusing anything it did not make with a :class:`ValueError` that says why.

Names: ``table-<players>p`` then ``-vip`` (the VIP variant), ``-digital`` (no weather cards:
the box draws the routes), then ``-seat`` or ``-speed`` (the free tile of the plane shown),
then ``-full`` for the whole picture with every physical fact written under what it is about
(without it: the compact picture a phone's card has room for); ``plane`` and ``plane-full``.
For example ``table-3p-vip-seat`` and ``table-3p-vip-seat-full``.

:func:`picture_for` names the picture a state shows: the table at every setup page (with the
free tile of the player whose page it is, else the first player's), the plane with the
lessons in :data:`LESSON_PICTURES` (another lesson shows none); otherwise None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final, Literal

from companion.games.now_boarding.data import MAX_PLAYERS, MIN_PLAYERS, TITLE
from companion.games.now_boarding.lessons import current_lesson
from companion.games.now_boarding.rules import NowBoardingState, setup_page

Kind = Literal["table", "plane"]
FREE_TILES: Final = ("seat", "speed")

LESSON_PICTURES: Final[dict[str, Kind]] = {"upgrades": "plane", "moving": "plane"}
"""The lessons that show a picture beside their text: lesson id -> picture kind."""

_TABLE = re.compile(r"table-(?P<players>\d)p(?P<vip>-vip)?(?P<digital>-digital)?"
                    r"-(?P<free>seat|speed)(?P<full>-full)?")


@dataclass(frozen=True)
class PictureRequest:
    """What a picture is drawn from: its kind, and for the table the player count, the VIP
    variant, weather cards (False: the box draws the routes), the pictured free tile, and
    whether it is the whole picture (``full``) or the compact one."""

    kind: Kind = "table"
    players: int = 3
    vip: bool = False
    weather_cards: bool = True
    free_tile: str = "seat"
    full: bool = False

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players: {MIN_PLAYERS}..{MAX_PLAYERS}, got {self.players}")
        if self.free_tile not in FREE_TILES:
            raise ValueError(f"free tile: seat or speed, got {self.free_tile!r}")

    @property
    def name(self) -> str:
        """The picture's file name, without its extension (see the module docstring)."""
        if self.kind == "plane":
            return f"plane{'-full' if self.full else ''}"
        return (f"table-{self.players}p{'-vip' if self.vip else ''}"
                f"{'' if self.weather_cards else '-digital'}-{self.free_tile}"
                f"{'-full' if self.full else ''}")

    @property
    def alt(self) -> str:
        """The picture in one sentence, for a reader who cannot see it."""
        if self.kind == "plane":
            return ("A plane from its tiles: cockpit, seats in the middle, wing with its "
                    "speed below, tail behind; upgrades go beside each.")
        return (f"The {TITLE} table set up for {self.players} players: the board, the "
                f"Preflight chart, the three decks{' with VIP cards' if self.vip else ''}, "
                "the tiles and tokens, and one plane.")


def parse(name: str) -> PictureRequest:
    """The request a picture name stands for; ``ValueError`` for a name it did not make."""
    if name in ("plane", "plane-full"):
        return PictureRequest(kind="plane", full=name == "plane-full")
    found = _TABLE.fullmatch(name)
    if found is None:
        raise ValueError(f"no such picture: {name!r} (try table-3p-seat or plane)")
    return PictureRequest("table", int(found["players"]), bool(found["vip"]),
                          not found["digital"], found["free"], bool(found["full"]))


def picture_for(state: NowBoardingState) -> PictureRequest | None:
    """The picture the state shows beside its words, or None (see the module docstring)."""
    lesson = current_lesson(state)
    if lesson is not None:
        if lesson.id in LESSON_PICTURES:
            return PictureRequest(kind=LESSON_PICTURES[lesson.id], players=state.players)
        return None
    if state.step == "setup":
        page = setup_page(state)
        player = int(page.removeprefix("free-")) if page.startswith("free-") else 0
        free = state.free_tiles[player] if player < len(state.free_tiles) else "seat"
        return PictureRequest("table", state.players, state.vip_variant,
                              not state.digital_weather, free)
    return None


def picture_json(state: NowBoardingState) -> dict[str, str] | None:
    """The state JSON's ``picture``: ``{"src": "/api/picture/<name>.svg", "full": the whole
    picture's path, "alt": ...}`` or None (no picture now)."""
    wanted = picture_for(state)
    if wanted is None:
        return None
    whole = replace(wanted, full=True)
    return {"src": f"/api/picture/{wanted.name}.svg", "full": f"/api/picture/{whole.name}.svg",
            "alt": wanted.alt}
