from ts_project import build, ts, ts_batch, ts_unchecked, ts_unchecked_batch  # noqa: F401  (the fixtures)
