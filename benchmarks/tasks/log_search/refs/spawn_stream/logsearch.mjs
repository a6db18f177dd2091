import { spawn } from "node:child_process";

export async function searchLog(logPath, term) {
  const child = spawn("grep", ["--fixed-strings", `--regexp=${term}`, "--", logPath], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = [];
  const err = [];
  child.stdout.on("data", (chunk) => out.push(chunk));
  child.stderr.on("data", (chunk) => err.push(chunk));
  const code = await new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code === 1) return [];
  if (code !== 0) throw new Error(`grep exited with ${code}: ${Buffer.concat(err).toString().trim()}`);
  const text = Buffer.concat(out).toString("utf8");
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}
