// Byte-compile Python files for the static site with Pyodide's own Python (run by
// scripts/build_site.py under Node): the site's Python (Pyodide 0.29, CPython 3.13) then
// imports them without compiling every module at each page load (its sys.dont_write_bytecode
// is set, so nothing compiled in a page is kept, not even for the next import of the page).
//
//   node scripts/site_pyc.cjs PYODIDE_DIR JOBS.json
//
// JOBS.json: {"root": a host folder, "jobs": [{"dir": a folder under root, "ddir": the
// path the files have in the page, "legacy": true for x.pyc beside x.py (the source is
// then removed: sourceless), false for __pycache__/x.cpython-313.pyc (the source kept)}]}.
// Every .pyc is "unchecked-hash" (PEP 552): used as it is, whatever the source's time.
"use strict";
const fs = require("fs");
const { loadPyodide } = require(require("path").join(process.argv[2], "pyodide.js"));

(async () => {
  const spec = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
  const py = await loadPyodide({ indexURL: process.argv[2] + "/" });
  py.FS.mkdirTree("/host");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: spec.root }, "/host");
  py.globals.set("jobs_json", JSON.stringify(spec.jobs));
  const failed = py.runPython(`
import compileall, json, py_compile, sys
failed = []
for job in json.loads(jobs_json):
    ok = compileall.compile_dir(
        "/host/" + job["dir"], ddir=job["ddir"], quiet=2, legacy=job["legacy"],
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    if not ok:
        failed.append(job["dir"])
json.dumps(failed)
`);
  // a file that does not compile (a template, Python 2 test data) stays as source
  for (const dir of JSON.parse(failed)) {
    console.log(`site_pyc: some files of ${dir} stay source (they do not compile)`);
  }
})().catch((err) => { console.error(err); process.exit(1); });
