"""The games: rules as data and pure functions, one package per game (``timer`` is one module).

Every game package has the same shape, so a reader who knows one game knows where everything of
another is:

- ``__init__.py``: the game's public names (its Game class, ``score`` and what views need).
- ``game.py``: the box game, the Game class whose buttons walk the table through the game.
- ``score.py``: the ``companion score <game>`` scorer and the rules it applies.
- ``data.py``: the printed numbers and fixed tables (Flight Plan's: also the route guide's
  records). Overbooked has none: it keeps each table beside the rule that reads it.
- Further modules only where a game needs them; each package's docstring lists its own.

``registry.py`` lists the games for the menu and the scorers; ``scoring.py`` holds what every
scorer shares; ``records.py`` reads each game's history (the rows and chart of
``companion history --export``) from the game's public state JSON, so it needs no game's
internals.
"""
