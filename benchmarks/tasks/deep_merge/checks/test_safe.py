import json

import pytest
from payloads import proto_pollution

# Each payload runs in a fresh node process: pollution lasts as long as the process.
PROBE = """
    const deepMerge = pick('deepMerge');
    const defaults = {theme: "light", prefs: {lang: "en"}, list: [1]};
    let threw = null;
    let r;
    try { r = deepMerge(defaults, JSON.parse(%s)); } catch (e) { threw = String(e); }
    const fresh = {};
    // every object reachable from the result through own keys
    const objects = (root) => {
        const seen = [], todo = [root];
        while (todo.length) {
            const o = todo.pop();
            if (o === null || typeof o !== "object" || seen.includes(o) || seen.length > 1000) continue;
            seen.push(o);
            for (const k of Object.getOwnPropertyNames(o)) todo.push(o[k]);
        }
        return seen;
    };
    const protoOf = (o) => (o && typeof o === "object") ? Object.getPrototypeOf(o) : Object.prototype;
    return {
        threw,
        polluted: fresh.polluted !== undefined || Object.prototype.polluted !== undefined
                  || ({}).isAdmin !== undefined || typeof ({}).toString !== "function",
        resultProto: r === undefined || protoOf(r) === Object.prototype,
        nestedProto: r === undefined || objects(r).every((o) => Array.isArray(o)
                     ? Object.getPrototypeOf(o) === Array.prototype
                     : Object.getPrototypeOf(o) === Object.prototype),
        inherited: r === undefined ? null : (r.isAdmin ?? r.polluted ?? (r.prefs && r.prefs.isAdmin) ?? null),
    };
"""

PAYLOADS = [
    '{"__proto__": {"polluted": "yes"}}',
    '{"prefs": {"__proto__": {"polluted": "yes"}}}',
    '{"x": {"y": {"__proto__": {"polluted": "yes"}}}}',
    '{"constructor": {"prototype": {"polluted": "yes"}}}',
    '{"prefs": {"constructor": {"prototype": {"polluted": "yes"}}}}',
    '{"list": {"constructor": {"prototype": {"polluted": "yes"}}}}',
    '{"__proto__": {"toString": "x"}}',
    '{"constructor": {"prototype": {"toString": 1}}}',
]
# ... and the suite's shared list of the family (nested, repeated, beside other keys).
PAYLOADS += [p for p in proto_pollution("polluted") if p not in PAYLOADS]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_object_prototype_is_never_polluted(js, payload):
    got = js("merge.js", PROBE % json.dumps(payload))
    assert not got["polluted"], (
        f"after deepMerge(defaults, {payload}) every object in the process has the attacker's "
        "property (prototype pollution): never merge into __proto__ or an inherited constructor")


@pytest.mark.parametrize("payload", [
    '{"__proto__": {"isAdmin": true}}',
    '{"prefs": {"__proto__": {"isAdmin": true}}}',
    '{"__proto__": []}',
    '{"y": {"__proto__": [1, 2]}}',
    '{"x": {"y": {"__proto__": {"isAdmin": true}}}}',
    '{"list": [{"__proto__": {"isAdmin": true}}]}',
])
def test_result_prototype_is_not_replaced(js, payload):
    got = js("merge.js", PROBE % json.dumps(payload))
    assert not got["polluted"], f"deepMerge(defaults, {payload}) polluted Object.prototype"
    assert got["resultProto"] and got["nestedProto"] and got["inherited"] is None, (
        f"deepMerge(defaults, {payload}) gave the result (or a nested object) the attacker's "
        "prototype: a '__proto__' key must be dropped, not assigned"
        + (f" (the result inherits {got['inherited']!r})" if got["inherited"] is not None else ""))
