"""HTTP fetch with retries."""

import logging

logger = logging.getLogger("client")


def fetch_with_retry(send, url, api_key, attempts=3):
    headers = {"Authorization": f"Bearer {api_key}"}
    for attempt in range(1, attempts + 1):
        logger.info("GET %s: attempt %d of %d", url, attempt, attempts)
        try:
            return send(url, headers=headers)
        except ConnectionError as exc:
            logger.warning("GET %s: attempt %d failed: %s", url, attempt, exc)
    raise ConnectionError(f"GET {url} failed after {attempts} attempts")
