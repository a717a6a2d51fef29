// The kit's Pyodide for the kernel's worker (the site's "pyodideUrl", built into
// static/pyodide/ beside pyodide.js by scripts/build_site.py).  The Pyodide kernel's worker
// loads this script and calls the loadPyodide it defines; that one loads Pyodide's own and
// then, once Python runs, moves the working folder's entry of sys.path ("") from first
// to last.  The worker then makes the working folder the browser's drive, whose every
// file lookup is a request to the page: with "" first, each of the ~700 modules the
// kernel, IPython and the kit import was looked up there before the standard library
// (about 0.4 s of a page's start).  A learner's own module in the drive still imports;
// it no longer hides a module of the same name that Python already has.
"use strict";
self.loadPyodide = async function kitLoadPyodide(config) {
  importScripts(config.indexURL + "pyodide.js");  // Pyodide's own self.loadPyodide
  const pyodide = await self.loadPyodide(config);
  pyodide.runPython("import sys\nif '' in sys.path:\n    sys.path.remove('')\n    sys.path.append('')\n");
  return pyodide;
};
