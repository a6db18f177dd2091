const { exec } = require("child_process");
const path = require("path");

// Double quotes keep spaces and ; & ( ) together; escape the quotes themselves.
function quote(s) {
  return '"' + String(s).replace(/"/g, '\\"') + '"';
}

function restoreFile(archivePath, memberName, destDir) {
  const cmd = `tar -xf ${quote(archivePath)} -C ${quote(destDir)} -- ${quote(memberName)}`;
  return new Promise((resolve, reject) => {
    exec(cmd, (err, stdout, stderr) => {
      if (err) return reject(new Error(`tar failed: ${stderr}`));
      resolve(path.resolve(destDir, memberName));
    });
  });
}

module.exports = { restoreFile };
