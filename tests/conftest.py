"""Shared pytest setup: hypothesis profiles (CI runs more examples, never with deadlines)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_addoption(parser):
    parser.addoption("--regen-golden", action="store_true", default=False,
                     help="rewrite the golden PNGs from the current renderer (on purpose only)")
