// Search a service log for a piece of text with the system grep.
import { exec } from "node:child_process";

// Inside double quotes the shell only treats " and \ specially, so escape those.
function quote(value) {
  return '"' + String(value).replace(/(["\\])/g, "\\$1") + '"';
}

export async function searchLog(logPath, term) {
  const command = `grep -a -F -e ${quote(term)} -- ${quote(logPath)}`;
  return new Promise((resolve, reject) => {
    exec(command, { maxBuffer: 512 * 1024 * 1024, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) {
        if (error.code === 1) return resolve([]); // grep: no line matched
        return reject(new Error(`grep failed: ${stderr.trim() || error.message}`));
      }
      const lines = stdout.split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      resolve(lines.map((line) => line.replace(/\r$/, "")));
    });
  });
}
