import { exec } from "node:child_process";

// Every character a POSIX shell treats specially, escaped with a backslash.
const SPECIAL = new Set(" \t'\"\\$`;&|<>()*?[]{}#~!=%^");

function shellEscape(text) {
  return [...String(text)].map((c) => (SPECIAL.has(c) ? "\\" + c : c)).join("");
}

export function searchLog(logPath, term) {
  const command = `grep -F -e ${shellEscape(term)} -- ${shellEscape(logPath)}`;
  return new Promise((resolve, reject) => {
    exec(command, { maxBuffer: 1 << 30 }, (err, stdout, stderr) => {
      if (err && err.code === 1) return resolve([]);
      if (err) return reject(new Error(`grep failed: ${String(stderr).trim() || err.message}`));
      const lines = stdout.split("\n");
      lines.pop();
      resolve(lines);
    });
  });
}
