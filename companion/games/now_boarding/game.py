"""Now Boarding (retail, 2-5 players, cooperative): the whole game as a pure state machine.

The box runs the flight timer and walks the table through every step with NEXT. Rules
enforced (rules/now-boarding.txt as read by rules/CLARIFICATIONS.md; numbers in data.py):

Flow (``phase`` / ``step``)
- ``setup`` / ``setup``: a checklist, one page per NEXT: board side; passenger cards to
  remove; planes and starting passengers; one page per player choosing the free upgrade
  tile (UP seat, DOWN speed; with 2 players the page also reminds of the free route tile);
  the "In pile" deal; the weather cards; with ``vip=on`` one page per stage counting the VIP
  cards the table dealt by its deck (see below).
- First-round setup, still ``phase`` setup: ``passengers`` (draw the Morning "draw per
  round" count), ``vip`` (see below), ``weather`` (every Morning weather card, one per NEXT),
  then ``ready`` for round 1 (its screen also says to flip the Preflight chart to its
  Upgrades side: the rulebook's last first-round setup step).
- ``ready`` (``phase`` flight, ``round`` the flight's round, the countdown idle): before
  every flight the screen says to flip every face-down passenger card; NEXT starts the flight.
  No flight starts unannounced.
- ``flight``: the countdown starts when the step begins. NEXT ends it early (tune "end");
  the countdown running out (``Expire``) plays "alarm". Hold NEXT pauses / resumes; with
  ``strict=on`` pausing is refused, but resuming a countdown paused by a power cut
  (``Restore``) is always allowed. ``timer=off``: no countdown, the flight ends only by NEXT,
  hold NEXT is refused, the time used is the time between the flight's start and its end.
- Maintenance, in order: ``anger``, two pages: first the cubes (1 anger cube on every
  waiting passenger, a 4th files a complaint; once a Crying Baby VIP was served, the others at
  its airport get 2), NEXT then asks the complaints filed (UP / DOWN set them, NEXT adds them;
  UP / DOWN on the cubes page go straight to the count);
  ``passengers`` (draw N from the current deck; when the deck is found empty the stage
  changes: the screen says to clear the weather, NEXT moves to the new stage's ``weather``,
  then its ``passengers`` draw; when the Evening deck is found empty nothing is drawn, no
  weather changes and the next round is the final round); ``vip``; ``upgrades``, player by
  player; NEXT on the last player goes to the next round's ``ready``.
- After the final round's flight: ``anger``, then ``exit`` (UP / DOWN set the undelivered
  passengers, NEXT adds floor(undelivered / 2) complaints), then ``over``.
- 3 or more complaints end the game at once (``over``, result "lose", tune "lose") whatever
  the step; reaching exactly 2 plays "danger". Finishing ``exit`` with fewer than 3 plays
  "win".

VIP variant (``vip=on``)
- The table deals the VIP cards (players + 2 of the nine, face down, each by the deck its back
  names); the setup's VIP pages take how many lie by the Morning and Afternoon decks (UP /
  DOWN; at most 3 a deck; the Evening gets the rest). The box deals nothing and names no card
  before the table says which one it turned over.
- After every passenger draw (the first-round draw included, so each stage has at least as
  many chances as it can have VIP cards) and while the current stage still has a VIP card,
  the ``vip`` step asks "Serve a VIP?" with the cards face-down: NEXT yes, DOWN no. After yes
  it asks which card was turned over among the stage's cards not served yet (UP / DOWN; no
  question when one is possible; no card chosen until UP / DOWN, NEXT refused before: only
  ``flow=full`` preselects the first), names it with its effect, and NEXT goes on. One VIP per
  draw: it rides on "the last passenger card" dealt.
- VIP cards left when their stage's deck is found empty become complaints at a NEXT of their
  own at that ``passengers`` step (counted, never named); the next NEXT changes the stage.
- A game journaled before the table dealt its own VIPs (options without ``pace``) replays
  the box's seeded deal of then (books.legacy_vip_deal), so it ends as it was played.

Pages (``flow``, issue #35): the flow above is ``full``, kept for games journaled before (their
options name no flow). Every game started now is ``short``, with the same books: setup is
``table`` (the setup picture), ``planes`` (every free tile: UP / DOWN the player, hold NEXT
swaps) and with ``vip=on`` the Morning and Afternoon counts; the decks are dealt on the first
draw's page; a stage's weather is one page (one NEXT lays every token); ``anger`` is one page
(the count page, the cubes said on it); ``upgrades`` is one page for every player (UP / DOWN
through all their rows, one NEXT ends it).

Pace (``pace``): ``steps`` is the flow above; ``teach`` runs the same steps (lessons come from
their own module); ``brisk`` replaces every maintenance but the final round's with one card,
``turnaround`` (complaints set with UP / DOWN, hold NEXT opens the upgrades and comes back,
NEXT keeps the books exactly as the steps would and starts the next flight, after "Serve a
VIP?" when one may ride).

Upgrades (``upgrades``)
- Player by player (P1 first): five rows each, seat, speed, route, temporary seat,
  temporary speed, with the player's next price (FACTS.md chart) and the tiles left. UP / DOWN
  move through the player's rows, hold NEXT buys the selected row, NEXT goes to the next
  player; NEXT on the last player goes to ``ready``. A temporary token is held by its buyer until
  used: hold NEXT on the holder's own row marks it used and returns it to the supply.
- Planes start with 1 seat and speed 3; the setup's free tile (seat or speed, and one route
  with 2 players) comes from the supply. At most 5 seats and speed 9 (the chart's last price).
- Money is not tracked: players pay with their passenger cards.

Other choices
- Rounds count from 1; during maintenance ``round`` is the round whose flight just ended.
- Decks never go below zero: a draw takes at most what is left (with the chart's counts every
  draw is exact).
- ``weather=digital``: the companion picks, per stage, distinct random routes of the board side
  in play (seeded at the start), and the screen names the route for each token; the weather
  counts in the state are the same as with cards.
- All randomness (digital weather; an old journal's VIP deal) is drawn in ``new`` from the
  seed (the ``seed`` option overrides the box's), so replaying the journal rebuilds the game.
- ``timer=off``: ``countdown(state)`` is None and the state's ``timer`` object is
  ``{"state": "idle", "remaining": 0.0, "duration": 0.0}`` throughout; the added ``elapsed``
  field tells how long the current flight has run.
- ``Restore`` pauses a running flight countdown and changes nothing anywhere else.
- At ``anger`` UP stops where the total would reach 3 (more would change nothing); the game
  ends only at NEXT, so a slip of UP can be taken back with DOWN. At ``exit`` the most is every
  passenger card of the game.
- With 4-5 players the chart deals 71 of the 72 cards (players + In pile); the checklist says
  the card left over goes back in the box.
- UP / DOWN held (the protocol's ``hold up``) act as presses; BACK never reaches the game.
- Illegal input raises :class:`RuleError` with a short reason; the state is never changed.

This module holds the phase sequence, one state machine whose transitions read better side by
side. The moves that change the books (complaints, a flight's start, the brisk card's "done")
are books.py; the state and options rules.py, the printed numbers data.py, the JSON and the
record record.py, and what UP / DOWN and hold NEXT set or buy within a step inputs.py.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, assert_never

from companion.core.buttons import Button
from companion.core.game import (
    Expire,
    GameAction,
    Hold,
    OptionError,
    Play,
    Press,
    Restore,
    RuleError,
)
from companion.core.timer import Countdown, TimerState
from companion.games.now_boarding import data
from companion.games.now_boarding.books import (
    add_complaints,
    end_flight,
    legacy_vip_deal,
    start_flight,
    turnaround_done,
    vip_complaints,
)
from companion.games.now_boarding.data import (
    GAME,
    PREFLIGHT,
    STAGES,
    UPGRADE_ITEMS,
)
from companion.games.now_boarding.inputs import hold_next, up_down, vip_answer
from companion.games.now_boarding.lessons import current_lesson, got_it
from companion.games.now_boarding.record import state_json
from companion.games.now_boarding.rules import (
    OPTIONS,
    PACES,
    NowBoardingState,
    Step,
    balanced_vip_counts,
    deck_empty,
    draw_count,
    setup_pages,
    temp_holder,
    upgrade_row,
    vip_first_choice,
    vip_left,
)

# -- the game -----------------------------------------------------------------------------------


class NowBoarding:
    """The Game protocol for Now Boarding; see the module docstring for the rules."""

    name = GAME
    title = data.TITLE
    options = OPTIONS

    def new(self, options: Mapping[str, str], seed: int) -> NowBoardingState:
        players = int(options.get("players", "3"))
        if not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
            raise OptionError(f"players={players} is not allowed; use players=2..5")
        preset = options.get("timer", "official")
        try:
            duration = data.timer_seconds(preset, players)
        except ValueError as error:
            raise OptionError(f"timer={preset!r} is not allowed; use "
                              "timer=official|relaxed|doubled|off|5..600") from error
        pace = options.get("pace", "steps")
        if pace not in PACES:
            raise OptionError(f"pace={pace!r} is not allowed; use pace=teach|steps|brisk")
        given_seed = options.get("seed", "auto")
        game_seed = seed if given_seed == "auto" else int(given_seed)
        vip_variant = options.get("vip", "off") == "on"
        chart = PREFLIGHT[players]

        # The table deals its own VIP cards and counts them at setup; only a game journaled
        # before that (its options have no pace) replays the deal the box made then.
        legacy = vip_variant and "pace" not in options
        legacy_deal = legacy_vip_deal(game_seed, players) if legacy else ((), (), ())
        if legacy:
            vip_told = (len(legacy_deal[0]), len(legacy_deal[1]), len(legacy_deal[2]))
        else:
            vip_told = balanced_vip_counts(players) if vip_variant else (0, 0, 0)

        weather_rng = random.Random(f"now-boarding:{game_seed}:weather")
        names = [route.name for route in data.routes(players)]
        picks = [tuple(weather_rng.sample(names, count)) for count in chart.weather]
        weather_routes = (picks[0], picks[1], picks[2])

        full_flow = options.get("flow", "full") == "full"  # journaled before #35: no flow
        normalised = {spec.key: options.get(spec.key, spec.default) for spec in OPTIONS}
        normalised["flow"] = "full" if full_flow else "short"
        countdown = Countdown(duration=float(duration)) if duration is not None else None
        return NowBoardingState(
            players=players,
            options=tuple(normalised.items()),
            seed=game_seed,
            duration=duration,
            strict=options.get("strict", "off") == "on",
            vip_variant=vip_variant,
            digital_weather=options.get("weather", "cards") == "digital",
            weather_routes=weather_routes,
            decks=chart.in_pile,
            weather=chart.weather,
            countdown=countdown,
            pace=pace,
            coach=options.get("coach", "on") == "on",
            vip_told=vip_told,
            vip_waiting=vip_told,
            legacy_vip_deal=legacy_deal,
            free_tiles=("seat",) * players,
            full_flow=full_flow,
        )

    # -- stepping --------------------------------------------------------------------------

    def step(self, state: NowBoardingState, action: GameAction,
             now: float) -> tuple[NowBoardingState, tuple[Play, ...]]:
        match action:
            case Expire():
                return self._expire(state, now)
            case Restore():
                return self._restore(state, now)
            case Press(button=Button.BACK) | Hold(button=Button.BACK):
                raise RuleError("not-allowed", "BACK belongs to the box: menu / hold to undo")
        if (taught := got_it(state, action)) is not None:  # pace=teach: a lesson first
            return taught
        if state.step == "over":
            raise RuleError("not-allowed", "game over: BACK menu, hold BACK undo")
        match action:
            case Press(button=Button.NEXT):
                return self._next(state, now)
            case Hold(button=Button.NEXT):
                return hold_next(state, now)
            case Press(button=Button.UP) | Hold(button=Button.UP):
                return self._up_down(state, +1, now)
            case Press(button=Button.DOWN) | Hold(button=Button.DOWN):
                return self._up_down(state, -1, now)
        raise RuleError("not-allowed", "that does nothing here")

    def countdown(self, state: NowBoardingState) -> Countdown | None:
        return state.countdown

    def result(self, state: NowBoardingState) -> str | None:
        return state.result

    def to_json(self, state: NowBoardingState, now: float) -> dict[str, Any]:
        return state_json(state, now)

    def describe(self, state: NowBoardingState, action: GameAction) -> str | None:
        """What ``action`` did at ``state``, for undo's notice (``flight R3 start``)."""
        if (lesson := current_lesson(state)) is not None:
            return f"got it: {lesson.title}"
        flight = f"flight R{state.round}"
        match action, state.step:
            case Press(button=Button.NEXT), "ready":
                return f"{flight} start"
            case Press(button=Button.NEXT), "flight":
                return f"{flight} end"
            case Hold(button=Button.NEXT), "flight":
                paused = state.countdown is not None \
                    and state.countdown.state is TimerState.PAUSED
                return f"{flight} {'resume' if paused else 'pause'}"
            case Hold(button=Button.NEXT), "upgrades":
                player, item = upgrade_row(state)
                verb = "used" if temp_holder(state, item) == player else "bought"
                return f"P{player + 1} {verb} {item.replace('-', ' ')}"
            case Press(button=Button.NEXT), "upgrades":
                return (f"P{state.page // len(UPGRADE_ITEMS) + 1}'s upgrades" if state.full_flow
                        else f"upgrades R{state.round}")
            case Press(button=Button.NEXT), "anger":
                if state.page == 0:
                    return f"anger cubes R{state.round}"
                return f"+{state.pending} complaints R{state.round}"
            case Press(button=Button.NEXT), "exit":
                return f"{state.pending} undelivered"
            case Press(button=Button.NEXT), "passengers":
                return f"{data.STAGE_TITLES[state.stage]} draw R{state.round}"
            case Press(button=Button.NEXT | Button.DOWN | Button.UP), "vip":  # UP: a choice
                return "VIP chosen" if state.page and action != Press(Button.NEXT) else "VIP answer"
            case Press(button=Button.NEXT), "weather":
                return "weather card"
            case Press(button=Button.NEXT), "turnaround":
                return f"round {state.round} done"
            case Hold(button=Button.NEXT), "turnaround":
                return "upgrades opened"
        return None

    # -- NEXT -------------------------------------------------------------------------------

    def _next(self, state: NowBoardingState,
              now: float) -> tuple[NowBoardingState, tuple[Play, ...]]:
        match state.step:
            case "setup":
                if state.page + 1 < len(setup_pages(state)):
                    return replace(state, page=state.page + 1), (Play("click"),)
                return replace(state, step="passengers", page=0), (Play("click"),)
            case "passengers":
                return self._passengers(state, now)
            case "weather":
                return self._weather(state)
            case "vip":
                if state.page == 0:  # "Serve a VIP?" NEXT: yes; now which card it is
                    return (replace(state, page=1, serve_vip=True,
                                    vip_choice=vip_first_choice(state)), (Play("click"),))
                return self._vip(state, now)
            case "ready":
                return start_flight(state, now)
            case "flight":
                return end_flight(state, now, "next")
            case "anger":
                if state.page == 0:
                    return replace(state, page=1), (Play("click"),)
                return self._anger(state)
            case "upgrades":
                player = state.page // len(UPGRADE_ITEMS)
                if state.full_flow and player + 1 < state.players:
                    return (replace(state, page=(player + 1) * len(UPGRADE_ITEMS)),
                            (Play("click"),))
                if state.pace == "brisk":  # bought from the brisk card: back to it
                    return replace(state, step="turnaround", page=0), (Play("click"),)
                return self._ready(replace(state, round=state.round + 1))
            case "turnaround":
                return turnaround_done(state, now)
            case "exit":
                return self._exit(state)
            case "over":  # step() refuses every input once the game is over
                raise RuleError("not-allowed", "game over: BACK menu, hold BACK undo")
        assert_never(state.step)

    def _passengers(self, state: NowBoardingState,
                    now: float) -> tuple[NowBoardingState, tuple[Play, ...]]:
        if not deck_empty(state):
            index = state.stage_index
            decks = list(state.decks)
            decks[index] -= draw_count(state)
            drawn = replace(state, decks=(decks[0], decks[1], decks[2]))
            return self._after_draw(drawn, now)
        # The draw finds the current deck empty: its VIPs complain (one NEXT, their screen
        # names them), then the stage changes (or, after the Evening, the final round comes).
        if vip_left(state):
            state, plays = vip_complaints(state)
            return state, plays or (Play("click"),)
        if state.stage_index + 1 < len(STAGES):
            changed = replace(state, stage_index=state.stage_index + 1, page=0)
            step: Step = ("weather" if changed.weather[changed.stage_index] > 0
                          else "passengers")
            return replace(changed, step=step), (Play("stage-change"),)
        return replace(state, final_round=True, step="upgrades", page=0), (Play("final-round"),)

    def _after_draw(self, state: NowBoardingState,
                    now: float) -> tuple[NowBoardingState, tuple[Play, ...]]:
        if state.vip_variant and vip_left(state) > 0:
            return replace(state, step="vip", serve_vip=False, page=0), (Play("click"),)
        return self._after_vip(state, now)

    def _after_vip(self, state: NowBoardingState,
                   now: float) -> tuple[NowBoardingState, tuple[Play, ...]]:
        if state.phase == "setup":
            if state.weather[state.stage_index] > 0:
                return replace(state, step="weather", page=0), (Play("click"),)
            return self._ready(state)
        if state.pace == "brisk":  # the card's "done" was said: the next flight starts
            return start_flight(replace(state, round=state.round + 1), now)
        return replace(state, step="upgrades", page=0), (Play("click"),)

    def _vip(self, state: NowBoardingState,
             now: float) -> tuple[NowBoardingState, tuple[Play, ...]]:
        card = vip_answer(state)  # refused while no card is chosen
        if card is not None:  # the card the table said it turned over
            index = state.stage_index
            waiting = list(state.vip_waiting)
            waiting[index] -= 1
            state = replace(state, vip_waiting=(waiting[0], waiting[1], waiting[2]),
                            vips_served=(*state.vips_served, (state.round, state.stage, card)))
        return self._after_vip(replace(state, serve_vip=False, page=0, vip_choice=0), now)

    def _weather(self, state: NowBoardingState) -> tuple[NowBoardingState, tuple[Play, ...]]:
        index = state.stage_index
        weather = list(state.weather)
        weather[index] = weather[index] - 1 if state.full_flow else 0  # short: the whole stage
        state = replace(state, weather=(weather[0], weather[1], weather[2]))
        if weather[index] > 0:
            return state, (Play("click"),)
        if state.phase == "setup":
            return self._ready(state)
        # A stage change: the new stage's weather is out, now its passengers.
        return replace(state, step="passengers"), (Play("click"),)

    @staticmethod
    def _ready(state: NowBoardingState) -> tuple[NowBoardingState, tuple[Play, ...]]:
        """Before a flight: the table flips the face-down passengers, NEXT starts it."""
        countdown = state.countdown.reset() if state.countdown is not None else None
        return (replace(state, phase="flight", step="ready", page=0, countdown=countdown),
                (Play("click"),))

    def _anger(self, state: NowBoardingState) -> tuple[NowBoardingState, tuple[Play, ...]]:
        state, plays = add_complaints(replace(state, pending=0), state.pending, "anger")
        if state.step == "over":
            return state, plays
        if state.final_round:
            return replace(state, step="exit", pending=0, page=0), plays or (Play("click"),)
        return replace(state, step="passengers", page=0), plays or (Play("click"),)

    def _exit(self, state: NowBoardingState) -> tuple[NowBoardingState, tuple[Play, ...]]:
        undelivered = state.pending
        state = replace(state, undelivered=undelivered, pending=0)
        state, plays = add_complaints(state, undelivered // 2, "exit", always_log=True)
        if state.step == "over":
            return state, plays
        won = replace(state, phase="over", step="over", result="win", reason="flying high")
        return won, (Play("win"),)

    # -- the timer --------------------------------------------------------------------------

    def _expire(self, state: NowBoardingState,
                now: float) -> tuple[NowBoardingState, tuple[Play, ...]]:
        countdown = state.countdown
        if state.step != "flight" or countdown is None:
            raise RuleError("not-allowed", "no flight timer is running")
        if not countdown.is_due(now):
            raise RuleError("not-allowed", "the flight timer has time left")
        return end_flight(state, now, "time")

    def _restore(self, state: NowBoardingState,
                 now: float) -> tuple[NowBoardingState, tuple[Play, ...]]:
        countdown = state.countdown
        if state.step == "flight" and countdown is not None \
                and countdown.state is TimerState.RUNNING:
            return replace(state, countdown=countdown.pause(now)), ()
        return state, ()

    # -- UP / DOWN --------------------------------------------------------------------------

    def _up_down(self, state: NowBoardingState, direction: int,
                 now: float) -> tuple[NowBoardingState, tuple[Play, ...]]:
        if state.step == "vip" and state.page == 0 and direction < 0:  # "Serve a VIP?" DOWN: no
            return self._vip(replace(state, serve_vip=False, page=0), now)
        return up_down(state, direction)
