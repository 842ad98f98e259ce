"""What the table page's Overbooked form offers: the event cards and the solo scenarios.

Read from the tables the scorer itself uses (:data:`~.events.EVENT_CARDS`,
:data:`~.solo.SCENARIO_TITLES`), so the page never holds a copy that could drift; the server
hands them to the page (``GET /api/games``, companion/games/registry.py ``page_facts``).
"""

from __future__ import annotations

from companion.games.overbooked.events import EVENT_CARDS
from companion.games.overbooked.solo import SCENARIO_TITLES


def page_lists() -> dict[str, list[list[str]]]:
    """``events`` and ``scenarios``, each a list of ``[id, printed title]``: the events by
    id, the scenarios in the order the form offers them."""
    return {"events": [[card.id, card.title] for card in sorted(EVENT_CARDS.values(),
                                                                key=lambda card: card.id)],
            "scenarios": [[scenario, title] for scenario, title in SCENARIO_TITLES.items()]}
