const { exec } = require("child_process");
const path = require("path");

// Quote every argument so names with spaces and quotes work.
const q = (s) => JSON.stringify(String(s));

function restoreFile(archivePath, memberName, destDir) {
  return new Promise((resolve, reject) => {
    exec(`tar -xf ${q(archivePath)} -C ${q(destDir)} -- ${q(memberName)}`, (err, stdout, stderr) => {
      if (err) return reject(new Error(`restore failed: ${stderr}`));
      resolve(path.resolve(destDir, memberName));
    });
  });
}

module.exports = { restoreFile };
