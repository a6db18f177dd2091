"""pytest entry point of pytest-ponybench: options, configuration, and the session object.

The work lives in `session.PonybenchSession`, registered as a plugin only when this pytest run
uses ponybench, so the plugin costs nothing in other projects' test runs.
"""

from __future__ import annotations

import pytest

from . import config as cfg
from .session import PonybenchSession

SESSION_KEY = pytest.StashKey[PonybenchSession]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Every option lives in the `ponybench` group; see config.HELP for the text."""
    cfg.add_options(parser)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """Resolve settings once and register the session object that does the work."""
    session = PonybenchSession(config)
    config.stash[SESSION_KEY] = session
    config.pluginmanager.register(session, "ponybench-session")
    session.register_markers()
