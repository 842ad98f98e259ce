"""The games: rules as data and pure functions, one module or package per game."""
