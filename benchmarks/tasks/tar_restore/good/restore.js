"use strict";

const { execFile } = require("node:child_process");
const path = require("node:path");

// execFile runs tar without a shell, and "--" ends tar's options, so a member name is only
// ever a member name, even one that starts with "-".
function restoreFile(archivePath, memberName, destDir) {
  return new Promise((resolve, reject) => {
    execFile("tar", ["-x", "-f", archivePath, "-C", destDir, "--", memberName], (error, _stdout, stderr) => {
      if (error) {
        reject(new Error(`tar could not restore ${JSON.stringify(memberName)}: ${String(stderr).trim() || error.message}`));
        return;
      }
      resolve(path.resolve(destDir, memberName));
    });
  });
}

module.exports = { restoreFile };
