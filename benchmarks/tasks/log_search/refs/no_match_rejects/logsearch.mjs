import { execFile } from "node:child_process";

export function searchLog(logPath, term) {
  // An argument list, no shell: the term reaches grep as one word; -e and -- keep it a pattern.
  const args = ["-F", "-e", String(term), "--", String(logPath)];
  return new Promise((resolve, reject) => {
    execFile("grep", args, { maxBuffer: 1 << 30 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`grep failed: ${String(stderr).trim() || err.message}`));
      const lines = stdout.split("\n");
      lines.pop(); // grep ends every line it prints with \n
      resolve(lines);
    });
  });
}
