const { spawn } = require("child_process");
const path = require("path");

// Backslash-escape what the shell would interpret.
const SPECIAL = /([ '"$`;&|\\*?!])/g;

function restoreFile(archivePath, memberName, destDir) {
  const esc = (s) => String(s).replace(SPECIAL, "\\$1");
  const cmd = `tar -xf ${esc(archivePath)} -C ${esc(destDir)} -- ${esc(memberName)}`;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, { shell: true });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (e) => reject(e));
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`tar exited ${code}: ${stderr}`));
      resolve(path.resolve(destDir, memberName));
    });
  });
}

module.exports = { restoreFile };
