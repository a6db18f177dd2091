"""HTTP fetch with retries."""

import logging


def fetch_with_retry(send, url, api_key, attempts=3):
    headers = {"Authorization": f"Bearer {api_key}"}
    last_exc = None
    for n in range(attempts):
        logging.info("client: GET %s, attempt %d/%d", url, n + 1, attempts)
        try:
            return send(url, headers=headers)
        except ConnectionError as exc:
            last_exc = exc
            logging.warning("client: GET %s, attempt %d/%d failed: %s", url, n + 1, attempts, exc)
    raise last_exc
