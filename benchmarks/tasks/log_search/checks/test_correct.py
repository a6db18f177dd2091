import json

LOG = [
    "2026-03-01 10:00:01 INFO order 1042 paid by ann@example.com",
    "2026-03-01 10:00:02 ERROR payment failed: card declined (order 1043)",
    "2026-03-01 10:00:03 error lowercase line for order 1044",
    "2026-03-01 10:00:04 DEBUG started with --verbose -v",
    "2026-03-01 10:00:05 INFO price is $HOME$5 today; say \"hi\" it's 50% off",
    "2026-03-01 10:00:06 WARN a.b and axb and [x] and x and ^start and end$",
    "2026-03-01 10:00:07 INFO shell bits: a && b | c > d < e `id` $(id) back\\slash",
    "2026-03-01 10:00:08 INFO order 10420 refunded",
    "2026-03-01 10:00:09 INFO café crème commandé",
]


def write_log(tmp_path, name="service.log", lines=LOG):
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def search_many(js, path, terms):
    """searchLog for each term, in one node process: {term: result}."""
    return js("logsearch.mjs", f"""
        const searchLog = pick('searchLog');
        const out = {{}};
        for (const term of {json.dumps(terms)}) out[term] = await searchLog({json.dumps(path)}, term);
        return out;
    """)


def expected(term, lines=LOG):
    return [line for line in lines if term in line]


def test_finds_lines_in_order(js, tmp_path):
    got = search_many(js, write_log(tmp_path), ["order 1042", "INFO", "ann@example.com"])
    for term, lines in got.items():
        assert lines == expected(term), f"searchLog(log, {term!r}) gave {lines!r}, expected {expected(term)!r}"


def test_term_is_plain_text(js, tmp_path):
    terms = ["a.b", "[x]", "^start", "end$", "x*", "(order 1043)", "a\\.b", "10:00:0."]
    got = search_many(js, write_log(tmp_path), terms)
    for term in terms:
        assert got[term] == expected(term), (
            f"searchLog(log, {term!r}) gave {got[term]!r}: the term is plain text, expected {expected(term)!r}")


def test_case_sensitive(js, tmp_path):
    got = search_many(js, write_log(tmp_path), ["ERROR", "error", "Café"])
    for term, lines in got.items():
        assert lines == expected(term), f"searchLog(log, {term!r}) gave {lines!r}, expected {expected(term)!r}"


def test_no_match_is_an_empty_array(js, tmp_path):
    got = search_many(js, write_log(tmp_path), ["order 9999", "no such text"])
    assert got == {"order 9999": [], "no such text": []}, f"a search without a match should give [], got {got!r}"


def test_terms_starting_with_a_dash(js, tmp_path):
    terms = ["--verbose", "-v", "-e", "--", "-"]
    got = search_many(js, write_log(tmp_path), terms)
    for term in terms:
        assert got[term] == expected(term), (
            f"searchLog(log, {term!r}) gave {got[term]!r}, expected {expected(term)!r}: a term starting with "
            "'-' is text to search for, not an option of grep")


def test_terms_with_shell_characters(js, tmp_path):
    terms = ['say "hi"', "it's", "$HOME$5", "today; say", "50% off", "a && b | c > d < e", "`id`", "$(id)",
             "back\\slash", "café crème"]
    got = search_many(js, write_log(tmp_path), terms)
    for term in terms:
        assert got[term] == expected(term), f"searchLog(log, {term!r}) gave {got[term]!r}, expected {expected(term)!r}"


def test_lines_have_no_line_ends(js, tmp_path):
    path = tmp_path / "last.log"
    path.write_text("first match\nsecond\nlast match", encoding="utf-8")
    got = search_many(js, str(path), ["match"])
    assert got["match"] == ["first match", "last match"], (
        f"searchLog should give the matching lines without line ends, got {got['match']!r}")


def test_log_name_with_spaces(js, tmp_path):
    got = search_many(js, write_log(tmp_path, "old logs (2026) service.log"), ["order 1042"])
    assert got["order 1042"] == expected("order 1042"), f"a log name with spaces gave {got!r}"


def test_missing_log_rejects(js, tmp_path):
    got = js("logsearch.mjs", f"""
        const searchLog = pick('searchLog');
        return await attemptAsync(() => searchLog({json.dumps(str(tmp_path / "missing.log"))}, "x"));
    """)
    assert got["ok"] is False and got.get("isError"), (
        f"searchLog on a missing log should reject with an Error, got {got!r}")
