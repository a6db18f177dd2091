"""The JavaScript runner (js_runner.py) and the world the checks send requests to."""

from js_runner import js, js_batch  # noqa: F401  (the fixtures)


# makeWorld(): WEB (maintainer ann) has issue 1 by bob, OPS (maintainer cat) issue 2 by dave.
# Comments: 1 by dave on issue 1, 2 by bob on issue 1, 3 by ann on issue 2. The clock moves a
# minute before each request, so editedAt tells when a change happened.
MAKE_WORLD = """
const { Store } = await loadOther("src/store.js");
const createApp = pick('createApp');
const makeWorld = () => {
  let clock = new Date("2024-03-05T12:00:00Z");
  const store = new Store({ clock: () => clock });
  const ann = store.addUser({ login: "ann" }), bob = store.addUser({ login: "bob" });
  const cat = store.addUser({ login: "cat" }), dave = store.addUser({ login: "dave" });
  store.addProject({ key: "WEB", name: "Website", maintainers: [ann.id], labels: [] });
  store.addProject({ key: "OPS", name: "Operations", maintainers: [cat.id], labels: [] });
  store.addIssue("WEB", { title: "Login button misaligned", authorId: bob.id });
  store.addIssue("OPS", { title: "Disk full", authorId: dave.id });
  store.addComment(1, { authorId: dave.id, body: "Same heer on Firefox" });
  store.addComment(1, { authorId: bob.id, body: "Screenshot attached" });
  store.addComment(2, { authorId: ann.id, body: "Rotated the logs" });
  const tokens = { ann: store.issueToken(ann.id), bob: store.issueToken(bob.id),
                   cat: store.issueToken(cat.id), dave: store.issueToken(dave.id) };
  const app = createApp({ store });
  const send = async (method, url, who, body) => {
    clock = new Date(clock.getTime() + 60000);
    const headers = who === null ? {} : { authorization: `Bearer ${tokens[who] ?? who}` };
    const r = await app.handle({ method, url, headers, body: typeof body === "string" ? body : JSON.stringify(body) });
    let data = String(r.body ?? "");
    try { data = JSON.parse(data); } catch {}
    return { status: r.status, body: data };
  };
  return { store, send, stored: (id) => store.getComment(id) ?? null, now: () => clock.toISOString() };
};
"""

# The same names at the top level, for a check that uses one world.
WORLD = MAKE_WORLD + """
const { store, send, stored, now } = makeWorld();
"""
