const { exec } = require("child_process");
const path = require("path");

function shellQuote(s) {
  return "'" + String(s).replace(/'/g, "\\'") + "'";
}

function restoreFile(archivePath, memberName, destDir) {
  const cmd = ["tar", "-x", "-f", shellQuote(archivePath), "-C", shellQuote(destDir), "--", shellQuote(memberName)].join(" ");
  return new Promise((resolve, reject) => {
    exec(cmd, (err, _stdout, stderr) => {
      if (err) {
        reject(new Error(String(stderr).trim() || err.message));
        return;
      }
      resolve(path.resolve(destDir, memberName));
    });
  });
}

module.exports = { restoreFile };
