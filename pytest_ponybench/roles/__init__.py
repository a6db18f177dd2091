"""The pytest roles: the only modules that import pytest (options, plan, collection, the
controller, the runner, the terminal, the selftest).
"""
