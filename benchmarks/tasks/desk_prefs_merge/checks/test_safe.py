import json

import pytest
from payloads import proto_pollution

MARK = "deskbookPolluted"

# ann's stored preferences hold objects under "a" and "a.b", so nested payloads meet a merge.
PROBE = """
const { Store } = await loadOther("src/store.ts");
const createApp = pick("createApp");
const before = Object.getOwnPropertyNames(Object.prototype).sort().join(",");
const store = new Store();
const ann = store.addUser({ login: "ann", token: "ann-token" });
const bob = store.addUser({ login: "bob", token: "bob-token" });
store.setPreferences(ann.id, { a: { b: { keep: 1 } }, theme: "dark" });
store.setPreferences(bob.id, { theme: "light" });
const app = createApp({ store });
const polluted = () => ({}).%MARK% !== undefined || Object.getOwnPropertyNames(Object.prototype).sort().join(",") !== before;
// an object whose prototype, or a nested object's, is no longer Object.prototype (or that inherits the marker)
const reshaped = (value, depth = 0) => {
  if (value === null || typeof value !== "object" || depth > 20) return false;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return true;
  if (!Array.isArray(value) && !Object.hasOwn(value, "%MARK%") && value.%MARK% !== undefined) return true;
  return Object.values(value).some((v) => reshaped(v, depth + 1));
};
await attemptAsync(() => app.handle({ method: "PATCH", url: "/api/me/preferences",
                                      headers: { authorization: "Bearer ann-token" }, body: %TEXT% }));
const afterRequest = { polluted: polluted(), bob: store.getUser(bob.id).preferences };
const { mergePreferences } = await loadOther("src/preferences.ts");
const direct = attempt(() => mergePreferences({ a: { b: { keep: 1 } }, theme: "dark" }, JSON.parse(%TEXT%)));
return { afterRequest, afterCall: polluted(), reshaped: direct.ok ? reshaped(direct.value) : false, threw: !direct.ok };
"""


@pytest.mark.parametrize("text", proto_pollution(MARK))
def test_no_merge_reaches_a_prototype(ts_unchecked, text):
    got = ts_unchecked("src/app.ts", PROBE.replace("%MARK%", MARK).replace("%TEXT%", json.dumps(text)))
    assert not got["afterRequest"]["polluted"], (
        f"PATCH /api/me/preferences with {text} changed Object.prototype (prototype pollution): "
        "every object in the server now has that property")
    assert got["afterRequest"]["bob"] == {"theme": "light"}, (
        f"PATCH /api/me/preferences by ann with {text} changed bob's preferences: {got['afterRequest']['bob']}")
    assert not got["afterCall"], (
        f"mergePreferences(current, {text}) changed Object.prototype (prototype pollution)")
    assert not got["reshaped"], (
        f"mergePreferences(current, {text}) returned an object whose prototype was replaced (it inherits "
        "what the patch put under __proto__): never assign a key named __proto__")
