const { spawn } = require("node:child_process");
const { resolve: resolvePath } = require("node:path");

async function restoreFile(archivePath, memberName, destDir) {
  const args = ["--extract", `--file=${archivePath}`, `--directory=${destDir}`, "--no-wildcards", "--", memberName];
  const stderr = [];
  const code = await new Promise((resolve, reject) => {
    const child = spawn("tar", args, { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.on("data", (chunk) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code !== 0) {
    throw new Error(`tar exited with ${code}: ${Buffer.concat(stderr).toString("utf8").trim()}`);
  }
  return resolvePath(destDir, memberName);
}

module.exports = { restoreFile };
