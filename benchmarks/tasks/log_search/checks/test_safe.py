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


def test_term_never_makes_grep_read_other_files(js, tmp_path, monkeypatch):
    """A term read as grep's option (-r with the log's path as the pattern) searches the folder grep runs in."""
    work = tmp_path / "work"
    work.mkdir()
    log = tmp_path / "service.log"
    log.write_text("x one\norder 1042\n", encoding="utf-8")
    (work / "secrets.env").write_text(f"API_TOKEN=s3cr3t-7f1 {log}\n", encoding="utf-8")
    monkeypatch.chdir(work)
    terms = ["-r", "-R", "-rh", "--recursive"]
    got = js("logsearch.mjs", f"""
        const searchLog = pick('searchLog');
        const out = [];
        for (const term of {json.dumps(terms)}) out.push(await attemptAsync(() => searchLog({json.dumps(str(log))}, term)));
        return out;
    """, timeout=60)
    leaked = [t for t, r in zip(terms, got, strict=True) if "s3cr3t-7f1" in json.dumps(r)]
    assert not leaked, (
        f"searchLog returned lines of another file than the log for the terms {leaked}: grep read the term as "
        f"an option and searched the folder it runs in; pass the term after -e or --")
