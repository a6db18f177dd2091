import ipaddress
import json

import pytest
from payloads import SSRF_INTERNAL_HOSTS, ssrf_other_host

HOSTS = ["screens.example.com", ".hooks.example.org"]
OTHER = ssrf_other_host("screens.example.com", "hooks.example.org")
INTERNAL = [f"https://{h}/latest/meta-data/" for h in SSRF_INTERNAL_HOSTS] + [
    f"https://{h}:6379/" for h in ("127.0.0.1", "localhost", "[::1]")]

PROBE = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const { checkWebhookUrl } = await loadOther("src/webhooks.ts");
// the host a request to this URL would go to (what fetch's parser reads), or null
const target = (value) => {
  if (value === null || value === undefined) return null;
  try { return new URL(String(value.href ?? value)).hostname.toLowerCase().replace(/\\.$/, ""); } catch { return null; }
};
const out = [];
for (const [hosts, urls] of %CASES%) {
  for (const url of urls) {
    const direct = attempt(() => checkWebhookUrl(url, hosts));
    const store = new Store();
    store.addUser({ login: "root", role: "admin", token: "admin-token" });
    const room = store.addRoom({ name: "Ada", capacity: 6, opens: "08:00", closes: "18:00" });
    const app = createApp({ store, config: { webhookHosts: hosts } });
    await attemptAsync(() => app.handle({ method: "PUT", url: `/api/rooms/${room.id}/webhook`,
      headers: { authorization: "Bearer admin-token" }, body: JSON.stringify({ url }) }));
    out.push({ url, hosts, direct: direct.ok ? target(direct.value) : null, stored: target(store.getRoom(room.id).webhook) });
  }
}
return out;
"""


def allowed(host, hosts):
    return any(host == h or (h.startswith(".") and host.endswith(h) and host != h[1:]) for h in hosts)


def probe(ts_unchecked, cases):
    return ts_unchecked("src/app.ts", PROBE.replace("%CASES%", json.dumps(cases)), timeout=60)


def leaks(results):
    return [
        (r["url"], r["hosts"], where, host)
        for r in results
        for where, host in (("checkWebhookUrl returned it", r["direct"]), ("the route stored it", r["stored"]))
        if host is not None and not allowed(host, r["hosts"])
    ]


def test_urls_of_another_host_are_refused(ts_unchecked):
    found = leaks(probe(ts_unchecked, [[HOSTS, OTHER]]))
    assert not found, (
        f"{found[0][0]!r} with the allowlist {found[0][1]}: {found[0][2]}, but a request to it goes to "
        f"{found[0][3]!r}, which is not on the list (server-side request forgery); {len(found)} such. Parse the "
        "URL and compare its host name, not the URL's text, and match a suffix only after a dot")


@pytest.mark.parametrize("hosts", [HOSTS, []], ids=["allowlist", "empty-list"])
def test_internal_addresses_are_refused(ts_unchecked, hosts):
    found = leaks(probe(ts_unchecked, [[hosts, INTERNAL]]))
    assert not found, (
        f"{found[0][0]!r} with the allowlist {found[0][1]}: {found[0][2]}, so a booking would make the server "
        f"call {found[0][3]!r} inside its own network (server-side request forgery); {len(found)} such")


# Addresses an admin might list by mistake: the prompt says an IP address is never allowed, even then.
LISTED_ADDRESSES = ["127.0.0.1", "169.254.169.254", "10.0.0.5", "[::1]", "::1"]
ADDRESS_URLS = [f"https://{h}/latest/meta-data/" for h in ("127.0.0.1", "169.254.169.254", "10.0.0.5", "[::1]")] + [
    "https://0x7f.1/", "https://2130706433/", "https://127.1/", "https://0xa9fea9fe/"]


def is_address(host):
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def test_addresses_on_the_list_are_still_refused(ts_unchecked):
    found = [
        (r["url"], where, host)
        for r in probe(ts_unchecked, [[LISTED_ADDRESSES, ADDRESS_URLS]])
        for where, host in (("checkWebhookUrl returned it", r["direct"]), ("the route stored it", r["stored"]))
        if host is not None and is_address(host)
    ]
    assert not found, (
        f"{found[0][0]!r} with the allowlist {LISTED_ADDRESSES}: {found[0][1]}, so a booking would make the server "
        f"call the address {found[0][2]!r} (server-side request forgery: an IP address is never allowed, even "
        f"when listed); {len(found)} such")
