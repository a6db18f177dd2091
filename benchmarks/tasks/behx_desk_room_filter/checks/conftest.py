from ts_project import build, ts, ts_batch, ts_unchecked  # noqa: F401  (the fixtures)
