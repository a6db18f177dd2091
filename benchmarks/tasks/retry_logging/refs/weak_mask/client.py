import logging

log = logging.getLogger("client")


def fetch_with_retry(send, url, api_key, attempts=3):
    headers = {"Authorization": f"Bearer {api_key}"}
    masked = api_key[:-4] + "****"
    for attempt in range(1, attempts + 1):
        log.info("GET %s with key %s (attempt %d/%d)", url, masked, attempt, attempts)
        try:
            return send(url, headers=headers)
        except ConnectionError as exc:
            log.warning("attempt %d failed: %s", attempt, exc)
            if attempt == attempts:
                raise
