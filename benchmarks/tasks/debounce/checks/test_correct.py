import pytest

# A fake clock in place of the global timers and Date.now, installed before debounce.js loads.
CLOCK = r"""
let now = 1_700_000_000_000;
let seq = 0;
const timers = new Map();
class FakeTimeout {
  constructor(cb, ms, args) { this.id = ++seq; this.cb = cb; this.ms = Math.max(0, Number(ms) || 0); this.args = args; this.at = now + this.ms; timers.set(this.id, this); }
  refresh() { this.at = now + this.ms; timers.set(this.id, this); return this; }
  ref() { return this; }
  unref() { return this; }
  hasRef() { return true; }
  [Symbol.toPrimitive]() { return this.id; }
}
globalThis.setTimeout = (cb, ms, ...args) => new FakeTimeout(cb, ms, args);
globalThis.clearTimeout = (t) => { if (t != null) timers.delete(typeof t === "object" ? t.id : Number(t)); };
Date.now = () => now;
globalThis.advance = (ms) => {
  const target = now + ms;
  for (;;) {
    let next = null;
    for (const t of timers.values()) if (t.at <= target && (!next || t.at < next.at || (t.at === next.at && t.id < next.id))) next = t;
    if (!next) break;
    timers.delete(next.id);
    now = next.at;
    next.cb(...next.args);
  }
  now = target;
};
"""

PRELUDE = r"""
const debounce = pick('debounce');
if (typeof debounce !== "function") throw new Error("debounce.js does not export a function debounce");
const calls = [];
const t0 = Date.now();
function fn(...args) { calls.push({ at: Date.now() - t0, args, self: this && this.name }); return "r" + calls.length; }
const seen = () => calls.map((c) => [c.at, ...c.args]);
"""


def run(js, body):
    return js("debounce.js", PRELUDE + body, setup=CLOCK)


def test_trailing_runs_wait_ms_after_the_only_call(js):
    got = run(js, """
        const d = debounce(fn, 100);
        d("a");
        const sync = seen();
        advance(99);
        const before = seen();
        advance(1);
        const at = seen();
        advance(500);
        return {sync, before, at, end: seen()};
    """)
    assert got["sync"] == [] and got["before"] == [], f"fn ran before the wait was over: {got}"
    assert got["at"] == [[100, "a"]], f"fn should run once, 100 ms after the call, with its arguments: {got['at']}"
    assert got["end"] == [[100, "a"]], f"fn ran again later: {got['end']}"


def test_every_call_restarts_the_wait(js):
    got = run(js, """
        const d = debounce(fn, 100);
        d(1); advance(50); d(2); advance(99); d(3);
        advance(99);
        const before = seen();
        advance(1);
        return {before, after: seen()};
    """)
    assert got["before"] == [], f"fn ran before 100 ms had passed since the last call: {got['before']}"
    assert got["after"] == [[249, 3]], (
        f"with calls at 0, 50 and 149 ms fn should run once at 249 ms with the last call's arguments, got {got['after']}")


def test_a_call_one_ms_later_ends_the_burst_one_ms_later(js):
    got = run(js, """
        const d = debounce(fn, 100);
        d(1); advance(1); d(2);
        advance(99);
        const before = seen();
        advance(1);
        return {before, after: seen()};
    """)
    assert got["before"] == [], f"with calls at 0 and 1 ms fn ran at 100 ms, before the burst's end: {got['before']}"
    assert got["after"] == [[101, 2]], (
        f"with calls at 0 and 1 ms fn should run once at 101 ms with the last call's arguments, got {got['after']}")


def test_separate_bursts_run_separately(js):
    got = run(js, """
        const d = debounce(fn, 100);
        d("a"); advance(100); d("b"); advance(100); d("c", "d"); advance(150);
        return seen();
    """)
    assert got == [[100, "a"], [200, "b"], [300, "c", "d"]], f"three bursts should give three runs: {got}"


def test_trailing_run_uses_the_last_calls_this(js):
    got = run(js, """
        const d = debounce(fn, 100);
        const first = { name: "first", d }, last = { name: "last", d };
        first.d(1); last.d(2);
        advance(100);
        return calls.map((c) => c.self);
    """)
    assert got == ["last"], f"the trailing run should use the last call's `this`, got {got}"


def test_return_value_is_the_latest_result(js):
    got = run(js, """
        const d = debounce(fn, 100);
        const r = [d(1)];
        advance(100);
        r.push(d(2));
        advance(100);
        r.push(d(3));
        return r;
    """)
    assert got[0] is None, f"before fn ever ran, d() should return undefined, got {got[0]!r}"
    assert got[1:] == ["r1", "r2"], f"d() should return the most recent run's result, got {got}"


def test_leading_runs_at_once_and_again_at_the_end(js):
    got = run(js, """
        const d = debounce(fn, 100, { leading: true });
        const r = [d("a")];
        const sync = seen();
        advance(30); r.push(d("b")); advance(30); r.push(d("c"));
        advance(99);
        const before = seen();
        advance(1);
        return {sync, before, after: seen(), r};
    """)
    assert got["sync"] == [[0, "a"]], f"with leading, the first call should run fn at once: {got['sync']}"
    assert got["before"] == [[0, "a"]], f"the trailing run came early: {got['before']}"
    assert got["after"] == [[0, "a"], [160, "c"]], (
        f"with leading and trailing, calls at 0, 30, 60 should run fn at 0 ('a') and 160 ('c'), got {got['after']}")
    assert got["r"] == ["r1", "r1", "r1"], f"each call should return the latest result, got {got['r']}"


def test_leading_single_call_runs_once(js):
    got = run(js, """
        const d = debounce(fn, 100, { leading: true });
        d("only");
        advance(1000);
        d("next");
        advance(1000);
        return seen();
    """)
    assert got == [[0, "only"], [1000, "next"]], (
        f"a burst of one call runs fn only at its start; two such bursts give {got}")


def test_leading_without_trailing(js):
    got = run(js, """
        const d = debounce(fn, 100, { leading: true, trailing: false });
        d(1); advance(50); d(2); advance(99); d(3);
        advance(99);
        const mid = seen();
        advance(1);
        d(4);
        advance(300);
        return {mid, end: seen()};
    """)
    assert got["mid"] == [[0, 1]], f"calls inside the burst must not run fn (leading only): {got['mid']}"
    assert got["end"] == [[0, 1], [249, 4]], (
        f"the burst ends 100 ms after its last call (149 ms), so the call at 249 ms starts a new one: {got['end']}")


def test_neither_edge_never_runs(js):
    got = run(js, """
        const d = debounce(fn, 100, { leading: false, trailing: false });
        d(1); advance(50); d(2); advance(500); d(3); advance(500);
        return seen();
    """)
    assert got == [], f"with leading and trailing false fn should never run, got {got}"


def test_options_default_to_trailing_only(js):
    got = run(js, """
        const d = debounce(fn, 100, {});
        d(1);
        const sync = seen();
        advance(100);
        const e = debounce(fn, 100, { leading: true, trailing: undefined });
        e(2); e(3); advance(100);
        return {sync, end: seen()};
    """)
    assert got["sync"] == [], f"by default fn must not run at the start of a burst: {got['sync']}"
    assert got["end"] == [[100, 1], [100, 2], [200, 3]], f"trailing is on unless set to false: {got['end']}"


def test_cancel_drops_the_pending_run(js):
    got = run(js, """
        const d = debounce(fn, 100);
        d(1); advance(50); d.cancel();
        advance(500);
        const after = seen();
        d(2); advance(99);
        const mid = seen();
        advance(1);
        return {after, mid, end: seen()};
    """)
    assert got["after"] == [], f"cancel() should drop the pending run: {got['after']}"
    assert got["mid"] == [] and got["end"] == [[650, 2]], (
        f"after cancel() a new burst waits its full 100 ms: {got['mid']} then {got['end']}")


def test_a_call_right_after_cancel_waits_its_full_time(js):
    got = run(js, """
        const d = debounce(fn, 100);
        d(1); advance(50); d.cancel(); d(2);
        advance(99);
        const early = seen();
        advance(1);
        return {early, end: seen()};
    """)
    assert got["early"] == [], f"the cancelled burst's timer still fired: {got['early']}"
    assert got["end"] == [[150, 2]], f"the call after cancel() should run 100 ms later: {got['end']}"


def test_cancel_ends_the_burst_for_leading(js):
    got = run(js, """
        const d = debounce(fn, 100, { leading: true });
        d(1); advance(10); d(2); d.cancel();
        advance(10); d(3);
        advance(500);
        return seen();
    """)
    assert got == [[0, 1], [20, 3]], (
        f"cancel() ends the burst, so the next call starts a new one and runs at once: {got}")


def test_flush_runs_now_and_ends_the_burst(js):
    got = run(js, """
        const d = debounce(fn, 100);
        d(1); advance(10); d(2);
        const r = d.flush();
        const now = seen();
        advance(500);
        const later = seen();
        d(3); advance(100);
        return {r, now, later, end: seen()};
    """)
    assert got["now"] == [[10, 2]], f"flush() should run fn now with the last call's arguments: {got['now']}"
    assert got["r"] == "r1", f"flush() should return what fn returned, got {got['r']!r}"
    assert got["later"] == [[10, 2]], f"after flush() the burst is over; fn ran again: {got['later']}"
    assert got["end"] == [[10, 2], [610, 3]], f"a later call starts a new burst: {got['end']}"


def test_flush_without_a_burst_does_nothing(js):
    got = run(js, """
        const d = debounce(fn, 100);
        const r0 = d.flush();
        d(1); advance(100);
        const r1 = d.flush();
        advance(100);
        return {r0: r0 === undefined ? null : r0, r1, calls: seen()};
    """)
    assert got["r0"] is None, f"flush() before any call should return undefined, got {got['r0']!r}"
    assert got["calls"] == [[100, 1]], f"flush() with no burst going on must not run fn: {got['calls']}"
    assert got["r1"] == "r1", f"flush() should return the latest result, got {got['r1']!r}"


def test_flush_after_a_lone_leading_call_does_not_run_again(js):
    got = run(js, """
        const d = debounce(fn, 100, { leading: true });
        d(1);
        const r = d.flush();
        advance(500);
        d(2);
        return {r, calls: seen()};
    """)
    assert got["calls"] == [[0, 1], [500, 2]], (
        f"flush() after a single leading call has nothing left to run, and ends the burst: {got['calls']}")
    assert got["r"] == "r1", f"flush() should return the latest result, got {got['r']!r}"


def test_two_debounced_functions_are_independent(js):
    got = run(js, """
        const a = debounce(fn, 100), b = debounce(fn, 50);
        a("a"); b("b");
        advance(50);
        const mid = seen();
        advance(50);
        return {mid, end: seen()};
    """)
    assert got["mid"] == [[50, "b"]] and got["end"] == [[50, "b"], [100, "a"]], (
        f"two debounced functions must keep their own timers: {got}")


def test_flush_ends_the_burst_for_leading(js):
    got = run(js, """
        const d = debounce(fn, 100, { leading: true });
        d(1); advance(10); d(2);
        d.flush();
        advance(10); d(3);
        const now = seen();
        advance(500);
        return {now, end: seen()};
    """)
    assert got["now"] == [[0, 1], [10, 2], [20, 3]], (
        f"flush() ends the burst, so the next call starts a new one and runs at once: {got['now']}")
    assert got["end"] == [[0, 1], [10, 2], [20, 3]], f"a lone leading call must not run again: {got['end']}"


def test_flush_and_cancel_keep_to_the_options(js):
    # flush() runs fn only "as the end of the burst would": with trailing false, never.
    got = run(js, """
        const n = debounce(fn, 100, { leading: false, trailing: false });
        n(1); advance(10); n(2);
        const rn = n.flush();
        const l = debounce(fn, 100, { leading: true, trailing: false });
        l(3); advance(10); l(4);
        const rl = l.flush();
        const flushed = seen();
        advance(10); l(5);
        l.cancel(); advance(10); l(6);
        advance(500);
        return {rn: rn === undefined ? null : rn, rl, flushed, end: seen()};
    """)
    assert got["flushed"] == [[10, 3]], (
        f"with trailing false, flush() must not run fn (the end of a burst would not): {got['flushed']}")
    assert got["rn"] is None and got["rl"] == "r1", (
        f"flush() returns the latest result (undefined, then r1), got {got['rn']!r} and {got['rl']!r}")
    assert got["end"] == [[10, 3], [30, 5], [40, 6]], (
        f"flush() and cancel() end the burst, so the next leading call runs at once: {got['end']}")


def test_leading_run_uses_its_own_this(js):
    got = run(js, """
        const d = debounce(fn, 100, { leading: true });
        const first = { name: "first", d }, last = { name: "last", d };
        first.d(1); last.d(2);
        advance(100);
        return calls.map((c) => c.self);
    """)
    assert got == ["first", "last"], (
        f"the leading run uses the first call's `this`, the trailing run the last call's, got {got}")
