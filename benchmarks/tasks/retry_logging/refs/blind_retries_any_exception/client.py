"""HTTP fetch with retries."""

import logging

logger = logging.getLogger("client")


def fetch_with_retry(send, url, api_key, attempts=3):
    headers = {"Authorization": f"Bearer {api_key}"}
    last = None
    for attempt in range(1, attempts + 1):
        logger.info("attempt %d/%d: GET %s", attempt, attempts, url)
        try:
            return send(url, headers=headers)
        except Exception as exc:  # network errors and anything else transient
            last = exc
            logger.warning("attempt %d/%d failed: %s: %s", attempt, attempts, type(exc).__name__, exc)
    raise last
