"use strict";

class ForbiddenError extends Error {
  constructor(message) {
    super(message);
    this.name = "ForbiddenError";
  }
}

const ROLES = new Set(["editor", "viewer"]);
const has = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);

// The actor's role in the document: "owner", "editor", "viewer" or null.
function roleOf(doc, name) {
  if (name === doc.owner) return "owner";
  return has(doc.members, name) ? doc.members[name] : null;
}

function allowed(doc, actor, user, role) {
  if (user === doc.owner) return false; // nobody changes the owner's access
  const mine = roleOf(doc, actor);
  if (mine === "owner") return true;
  if (mine === "editor") {
    if (role === null) return user === actor; // leave the document
    return role === "viewer" && roleOf(doc, user) === null;
  }
  return false;
}

function setAccess(doc, actor, user, role) {
  if (!allowed(doc, actor, user, role)) {
    throw new ForbiddenError(`${actor} may not set ${user}'s access to ${role}`);
  }
  if (role !== null && !ROLES.has(role)) throw new TypeError(`unknown role: ${String(role)}`);
  if (role === null) delete doc.members[user];
  else doc.members[user] = role;
}

module.exports = { setAccess, ForbiddenError };
