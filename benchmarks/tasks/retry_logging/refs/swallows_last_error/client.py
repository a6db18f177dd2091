import logging

log = logging.getLogger("client")


def fetch_with_retry(send, url, api_key, attempts=3):
    headers = {"Authorization": f"Bearer {api_key}"}
    for attempt in range(1, attempts + 1):
        log.info("GET %s (attempt %d/%d)", url, attempt, attempts)
        try:
            return send(url, headers=headers)
        except ConnectionError as exc:
            log.warning("GET %s failed (attempt %d/%d): %s", url, attempt, attempts, exc)
    return None
