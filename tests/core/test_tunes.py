"""Every event the table must hear has a tune of its own, played at the step it belongs to."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.app import App, AppState, Effect
from companion.core.buttons import Button, Gesture
from companion.core.game import Play
from companion.core.tunes import (
    ALARM_TUNES,
    EVENT_TUNES,
    LOUD_BAND,
    RESONANCE_HZ,
    SOUNDERS,
    TUNES,
    VOLUME_DUTY,
    SoundSettings,
    loud_band,
    tune_length,
    tunes_for,
    warning_tune,
)
from companion.games.now_boarding import NowBoarding
from companion.games.now_boarding_v3 import NowBoardingV3Game
from companion.games.timer import RoundTimer


def test_tunes_every_event_has_a_tune_of_its_own() -> None:
    assert set(EVENT_TUNES.values()) <= set(TUNES)
    assert len(set(EVENT_TUNES.values())) == len(EVENT_TUNES)
    sequences = [TUNES[name] for name in EVENT_TUNES.values()]
    assert len(set(sequences)) == len(sequences)


def test_tunes_no_two_tunes_sound_alike() -> None:
    assert len(set(TUNES.values())) == len(TUNES)


@pytest.mark.parametrize("name", sorted(TUNES))
def test_tunes_stay_in_the_passive_buzzers_range(name: str) -> None:
    notes = TUNES[name]
    assert notes and tune_length(name) > 0
    # Inside the passive buzzer's range (TonalBuzzer A5 +/- 3 octaves: 110-7040 Hz).
    assert all(220 <= frequency <= 4700 for frequency, _ in notes if frequency is not None)
    assert notes[0][0] is not None  # a tune starts sounding at once


@pytest.mark.parametrize("name", ALARM_TUNES)
def test_tunes_alarms_sit_near_the_piezos_resonance(name: str) -> None:
    low, high = LOUD_BAND
    assert low < RESONANCE_HZ < high
    assert all(low <= frequency <= high for frequency, _ in TUNES[name]
               if frequency is not None)


def test_tunes_time_up_is_the_resonance_and_every_warning_is_its_own() -> None:
    assert TUNES["alarm"] == ((RESONANCE_HZ, 1.2),)
    warnings = [TUNES[name] for name in ALARM_TUNES]
    assert len(set(warnings)) == len(warnings)
    # Told apart by ear: no two alarm tunes have the same count of beeps at the same pitch.
    shapes = [(sum(1 for f, _ in TUNES[n] if f), max(f for f, _ in TUNES[n] if f))
              for n in ALARM_TUNES]
    assert len(set(shapes)) == len(shapes)


@pytest.mark.parametrize(("settings", "duty"), [
    (SoundSettings(), VOLUME_DUTY[3]),
    (SoundSettings(5), 0.5),
    (SoundSettings(1), 0.02),
    (SoundSettings(5, muted=True), 0.0),
])
def test_tunes_volume_is_a_pwm_duty(settings: SoundSettings, duty: float) -> None:
    assert settings.duty == duty


def test_tunes_louder_wraps_and_toggled_mutes() -> None:
    volumes = [SoundSettings(1)]
    for _ in range(5):
        volumes.append(volumes[-1].louder())
    assert [s.volume for s in volumes] == [1, 2, 3, 4, 5, 1]
    assert SoundSettings(4).toggled() == SoundSettings(4, muted=True)
    assert SoundSettings(4, muted=True).toggled() == SoundSettings(4)


@pytest.mark.parametrize("volume", [0, 6, -1])
def test_tunes_volume_outside_the_steps_is_refused(volume: int) -> None:
    with pytest.raises(ValueError, match="volume must be 1 to 5"):
        SoundSettings(volume)


# --- each tune at its step: a whole Now Boarding game -------------------------------------


def _tunes(effects: list[Effect]) -> list[str]:
    return [effect.tune for effect in effects if isinstance(effect, Play)]


class _Table:
    def __init__(self, game: Any, name: str, **options: str) -> None:
        self.app = App([game])
        self.t = 0.0
        self.state, _ = self.app.new_game(AppState(), name, options, 1, self.t)

    def json(self) -> dict[str, Any]:
        return self.app.to_json(self.state, self.t)

    def press(self, button: Button) -> list[str]:
        self.t += 0.25
        self.state, effects = self.app.gesture(self.state, Gesture("press", button, self.t),
                                               self.t)
        return _tunes(effects)

    def tick(self, dt: float) -> list[str]:
        self.t += dt
        self.state, effects = self.app.tick(self.state, self.t)
        return _tunes(effects)


def test_tunes_a_whole_now_boarding_game_sounds_each_event_at_its_step() -> None:
    table = _Table(NowBoarding(), "now-boarding", players="3")
    heard: list[tuple[str, str]] = []  # (event seen in the state, tune heard)
    complaints_filed = 0
    while table.json()["step"] != "over":
        before = table.json()
        if before["step"] == "flight":
            tunes = table.tick(1.0)
        elif before["step"] == "anger" and complaints_filed < 2 and before["pending"] == 0:
            # One complaint in each of the first two rounds: the first is just filed, the
            # second leaves one more to lose.
            tunes = table.press(Button.UP)
            assert tunes == []
            tunes = table.press(Button.NEXT)
            complaints_filed += 1
        else:
            tunes = table.press(Button.NEXT)
        after = table.json()
        if after["step"] == "flight" and before["step"] != "flight":
            heard.append(("flight start", *tunes))
        elif before["step"] == "flight" and after["step"] != "flight":
            heard.append(("alarm", *tunes))
        elif after["complaints"] > before["complaints"]:
            event = "one more loses" if after["complaints"] == 2 else "complaint filed"
            heard.append((event, *tunes))
        elif after["stage"] != before["stage"]:
            heard.append(("stage change", *tunes))
        elif after["final_round"] and not before["final_round"]:
            heard.append(("final round", *tunes))
        elif after["result"] == "win":
            heard.append(("win", *tunes))
        else:
            # Warnings come while flying; everything else is a click or silent.
            assert set(tunes) <= {"click", *(f"warning-{mark}" for mark in (10, 5, 3, 2, 1))}
    for event, tune in heard:
        assert EVENT_TUNES[event] == tune, event
    events = [event for event, _ in heard]
    assert events.count("flight start") == events.count("alarm") == 17
    assert events.count("complaint filed") == 1 and events.count("one more loses") == 1
    assert events.count("stage change") == 2
    assert events.count("final round") == 1
    assert events[-1] == "win"


def test_tunes_warnings_sound_while_a_flight_runs() -> None:
    table = _Table(NowBoarding(), "now-boarding", players="3")
    while table.json()["step"] != "flight":
        table.press(Button.NEXT)
    heard: list[str] = []
    while table.json()["step"] == "flight":
        heard += table.tick(0.5)
    assert heard == ["warning-10", "warning-5", "warning-3", "warning-2", "warning-1", "alarm"]


def test_tunes_the_third_complaint_loses() -> None:
    table = _Table(NowBoarding(), "now-boarding", players="3", timer="off")
    while table.json()["step"] != "anger":
        table.press(Button.NEXT)
    for _ in range(3):
        table.press(Button.UP)
    assert table.press(Button.NEXT) == ["lose"]


def test_tunes_the_round_timer_starts_like_a_flight() -> None:
    table = _Table(RoundTimer(), "timer", seconds="30")
    assert table.press(Button.NEXT) == ["flight-start"]
    assert table.press(Button.NEXT) == ["end"]


def test_tunes_now_boarding_v3_departure_starts_a_flight() -> None:
    table = _Table(NowBoardingV3Game(), "now-boarding-v3", players="3", timer="60")
    while table.json()["step"] != "departure":
        table.press(Button.NEXT)
    assert table.press(Button.NEXT) == ["flight-start"]


def test_tunes_now_boarding_v3_a_new_day_is_a_stage_change() -> None:
    table = _Table(NowBoardingV3Game(), "now-boarding-v3", players="3", timer="off")
    heard: list[str] = []
    while table.json()["step"] != "game-over":
        day = table.json()["day"]
        tunes = table.press(Button.NEXT)
        if table.json()["day"] != day:
            heard += tunes
    assert heard == ["stage-change", "stage-change"]


@pytest.mark.parametrize(("mark", "tune"), [
    (10, "warning-10"), (5, "warning-5"), (3, "warning-3"), (2, "warning-2"), (1, "warning-1"),
    (30, "warning"), (7, "warning"), (2.5, "warning-final"), (0.5, "warning-final"),
])
def test_tunes_each_standard_warning_mark_has_its_own_tune(mark: float, tune: str) -> None:
    assert warning_tune(mark) == tune


@pytest.mark.parametrize("sounder", sorted(SOUNDERS))
def test_tunes_follow_the_sounder_fitted(sounder: str) -> None:
    """Each sounder's alarm tunes sit in its own loud band with time-up on its loud frequency;
    the intervals are kept, so every warning stays its own by pitch and beeps; the other tunes
    do not move; every note stays in the passive buzzer's 110-7040 Hz."""
    tuned = tunes_for(sounder)
    low, high = loud_band(sounder)
    assert tuned["alarm"] == ((round(SOUNDERS[sounder].loud_hz), 1.2),)
    for name in ALARM_TUNES:
        notes = [f for f, _ in tuned[name] if f is not None]
        assert all(low <= f <= high for f in notes), name
        assert [s for _, s in tuned[name]] == [s for _, s in TUNES[name]]
    shapes = [(sum(1 for f, _ in tuned[n] if f), max(f for f, _ in tuned[n] if f))
              for n in ALARM_TUNES]
    assert len(set(shapes)) == len(shapes)
    for name, tune in TUNES.items():
        if name not in ALARM_TUNES:
            assert tuned[name] == tune
        assert all(110 <= f <= 7040 for f, _ in tuned[name] if f is not None)
    if sounder == "piezo":
        assert tuned == TUNES


def test_tunes_refuse_a_sounder_the_box_is_not_built_for() -> None:
    with pytest.raises(KeyError):
        tunes_for("siren")
