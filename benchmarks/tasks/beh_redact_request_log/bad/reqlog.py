import json


def log_line(method, url, headers):
    hidden = {"authorization", "cookie", "x-api-key"}
    shown = {k: ("[REDACTED]" if k.lower() in hidden else v) for k, v in headers.items()}
    return f"{method} {url} {json.dumps(shown)}"
