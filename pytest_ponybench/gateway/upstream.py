"""Where the gateway sends a request, and with which credential.

An `Upstream` is a base URL and the headers that authenticate there: the offline server's cell
URL (no credential), or the Anthropic API with the harness's own key or the logged-in user's
OAuth token (`from_environment`). The credential lives here, on the harness's side, and is put
on each request as it leaves; nothing in a cell ever holds it.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

__all__ = [
    "ANTHROPIC_API",
    "CREDENTIALS_FILE",
    "OAUTH_BETA",
    "Upstream",
    "from_environment",
    "proxy_for",
]

ANTHROPIC_API = "https://api.anthropic.com"
CREDENTIALS_FILE = ".claude/.credentials.json"
OAUTH_BETA = "oauth-2025-04-20"  # the beta an OAuth token's requests carry


@dataclass(frozen=True)
class Upstream:
    """A base URL (its path is kept as a prefix) and the headers that authenticate there."""

    base_url: str
    headers: tuple[tuple[str, str], ...] = ()
    beta: str | None = None  # added to the request's anthropic-beta
    timeout_s: float = 600.0
    credential: str = "none"  # which kind, for the header line: none, api key, auth token, oauth

    def target(self, path: str) -> tuple[str, str, int, str]:
        """(scheme, host, port, path) of a request path under the base URL."""
        url = urlsplit(self.base_url)
        scheme = url.scheme or "http"
        port = url.port or (443 if scheme == "https" else 80)
        return scheme, url.hostname or "127.0.0.1", port, url.path.rstrip("/") + path

    @property
    def local(self) -> bool:
        return urlsplit(self.base_url).hostname in ("127.0.0.1", "localhost", "::1")


def _oauth_token(home: Path) -> str | None:
    try:
        data = json.loads((home / CREDENTIALS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    oauth = data.get("claudeAiOauth") if isinstance(data, dict) else None
    token = oauth.get("accessToken") if isinstance(oauth, dict) else None
    return token if isinstance(token, str) and token else None


def from_environment(env: Mapping[str, str] | None = None, timeout_s: float = 600.0) -> Upstream | None:
    """The Anthropic API as the harness's environment reaches it: its base URL
    (ANTHROPIC_BASE_URL, else the API's), and the first credential found of an API key, an auth
    token, an OAuth token, or the logged-in user's credentials file; None when there is none."""
    env = os.environ if env is None else env
    base = env.get("ANTHROPIC_BASE_URL") or ANTHROPIC_API
    if key := env.get("ANTHROPIC_API_KEY"):
        return Upstream(base, (("x-api-key", key),), timeout_s=timeout_s, credential="api key")
    if token := env.get("ANTHROPIC_AUTH_TOKEN"):
        return Upstream(
            base, (("authorization", f"Bearer {token}"),), timeout_s=timeout_s, credential="auth token"
        )
    token = env.get("CLAUDE_CODE_OAUTH_TOKEN") or _oauth_token(Path(env.get("HOME", str(Path.home()))))
    if token:
        headers = (("authorization", f"Bearer {token}"),)
        return Upstream(base, headers, beta=OAUTH_BETA, timeout_s=timeout_s, credential="oauth")
    return None


def proxy_for(scheme: str, host: str) -> tuple[str, int] | None:
    """The harness's HTTP(S) proxy for host, honouring no_proxy."""
    if urllib.request.proxy_bypass(host):
        return None
    proxy = urllib.request.getproxies().get(scheme)
    if not proxy:
        return None
    url = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    return (url.hostname or "", url.port or 8080) if url.hostname else None
