"""Now Boarding's coach: the warnings Board Game Arena gives, where the box knows enough (pure).

DESIGN.md rule 16: each warning is a pure function of the state, never a question and never a
step; views show what :func:`coach` returns (the page's step card in sentences, the panel's
bottom line in a few characters), in every pace, unless the game was started with
``coach=off``. The warnings, most urgent first:

- on ``pace=brisk``'s card, "done" loses the game: the complaints set there and the unserved
  VIPs it files reach 3 (:func:`rules.turnaround_loses`);
- one complaint from losing (2 of 3);
- VIP cards still face-down by the current deck when it runs out within the next draw or two
  (each draw can carry one VIP; each left becomes a complaint), but not at ``vip``, whose
  question says how many are left;
- in the final round, how many passengers may stay undelivered for a win: "Exit the
  aircraft" files floor(undelivered / 2) complaints and 3 lose (:func:`rules.to_win`).

Nothing is said during setup (the first round's draw, VIP and weather too) or once the game
is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from companion.core.words import plural
from companion.games.now_boarding.data import COMPLAINT_LIMIT, PREFLIGHT, STAGE_TITLES
from companion.games.now_boarding.rules import NowBoardingState, to_win, turnaround_loses

#: A stage "ends within the next round or two": at most this many draws left from its deck.
VIP_DRAWS_WARNED = 2


@dataclass(frozen=True)
class Advice:
    """One warning: ``key`` names it (state JSON), ``text`` says it in a sentence (the page),
    ``short`` in at most 12 characters (the panel's bottom line)."""

    key: str
    text: str
    short: str


def draws_left(state: NowBoardingState) -> int:
    """Draws still to come from the current stage's deck before it is found empty."""
    per_round = PREFLIGHT[state.players].draw[state.stage_index]
    return ceil(state.decks[state.stage_index] / per_round)


def coach(state: NowBoardingState) -> tuple[Advice, ...]:
    """The coach's warnings for ``state``, most urgent first (empty with ``coach=off``)."""
    if not state.coach or state.phase == "setup" or state.step == "over":
        return ()
    advice: list[Advice] = []
    if state.step == "turnaround" and turnaround_loses(state):
        advice.append(Advice("done-loses", "Done loses the game: the complaints reach 3.",
                             "DONE LOSES"))
    elif state.complaints == COMPLAINT_LIMIT - 1:
        advice.append(Advice("one-complaint-left", "One more complaint loses.",
                             "1 MORE LOSES"))
    waiting = state.vip_waiting[state.stage_index]
    draws = draws_left(state)
    # Not on "Serve a VIP?" itself: the question says how many are left.
    if waiting and not state.final_round and 0 < draws <= VIP_DRAWS_WARNED \
            and state.step != "vip":
        stage = STAGE_TITLES[state.stage]
        advice.append(Advice("vips-left",
                             f"{plural(waiting, f'{stage} VIP')} left, "
                             f"{plural(draws, 'draw')}: then complaints.",
                             f"{waiting}VIP {draws}draw"))
    if state.final_round:
        most = to_win(state)
        have = state.complaints
        why = f"2 undelivered file 1 complaint; {have} of {COMPLAINT_LIMIT} filed"
        advice.append(Advice("final-round",
                             f"Final round: at most {most} undelivered to win ({why}).",
                             f"FINAL <={most}"))
    return tuple(advice)
