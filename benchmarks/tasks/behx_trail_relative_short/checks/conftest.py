from js_runner import js, js_batch  # noqa: F401  (the fixtures)
