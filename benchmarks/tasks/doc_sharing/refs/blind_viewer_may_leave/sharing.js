"use strict";
// Who may see or edit a document: what the share dialog calls.

class ForbiddenError extends Error {
  constructor(message = "not allowed") {
    super(message);
    this.name = "ForbiddenError";
  }
}

const ROLES = ["editor", "viewer"];
const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

/** "owner", "editor", "viewer" or null (no access). */
function accessOf(doc, name) {
  if (name === doc.owner) return "owner";
  return hasOwn(doc.members, name) ? doc.members[name] : null;
}

function grant(doc, user, role) {
  if (role === null) {
    delete doc.members[user];
  } else {
    Object.defineProperty(doc.members, user, { value: role, writable: true, enumerable: true, configurable: true });
  }
}

/**
 * `actor` sets `user`'s access to `doc` to `role` ("editor", "viewer", or null to take it away).
 * Changes `doc` in place; throws ForbiddenError (doc untouched) when the rules do not allow it.
 */
function setAccess(doc, actor, user, role) {
  if (role !== null && !ROLES.includes(role)) throw new TypeError(`role must be "editor", "viewer" or null`);
  if (typeof user !== "string" || user === "") throw new ForbiddenError("no such user");
  if (user === doc.owner) throw new ForbiddenError("nobody changes the owner's access");

  // Anyone with access may leave the document.
  if (role === null && user === actor && hasOwn(doc.members, actor)) {
    grant(doc, user, null);
    return;
  }

  const mine = accessOf(doc, actor);
  if (mine === "owner") {
    grant(doc, user, role);
    return;
  }
  if (mine === "editor") {
    // An editor may invite a viewer.
    if (role === "viewer" && accessOf(doc, user) === null) {
      grant(doc, user, role);
      return;
    }
  }
  throw new ForbiddenError(`${actor} may not change ${user}'s access`);
}

module.exports = { setAccess, ForbiddenError };
