// The playground's checker: Pyodide in a Web Worker, so that the page never waits for Python. It loads dsref's
// wheel and the pinned wheels named by py/pyodide-lock.json (written by scripts/playground.py), all from the site
// itself, then answers each message with what dsref.site.playground's functions return for the editor's text (and
// dsref.site.playground_launch's for a pasted launch: PyYAML, shipped beside the wheels, is loaded only when a launch
// first needs it, so that the first answer never waits for it).
import { loadPyodide } from "./pyodide/pyodide.mjs";

const base = new URL(".", import.meta.url);

async function start() {
  const pyodide = await loadPyodide({
    indexURL: new URL("pyodide/", base).href,
    lockFileURL: new URL("py/pyodide-lock.json", base).href,
    packageBaseUrl: new URL("py/", base).href,
    stdout: () => {},
    stderr: () => {},
  });
  await pyodide.loadPackage(["dsref"], { messageCallback: () => {}, errorCallback: () => {} });
  pyodide.runPython(
    "from dsref.site.playground import check_document, completions, estimate_document, fix_document, hover_markdown\n" +
      "from dsref.site.playground_launch import check_launch_document, launch_packages\n" +
      "from dsref.tree.versions import DSREF_VERSION",
  );
  const version = pyodide.globals.get("DSREF_VERSION");
  self.postMessage({ kind: "ready", version });
  return pyodide;
}

const ready = start().catch((error) => {
  self.postMessage({ kind: "failed", error: String(error) });
  throw error;
});

// The packages a launch needs that are not loaded yet (PyYAML for a YAML launch), loaded from the site itself
async function loadFor(pyodide, launch) {
  const needed = pyodide.globals.get("launch_packages");
  let names;
  try {
    names = needed(launch).toJs();
  } finally {
    needed.destroy();
  }
  const missing = names.filter((name) => !(name in pyodide.loadedPackages));
  if (missing.length) await pyodide.loadPackage(missing, { messageCallback: () => {}, errorCallback: () => {} });
}

self.onmessage = async (event) => {
  const { id, kind, text, lang, profile, release, unsafe, world_size, launch } = event.data;
  let pyodide;
  try {
    pyodide = await ready;
  } catch {
    return;
  }
  const name = {
    check: launch ? "check_launch_document" : "check_document",
    complete: "completions",
    estimate: "estimate_document",
    fix: "fix_document",
    hover: "hover_markdown",
  }[kind];
  let fn;
  try {
    fn = pyodide.globals.get(name);
    let result;
    if (kind === "hover") {
      result = fn(event.data.path, lang) ?? null; // Markdown, or None for a key dsref does not know
    } else if (kind === "complete") {
      result = JSON.parse(fn.callKwargs(text, event.data.offset, lang, { profile: event.data.reading }));
    } else if (kind === "estimate") {
      const { model, gpu_memory, gpus_per_node, nodes, seq_len } = event.data;
      result = JSON.parse(fn.callKwargs(text, model, lang, { gpu_memory, gpus_per_node, nodes, seq_len }));
    } else {
      // undefined is None, null is not
      const options = { profile: profile || undefined, deepspeed_version: release, world_size };
      if (kind === "fix") options.unsafe = Boolean(unsafe);
      if (kind === "check" && launch) {
        await loadFor(pyodide, launch);
        result = JSON.parse(fn.callKwargs(launch, text, lang, options));
      } else {
        result = JSON.parse(fn.callKwargs(text, lang, options));
      }
    }
    self.postMessage({ id, kind, ok: true, result });
  } catch (error) {
    // a Python exception leaves Python running; anything else (the stack exhausted, memory) kills it for good
    const fatal = !(error instanceof pyodide.ffi.PythonError);
    self.postMessage({ id, kind, ok: false, fatal, error: String(error) });
  } finally {
    try {
      fn?.destroy();
    } catch {
      /* a Python that died cannot release it; the page starts another */
    }
  }
};
