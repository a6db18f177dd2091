import { exec } from "node:child_process";

export function searchLog(logPath, term) {
  const escaped = String(term).replace(/ /g, "\\ ");
  return new Promise((resolve, reject) => {
    exec(`grep -F -- ${escaped} ${logPath}`, (err, stdout, stderr) => {
      if (err && err.code === 1) return resolve([]);
      if (err) return reject(new Error(stderr || err.message));
      resolve(stdout.split("\n").filter((line) => line !== ""));
    });
  });
}
