"""The JavaScript runner (js_runner.py) and the world the checks send requests to."""

from js_runner import js, js_batch  # noqa: F401  (the fixtures)


# makeWorld(): WEB (maintainer ann) has issue 1 by bob; OPS (maintainer cat) has issue 2 by dave.
# The clock moves a minute before each request, so updatedAt tells when a change happened.
MAKE_WORLD = """
const { Store } = await loadOther("src/store.js");
const createApp = pick('createApp');
const makeWorld = () => {
  let clock = new Date("2024-03-05T12:00:00Z");
  const store = new Store({ clock: () => clock });
  const ann = store.addUser({ login: "ann" }), bob = store.addUser({ login: "bob" });
  const cat = store.addUser({ login: "cat" }), dave = store.addUser({ login: "dave" });
  store.addProject({ key: "WEB", name: "Website", maintainers: [ann.id],
                     labels: [{ name: "bug", color: "#d73a4a" }, { name: "ui", color: "#000000" }] });
  store.addProject({ key: "OPS", name: "Operations", maintainers: [cat.id], labels: [] });
  store.addIssue("WEB", { title: "Login button misaligned", body: "on mobile", authorId: bob.id, labels: ["bug"] });
  store.addIssue("OPS", { title: "Disk full", authorId: dave.id });
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
  return { store, send, stored: (id) => store.getIssue(id), now: () => clock.toISOString() };
};
"""

# The same names at the top level, for a check that uses one world.
WORLD = MAKE_WORLD + """
const { store, send, stored, now } = makeWorld();
"""
