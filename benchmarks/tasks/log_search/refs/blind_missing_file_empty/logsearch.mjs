// Search a service log for a piece of text with the system grep (no shell involved).
import { spawn } from "node:child_process";


export async function searchLog(logPath, term) {
  return new Promise((resolve, reject) => {
    const child = spawn("grep", ["-a", "-F", "-e", term, "--", logPath], { stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    let err = "";
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", (e) => reject(new Error(`cannot run grep: ${e.message}`)));
    child.on("close", (code) => {
      if (code === 1 || code === 2) return resolve([]); // nothing found
      if (code !== 0) return reject(new Error(`grep failed (${code}): ${err.trim()}`));
      const lines = Buffer.concat(out).toString("utf8").split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      resolve(lines.map((line) => line.replace(/\r$/, "")));
    });
  });
}
