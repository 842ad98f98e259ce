"""The table companion: a Raspberry Pi box for airline board games.

The package is laid out as DESIGN.md describes: ``core``, ``games``, ``protocol`` and ``ui``
are pure; ``adapters`` touch hardware, files and the OS; ``bootstrap`` wires them together.
"""

__version__ = "0.1.0"
