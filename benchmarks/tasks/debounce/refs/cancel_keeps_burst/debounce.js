"use strict";

function debounce(fn, wait, { leading = false, trailing = true } = {}) {
  let timer = null;
  let pendingArgs = null; // the last call's arguments, when it has not run yet
  let pendingThis;
  let result;

  function run(self, args) {
    result = fn.apply(self, args);
  }

  function end() {
    timer = null;
    if (trailing && pendingArgs) {
      const args = pendingArgs;
      pendingArgs = null;
      run(pendingThis, args);
    }
    pendingArgs = null;
  }

  function debounced(...args) {
    const starts = timer === null;
    if (!starts) clearTimeout(timer);
    timer = setTimeout(end, wait);
    if (starts && leading) {
      pendingArgs = null;
      run(this, args);
    } else {
      pendingArgs = args;
      pendingThis = this;
    }
    return result;
  }

  debounced.cancel = () => {
    clearTimeout(timer);
    pendingArgs = null;
  };

  debounced.flush = () => {
    if (timer !== null) {
      clearTimeout(timer);
      end();
    }
    return result;
  };

  return debounced;
}

module.exports = { debounce };
