import logging

logger = logging.getLogger("client")


def _redacted(headers):
    return {k: ("Bearer ***" if k.lower() == "authorization" else v) for k, v in headers.items()}


def fetch_with_retry(send, url, api_key, attempts=3):
    headers = {"Authorization": "Bearer " + api_key}
    attempt = 0
    while True:
        attempt += 1
        logger.debug("attempt %s of %s: GET %s %s", attempt, attempts, url, _redacted(headers))
        try:
            return send(url, headers=headers)
        except ConnectionError:
            logger.exception("GET %s failed on attempt %s", url, attempt)
            if attempt >= attempts:
                raise
