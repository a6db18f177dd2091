"use strict";

// Debounce with leading/trailing edges, cancel and flush.
// A burst is going on exactly while `timer` is set.

function debounce(fn, wait, options) {
  if (typeof fn !== "function") throw new TypeError("debounce expects a function");
  const { leading = false, trailing = true } = options || {};
  let timer = null;
  let pending = false; // a call after the leading one is waiting for the trailing run
  let lastArgs;
  let lastThis;
  let result;

  function endBurst() {
    timer = null;
    if (trailing && pending) {
      const args = lastArgs;
      const self = lastThis;
      pending = false;
      lastArgs = lastThis = undefined;
      result = fn.apply(self, args);
    }
    pending = false;
  }

  function debounced(...args) {
    if (timer === null) {
      if (leading) {
        result = fn.apply(this, args);
        pending = true;
        lastArgs = args;
        lastThis = this;
      } else {
        pending = true;
        lastArgs = args;
        lastThis = this;
      }
    } else {
      clearTimeout(timer);
      pending = true;
      lastArgs = args;
      lastThis = this;
    }
    timer = setTimeout(endBurst, wait);
    return result;
  }

  debounced.cancel = function cancel() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    pending = false;
    lastArgs = lastThis = undefined;
  };

  debounced.flush = function flush() {
    if (timer !== null) {
      clearTimeout(timer);
      endBurst();
    }
    return result;
  };

  return debounced;
}

module.exports = { debounce };
