import json

import pytest

HOSTS = ["screens.example.com", ".hooks.example.org"]

# Ada (room 4); an admin (token admin-token) and ann (ann-token); webhookHosts from the test.
WORLD = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const world = (hosts) => {
  const store = new Store({ clock: () => new Date("2024-03-04T08:00:00Z") });
  store.addUser({ login: "ann", token: "ann-token" });
  store.addUser({ login: "root", role: "admin", token: "admin-token" });
  store.addRoom({ name: "Ada", capacity: 6, opens: "08:00", closes: "18:00", webhook: "https://screens.example.com/old" });
  const app = createApp({ store, config: hosts === undefined ? {} : { webhookHosts: hosts } });
  const put = async (url, token = "admin-token") => {
    const r = await app.handle({ method: "PUT", url: "/api/rooms/3/webhook", headers: { authorization: `Bearer ${token}` },
                                 body: JSON.stringify({ url }) });
    let body = r.body;
    try { body = JSON.parse(r.body); } catch {}
    return { status: r.status, body, stored: store.getRoom(3).webhook };
  };
  return { store, put };
};
const check = async (url, hosts) => {
  const { checkWebhookUrl } = await loadOther("src/webhooks.ts");
  const got = attempt(() => checkWebhookUrl(url, hosts));
  if (!got.ok) return { threw: got.message };
  return { value: got.value === null ? null : got.value === undefined ? "undefined" : String(got.value.href ?? got.value) };
};
"""

ACCEPTED = {
    "https://screens.example.com/ada": "https://screens.example.com/ada",
    "HTTPS://SCREENS.Example.COM/Ada": "https://screens.example.com/Ada",
    "https://screens.example.com:8443/x?room=ada&y=1": "https://screens.example.com:8443/x?room=ada&y=1",
    "https://screens.example.com./ada": "https://screens.example.com./ada",
    "https://a.hooks.example.org/": "https://a.hooks.example.org/",
    "https://a.b.hooks.example.org/p/q": "https://a.b.hooks.example.org/p/q",
    "https://Deep.A.Hooks.Example.Org.": "https://deep.a.hooks.example.org./",
    # a DNS name whose first labels are numbers: the parser reads it as a name, not an address
    "https://1.2.3.4.hooks.example.org/": "https://1.2.3.4.hooks.example.org/",
}
REFUSED = [
    "http://screens.example.com/ada", "ftp://screens.example.com/", "wss://screens.example.com/",
    "https://hooks.example.org/", "https://hooks.example.org./", "https://x.screens.example.com/",
    "https://user@screens.example.com/", "https://:secret@screens.example.com/", "https://u:p@a.hooks.example.org/",
    "https://screens.example.com../", "not a url", "", "screens.example.com", "//screens.example.com/",
    "https://screens.example.co/", "https://example.com/",
]


@pytest.fixture(scope="module")
def verdicts(ts_batch):
    urls = list(ACCEPTED) + REFUSED
    return ts_batch("src/app.ts", WORLD + f"""
        const out = {{}};
        for (const url of {json.dumps(urls)}) out[url] = await check(url, {json.dumps(HOSTS)});
        return out;
    """)


def test_the_workspace_type_checks(build):
    assert build.error is None, f"the workspace does not type-check (tsc -p .): {build.error}"


@pytest.mark.parametrize("url", list(ACCEPTED))
def test_allowed_urls_are_accepted(verdicts, url):
    got = verdicts[url]
    assert "threw" not in got, f"checkWebhookUrl({url!r}, {HOSTS}) threw: {got['threw']}"
    assert got["value"] == ACCEPTED[url], (
        f"checkWebhookUrl({url!r}, {HOSTS}) should return the parsed URL ({ACCEPTED[url]}), got {got['value']!r}")


@pytest.mark.parametrize("url", REFUSED)
def test_other_urls_are_null(verdicts, url):
    got = verdicts[url]
    assert got == {"value": None}, f"checkWebhookUrl({url!r}, {HOSTS}) should be null, got {got}"


@pytest.mark.parametrize("url, hosts", [
    ("https://10.0.0.5/", ["10.0.0.5", ".example.com"]),
    ("https://167772165/", ["10.0.0.5"]),
    ("https://0xa.0.0.5/", ["10.0.0.5"]),
    ("https://[::1]/", ["[::1]", "::1"]),
    ("https://[fd00::5]/hook", ["[fd00::5]", "fd00::5"]),
    ("https://screens.example.com/", []),
])
def test_addresses_and_an_empty_list_allow_nothing(ts, url, hosts):
    got = ts("src/app.ts", WORLD + f"return await check({json.dumps(url)}, {json.dumps(hosts)});")
    assert got == {"value": None}, f"checkWebhookUrl({url!r}, {hosts}) should be null, got {got}"


def test_the_route_uses_the_configured_list(ts):
    got = ts("src/app.ts", WORLD + f"""
        const w = world({json.dumps(HOSTS)});
        return [await w.put("https://A.hooks.example.org/ada?x=1"), await w.put("http://screens.example.com/"),
                await w.put("https://user@screens.example.com/"), await w.put(42),
                await w.put("https://screens.example.com/new", "ann-token"), await w.put(null)];
    """)
    ok, http, creds, number, member, removed = got
    assert ok["status"] == 200 and ok["stored"] == "https://a.hooks.example.org/ada?x=1", (
        f"PUT an allowed URL should store the parsed URL's href and answer 200, got {ok}")
    assert isinstance(ok["body"], dict) and ok["body"].get("webhook") == "https://a.hooks.example.org/ada?x=1", (
        f"the route answers the room, as today: {ok['body']}")
    for r, what in ((http, "an http URL"), (creds, "a URL with a user name"), (number, "a number")):
        assert r["status"] == 400, f"PUT {what} should be a 400, got {r['status']} {r['body']!r}"
        assert isinstance(r["body"], dict) and isinstance(r["body"].get("error"), str), r["body"]
        assert r["stored"] == "https://a.hooks.example.org/ada?x=1", f"a refused PUT changed the webhook: {r['stored']}"
    assert member["status"] == 403, f"only an admin sets a webhook: {member}"
    assert removed["status"] == 200 and removed["stored"] is None, f"{{\"url\": null}} removes the webhook: {removed}"


def test_the_default_configuration_allows_nothing(ts):
    got = ts("src/app.ts", WORLD + """
        const w = world(undefined);
        return await w.put("https://screens.example.com/ada");
    """)
    assert got["status"] == 400 and got["stored"] == "https://screens.example.com/old", (
        f"with no DESKBOOK_WEBHOOK_HOSTS (an empty list) every webhook URL is a 400, got {got}")
