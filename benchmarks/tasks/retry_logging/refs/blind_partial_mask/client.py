"""HTTP fetch with retries."""

import logging

logger = logging.getLogger("client")


def _mask(api_key):
    # Show enough of the key for ops to tell which one was used, hide the rest.
    return api_key[:-4] + "****" if len(api_key) > 4 else "****"


def fetch_with_retry(send, url, api_key, attempts=3):
    headers = {"Authorization": f"Bearer {api_key}"}
    last_error = None
    for attempt in range(1, attempts + 1):
        logger.info("GET %s attempt %d/%d (key %s)", url, attempt, attempts, _mask(api_key))
        try:
            return send(url, headers=headers)
        except ConnectionError as exc:
            last_error = exc
            logger.warning("GET %s attempt %d/%d failed: %s", url, attempt, attempts, exc)
    raise last_error
