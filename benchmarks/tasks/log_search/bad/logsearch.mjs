import { exec } from "node:child_process";

export function searchLog(logPath, term) {
  const command = `grep -F -e "${term}" -- "${logPath}"`;
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
