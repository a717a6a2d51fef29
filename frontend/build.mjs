// Builds the kit's page front end (src/index.js) into one script and one style
// sheet for the "rummy" Voilà template, share/jupyter/voila/templates/rummy/static/
// kit.js and kit.css, and its math (src/math.js, MathJax) into kit-math.js, loaded
// only by pages with math (or into the folder given as the first argument).
//
//   node frontend/build.mjs            # what `make frontend` runs
//
// Both files are committed, so serving the kit needs no Node.js; the tests build
// them again into a temporary folder and check the committed ones are the same
// (tests/test_frontend.py).  esbuild's version is locked in package-lock.json.
import {build} from "esbuild";
import {fileURLToPath} from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2]
  || path.join(here, "..", "share", "jupyter", "voila", "templates", "rummy", "static");

await build({
  entryPoints: {kit: path.join(here, "src", "index.js"), "kit-math": path.join(here, "src", "math.js")},
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  outdir: out,
  legalComments: "eof",
  logLevel: "warning",
  // fonts and pictures the widgets' style sheets name, inlined: one file each
  loader: {".woff": "dataurl", ".woff2": "dataurl", ".svg": "dataurl", ".png": "dataurl"},
});
