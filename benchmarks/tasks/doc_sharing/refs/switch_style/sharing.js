class ForbiddenError extends Error {}

function setAccess(doc, actor, user, role) {
  if (!(role === null || role === "editor" || role === "viewer")) {
    throw new TypeError("role must be 'editor', 'viewer' or null");
  }
  const members = doc.members;
  const current = Object.hasOwn(members, user) ? members[user] : undefined;
  let ok;
  switch (actor === doc.owner ? "owner" : Object.hasOwn(members, actor) ? members[actor] : "none") {
    case "owner":
      ok = user !== doc.owner;
      break;
    case "editor":
      ok = user !== doc.owner && ((role === null && user === actor) || (role === "viewer" && current === undefined));
      break;
    default:
      ok = false;
  }
  if (!ok) throw new ForbiddenError("not allowed");
  if (role === null) delete members[user];
  else members[user] = role;
}

module.exports = { setAccess, ForbiddenError };
