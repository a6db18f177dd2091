const { exec } = require("child_process");
const path = require("path");

function restoreFile(archivePath, memberName, destDir) {
  return new Promise((resolve, reject) => {
    exec(`tar -xf ${archivePath} -C ${destDir} ${memberName}`, (err, stdout, stderr) => {
      if (err) return reject(new Error(`restore failed: ${stderr}`));
      resolve(path.resolve(destDir, memberName));
    });
  });
}

module.exports = { restoreFile };
