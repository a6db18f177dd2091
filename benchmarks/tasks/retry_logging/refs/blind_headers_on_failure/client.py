"""HTTP fetch with retries."""

import logging

log = logging.getLogger("client")


def fetch_with_retry(send, url, api_key, attempts=3):
    headers = {"Authorization": "Bearer " + api_key}
    error = None
    for attempt in range(1, attempts + 1):
        log.info("fetching %s (attempt %d of %d)", url, attempt, attempts)
        try:
            return send(url, headers=headers)
        except ConnectionError as exc:
            error = exc
            # Include the request so a failing call can be reproduced.
            log.error("attempt %d failed: %r (url=%s, headers=%s)", attempt, exc, url, headers)
    raise error
