"""The pytest roles: pytest objects only (options registered and read, the plan's pytest side,
collection, the controller, the runner, the terminal, the selftest's items), each module an
importer of pytest; what a run settles without pytest lives in plan/.
"""
