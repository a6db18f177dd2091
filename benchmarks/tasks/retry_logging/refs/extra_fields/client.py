import logging

log = logging.getLogger("client")


def fetch_with_retry(send, url, api_key, attempts=3):
    headers = {"Authorization": f"Bearer {api_key}"}
    for attempt in range(1, attempts + 1):
        log.info("GET %s (attempt %d)", url, attempt, extra={"request_headers": headers})
        try:
            return send(url, headers=headers)
        except ConnectionError as exc:
            log.warning("GET %s failed: %s", url, exc, extra={"request_headers": headers})
            if attempt == attempts:
                raise
