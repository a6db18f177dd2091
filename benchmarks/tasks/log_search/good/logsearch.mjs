import { execFile } from "node:child_process";

// grep exits 0 with matches, 1 with none, 2 on an error (a missing file, say).
const NO_MATCH = 1;

export function searchLog(logPath, term) {
  // An argument list, no shell: the term reaches grep as one word; -e and -- keep it a pattern.
  const args = ["-F", "-e", String(term), "--", String(logPath)];
  return new Promise((resolve, reject) => {
    execFile("grep", args, { maxBuffer: 1 << 30 }, (err, stdout, stderr) => {
      if (err && err.code === NO_MATCH) return resolve([]);
      if (err) return reject(new Error(`grep failed: ${String(stderr).trim() || err.message}`));
      const lines = stdout.split("\n");
      lines.pop(); // grep ends every line it prints with \n
      resolve(lines);
    });
  });
}
