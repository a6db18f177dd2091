// Debounce in the style of lodash: one timer, re-armed for the time still left.
function debounce(fn, wait, options = {}) {
  const leading = !!options.leading;
  const trailing = options.trailing === undefined ? true : !!options.trailing;
  let lastArgs;
  let lastThis;
  let lastCallTime;
  let timerId;
  let result;

  function invoke() {
    const args = lastArgs;
    const self = lastThis;
    lastArgs = lastThis = undefined;
    result = fn.apply(self, args);
    return result;
  }

  function remaining(time) {
    return wait - (time - lastCallTime);
  }

  function timerExpired() {
    const time = Date.now();
    if (remaining(time) > 0) {
      timerId = setTimeout(timerExpired, remaining(time));
      return;
    }
    timerId = undefined;
    if (trailing && lastArgs) invoke();
    lastArgs = lastThis = undefined;
  }

  function debounced(...args) {
    const time = Date.now();
    lastArgs = args;
    lastThis = this;
    lastCallTime = time;
    if (timerId === undefined) {
      timerId = setTimeout(timerExpired, wait);
      if (leading) return invoke();
    }
    return result;
  }

  debounced.cancel = function cancel() {
    if (timerId !== undefined) clearTimeout(timerId);
    timerId = lastArgs = lastThis = lastCallTime = undefined;
  };

  debounced.flush = function flush() {
    if (timerId === undefined) return result;
    clearTimeout(timerId);
    timerId = undefined;
    if (trailing && lastArgs) invoke();
    lastArgs = lastThis = undefined;
    return result;
  };

  return debounced;
}

module.exports = { debounce };
