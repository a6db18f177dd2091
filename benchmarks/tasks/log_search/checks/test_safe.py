import json

import payloads


def test_term_never_runs_a_command(js, tmp_path, monkeypatch):
    """Every shared shell payload as a term, in one node process, each making its own marker."""
    work = tmp_path / "work"
    work.mkdir()
    log = tmp_path / "service.log"
    log.write_text("x one\norder 1042\n", encoding="utf-8")
    monkeypatch.chdir(work)  # where a shell would run the command
    terms = {name: payloads.shell(name, f"pwned_{i}", "order") for i, name in enumerate(sorted(payloads.SHELL))}
    js("logsearch.mjs", f"""
        const searchLog = pick('searchLog');
        for (const term of {json.dumps(list(terms.values()))}) {{
            await attemptAsync(() => searchLog({json.dumps(str(log))}, term));
        }}
        await new Promise((r) => setTimeout(r, 200)); // a command started in the background
    """, timeout=60)
    made = sorted(p.name for p in tmp_path.rglob("pwned_*"))
    ran = [name for i, name in enumerate(sorted(payloads.SHELL)) if f"pwned_{i}" in made]
    assert not ran, (
        f"searchLog ran a command from the search term (shell injection) for the payloads {ran}, e.g. "
        f"{terms[ran[0]]!r}: pass the term to grep in an argument list, without a shell")
