// The playground page: CodeMirror 6 holding a ds_config.json. At once, in the page: the JSON syntax, and the site's
// generated JSON Schema (Ajv, its messages in the page's language), and completion of keys from that schema, with
// its descriptions in the page's language. As soon as the worker has started (worker.js: Pyodide running dsref),
// dsref's exact findings, fixes, texts and completion replace them. The page's own texts come from dsref's catalogs,
// in the page's language (dsref/site/playground.py writes them into the page).
import { json, jsonLanguage, jsonParseLinter } from "@codemirror/lang-json";
import { syntaxTree } from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import Ajv from "ajv";
import localizeEn from "ajv-i18n/localize/en";
import localizeZh from "ajv-i18n/localize/zh";
import { hoverTooltip } from "@codemirror/view";
import { EditorView, basicSetup } from "codemirror";

const SAMPLE = `{
  "train_batch_size": 32,
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 4,
  "fp16": {"enabled": "true"},
  "zero_optimization": {
    "stage": 3,
    "offload_optimizer": {"device": "cpu"},
    "stage3_prefetch_bucket_size": 5e8,
    "overlap_comm": true,
    "reduce_bucket_size": "auto"
  }
}
`;

const root = document.getElementById("dsref-playground");
const data = JSON.parse(document.getElementById("dsref-pg-data").textContent);
const T = data.texts;
const status = document.getElementById("dsref-pg-status");
const list = document.getElementById("dsref-pg-findings");
const profile = document.getElementById("dsref-pg-profile");
const release = document.getElementById("dsref-pg-release");

function say(key, values = {}) {
  return T[key].replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
}

// -- positions: dsref counts lines and columns from 1, columns in code points; CodeMirror counts UTF-16 units --
function offset(doc, line, column) {
  const at = doc.line(Math.max(1, Math.min(line, doc.lines)));
  let pos = at.from;
  let left = column - 1;
  for (const ch of at.text) {
    if (left <= 0) break;
    pos += ch.length;
    left -= 1;
  }
  return Math.min(pos, at.to);
}

function changesOf(doc, edits) {
  return edits.map((e) => ({
    from: offset(doc, e.line, e.column),
    to: offset(doc, e.end_line, e.end_column),
    insert: e.replacement,
  }));
}

// -- the editor ------------------------------------------------------------------------------------------------
function fromFragment() {
  const match = /^#config=([A-Za-z0-9_-]*)$/.exec(location.hash);
  if (!match) return null;
  try {
    const bytes = Uint8Array.from(atob(match[1].replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function toFragment(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return "#config=" + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

let timer = null;
const view = new EditorView({
  doc: fromFragment() ?? SAMPLE,
  parent: document.getElementById("dsref-pg-editor"),
  extensions: [
    basicSetup,
    json(),
    lintGutter(),
    hoverTooltip(hover),
    jsonLanguage.data.of({ autocomplete: completion }),
    EditorView.theme({
      "&": { height: "26em", border: "1px solid var(--md-default-fg-color--lightest, #ccc)", fontSize: "0.8rem" },
      ".cm-scroller": { overflow: "auto" },
    }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) {
        clearTimeout(timer);
        timer = setTimeout(changed, 200);
      }
    }),
  ],
});

// -- hover: the option under the pointer, as the language server explains it -------------------------------------------
// The keys from the top of the file down to the key at pos (or to the key whose value holds pos); null elsewhere.
function keysAt(state, pos) {
  let node = syntaxTree(state).resolveInner(pos, 1);
  while (node && node.name !== "Property") node = node.parent;
  if (!node || !node.firstChild || node.firstChild.name !== "PropertyName") return null;
  const target = node.firstChild;
  const keys = [];
  for (let at = node; at; at = at.parent) {
    if (at.name === "Property" && at.firstChild?.name === "PropertyName") {
      try {
        keys.unshift(JSON.parse(state.sliceDoc(at.firstChild.from, at.firstChild.to)));
      } catch {
        return null;
      }
    }
  }
  return { path: keys.join("."), from: target.from, to: target.to };
}

async function hover(view, pos) {
  const found = ready ? keysAt(view.state, pos) : null;
  if (!found) return null;
  let markdown;
  try {
    markdown = await ask("hover", "", { path: found.path });
  } catch {
    return null;
  }
  if (!markdown) return null;
  return {
    pos: found.from,
    end: found.to,
    above: true,
    create() {
      const dom = document.createElement("div");
      dom.className = "dsref-pg-hover";
      dom.textContent = markdown;
      return { dom };
    },
  };
}

// -- completion: what the language server offers at the cursor; until Python is ready, the schema's keys (below) -----
// dsref counts offsets in code points, CodeMirror in UTF-16 units.
function codePoints(text) {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

function utf16At(text, points) {
  let pos = 0;
  for (const ch of text) {
    if (points <= 0) break;
    pos += ch.length;
    points -= 1;
  }
  return pos;
}

const KINDS = { section: "namespace", option: "property", enum: "enum", value: "constant", snippet: "text" };

async function completion(context) {
  if (!ready) return schemaCompletion(context);
  const text = context.state.doc.toString();
  let items;
  try {
    items = await ask("complete", text, { offset: codePoints(text.slice(0, context.pos)), reading: reading(text) });
  } catch {
    return null;
  }
  if (!items.length || context.aborted) return null;
  const word = context.matchBefore(/[^"\s:,{}[\]]*/);
  const keyed = items.find((item) => item.start !== null);
  const from = keyed ? utf16At(text, keyed.start) : word ? word.from : context.pos;
  const to = keyed ? Math.max(utf16At(text, keyed.end), context.pos) : context.pos;
  return {
    from,
    to,
    options: items.map((item) => ({
      label: item.label,
      detail: item.detail,
      info: item.documentation ?? undefined,
      type: KINDS[item.kind],
      apply: item.insert_text,
      boost: item.deprecated ? -1 : 0,
    })),
  };
}

// -- the worker ---------------------------------------------------------------------------------------------------
let worker = null;
let ready = false;
let version = "";
let asked = 0;
const restarts = [];
const waiting = new Map();
const state = { report: null, checkedText: null, ready: false, fixes: 0, instant: null, readyAt: null, exactAt: null, checkMs: [] };
window.dsrefPlayground = { view, state, setText, fixAll, estimateFit };

function startWorker(notice) {
  if (worker) worker.terminate();
  for (const [, reject] of waiting.values()) reject(new Error("restarted"));
  waiting.clear();
  ready = false;
  state.ready = false;
  worker = new Worker(new URL(data.app + "/worker.js", location.href), { type: "module" });
  status.textContent = notice ? T.restarted + " " + T.starting : T.starting;
  worker.onmessage = (event) => {
    const message = event.data;
    if (message.kind === "ready") {
      ready = true;
      state.ready = true;
      state.readyAt = performance.now();
      version = message.version;
      status.textContent = say("ready", { version });
      changed();
    } else if (message.kind === "failed") {
      status.textContent = message.error;
    } else if (waiting.has(message.id)) {
      const [resolve, reject] = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.ok) resolve(message.result);
      else {
        reject(new Error(message.error));
        restart(message.error);
      }
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    restart(event.message);
  };
}

// A crash (Python's or the worker's) starts the worker again with a notice; a fourth within a minute stops trying and
// shows the reason's last line, so that a text that always fails cannot keep the page restarting.
function restart(reason) {
  restarts.push(Date.now());
  if (restarts.length > 3 && Date.now() - restarts[restarts.length - 4] < 60000) {
    worker.terminate();
    ready = false;
    state.ready = false;
    status.textContent = String(reason || T.restarted).trim().split("\n").pop();
    return;
  }
  startWorker(true);
}

function ask(kind, text, extra = {}) {
  asked += 1;
  const id = asked;
  return new Promise((resolve, reject) => {
    waiting.set(id, [resolve, reject]);
    worker.postMessage({
      id,
      kind,
      text,
      lang: data.lang,
      profile: profile.value,
      release: release.value,
      ...extra,
    });
  });
}

// -- at once: the syntax and the generated JSON Schema --------------------------------------------------------------
const SEVERITY = { error: "error", warning: "warning", info: "info" };
const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map();
const SKIPPED = new Set(["anyOf", "oneOf", "if", "then", "else", "not"]); // said again by the branch that failed

// How the text is read: as chosen, or ("auto") for Hugging Face when it writes "auto" somewhere.
function reading(text) {
  return profile.value || (/"auto"/.test(text) ? "hf" : "deepspeed");
}

function schemaUrl(text) {
  const hf = reading(text) === "hf";
  const name = `ds_config${hf ? ".hf" : ""}${data.lang === "zh" ? ".zh" : ""}.schema.json`;
  return new URL(data.schemas + "/" + name, location.href).href;
}

const schemas = new Map();

function schemaAt(url) {
  if (!schemas.has(url)) {
    schemas.set(
      url,
      fetch(url)
        .then((answer) => answer.json())
        .catch(() => null),
    );
  }
  return schemas.get(url);
}

function validator(url) {
  if (!validators.has(url)) {
    validators.set(
      url,
      schemaAt(url)
        .then((schema) => (schema ? ajv.compile(schema) : null))
        .catch(() => null),
    );
  }
  return validators.get(url);
}

// -- at once, too: completion of keys from the same schema, until the language server's (above) takes over --------
// The object schemas a value at this schema may be: itself and its anyOf/oneOf/allOf branches that have properties.
function objectsOf(schema) {
  if (!schema || typeof schema !== "object") return [];
  const found = schema.properties ? [schema] : [];
  for (const kind of ["anyOf", "oneOf", "allOf"]) {
    for (const branch of schema[kind] ?? []) found.push(...objectsOf(branch));
  }
  return found;
}

// The keys from the top of the file down to the object that holds pos; null where pos is not inside an object.
function objectPathAt(state, pos) {
  let node = syntaxTree(state).resolveInner(pos, -1);
  while (node && node.name !== "Object") node = node.parent;
  if (!node) return null;
  const keys = [];
  for (let at = node.parent; at; at = at.parent) {
    if (at.name === "Property" && at.firstChild?.name === "PropertyName") {
      try {
        keys.unshift(JSON.parse(state.sliceDoc(at.firstChild.from, at.firstChild.to)));
      } catch {
        return null;
      }
    } else if (at.name === "Array") return null; // the schema's items are not followed: the server's answer will come
  }
  return { keys, node };
}

async function schemaCompletion(context) {
  const word = context.matchBefore(/"[^"\s:,{}[\]]*/);
  if (!word) return null;
  const before = context.state.sliceDoc(Math.max(0, word.from - 200), word.from).trimEnd();
  if (!/[{,]$/.test(before)) return null; // a key's place: just after "{" or ","
  const found = objectPathAt(context.state, context.pos);
  if (!found) return null;
  const schema = await schemaAt(schemaUrl(context.state.doc.toString()));
  if (!schema || context.aborted || ready) return null;
  let here = [schema];
  for (const key of found.keys) here = here.flatMap((s) => objectsOf(s).map((o) => o.properties[key]).filter(Boolean));
  const inside = (node, pos) => node.from <= pos && pos <= node.to;
  const present = new Set(); // the object's other keys
  for (let child = found.node.firstChild; child; child = child.nextSibling) {
    const key = child.name === "Property" ? child.firstChild : null;
    if (key?.name === "PropertyName" && !inside(key, context.pos)) {
      present.add(context.state.sliceDoc(key.from + 1, key.to - 1));
    }
  }
  const options = new Map();
  for (const object of here.flatMap(objectsOf)) {
    for (const [key, option] of Object.entries(object.properties)) {
      if (options.has(key) || present.has(key) || option.doNotSuggest) continue;
      options.set(key, {
        label: key,
        detail: [option.type ?? (option.anyOf ?? []).map((b) => b.type)].flat().filter(Boolean).join(" | "),
        info: option.description,
        type: objectsOf(option).length ? "namespace" : "property",
        boost: option.deprecationMessage ? -1 : 0,
      });
    }
  }
  if (!options.size) return null;
  return { from: word.from + 1, to: context.pos, options: [...options.values()], validFor: /^[^"\s:,{}[\]]*$/ };
}

// The node of the value at a JSON pointer, and of its key; null where the tree does not hold it.
function nodeAt(state, pointer) {
  let node = syntaxTree(state).topNode.firstChild;
  let key = null;
  const steps = pointer === "" ? [] : pointer.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  for (const step of steps) {
    if (!node) return null;
    const children = [];
    for (let child = node.firstChild; child; child = child.nextSibling) children.push(child);
    if (node.name === "Object") {
      const property = children.find((c) => {
        if (c.name !== "Property" || !c.firstChild) return false;
        try {
          return JSON.parse(state.sliceDoc(c.firstChild.from, c.firstChild.to)) === step;
        } catch {
          return false;
        }
      });
      if (!property) return null;
      key = property.firstChild;
      node = property.lastChild;
    } else if (node.name === "Array") {
      node = children.filter((c) => !["[", "]", ","].includes(c.name))[Number(step)] ?? null;
      key = null;
    } else return null;
  }
  return node ? { node, key } : null;
}

async function instant() {
  const text = view.state.doc.toString();
  let found = jsonParseLinter()(view).map((d) => ({ ...d, message: say("syntax", { detail: d.message }) }));
  if (found.length === 0) {
    const validate = await validator(schemaUrl(text));
    if (ready || view.state.doc.toString() !== text) return; // the exact answer, or a newer text, came first
    if (validate && !validate(JSON.parse(text))) {
      (data.lang === "zh" ? localizeZh : localizeEn)(validate.errors);
      const seen = new Set();
      found = [];
      for (const error of validate.errors) {
        if (SKIPPED.has(error.keyword)) continue;
        const pointer = error.instancePath;
        const extra = error.keyword === "additionalProperties" ? error.params.additionalProperty : null;
        const where = nodeAt(view.state, extra === null ? pointer : `${pointer}/${extra.replace(/~/g, "~0").replace(/\//g, "~1")}`);
        const target = where ? (extra !== null && where.key ? where.key : where.node) : null;
        const path = [...pointer.split("/").slice(1), ...(extra === null ? [] : [extra])].join(".");
        const message = `${path || "$"}: ${error.message}`;
        if (seen.has(message)) continue;
        seen.add(message);
        found.push({
          from: target ? target.from : 0,
          to: target ? target.to : 0,
          severity: "warning",
          source: "JSON Schema",
          message: say("schema", { detail: message }),
        });
      }
    }
  }
  if (ready) return;
  state.instant = { text, found, at: performance.now() };
  view.dispatch(setDiagnostics(view.state, found));
}

// -- findings -----------------------------------------------------------------------------------------------------

function applyFix(fix) {
  view.dispatch({ changes: changesOf(view.state.doc, fix.edits) });
}

function show(report, text) {
  if (view.state.doc.toString() !== text) return; // an answer about an older text
  if (report.refused) {
    // a release dsref does not cover: what the command line says, and no findings for a release not checked
    state.report = report;
    state.checkedText = text;
    view.dispatch(setDiagnostics(view.state, []));
    list.replaceChildren();
    status.textContent = report.refused;
    return;
  }
  const file = report.files[0];
  state.report = report;
  state.checkedText = text;
  const doc = view.state.doc;
  const diagnostics = file.findings.map((f) => ({
    from: offset(doc, f.line, f.column),
    to: offset(doc, f.end_line, f.end_column),
    severity: SEVERITY[f.severity],
    source: f.code,
    message: [f.message, ...f.help].join("\n"),
    actions: f.fix ? [{ name: say("fix_one", { title: f.fix.title }), apply: () => applyFix(f.fix) }] : [],
  }));
  view.dispatch(setDiagnostics(view.state, diagnostics));
  list.replaceChildren(
    ...file.findings.map((f) => {
      const item = document.createElement("li");
      item.dataset.code = f.code;
      item.className = "dsref-pg-" + f.severity;
      const where = document.createElement("code");
      where.textContent = `${f.line}:${f.column} ${f.code}`;
      item.append(where, " " + f.message);
      if (f.fix) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = say("fix_one", { title: f.fix.title });
        button.onclick = () => applyFix(f.fix);
        item.append(" ", button);
      }
      return item;
    }),
  );
  const counts = say("findings", { errors: file.errors, warnings: file.warnings, infos: file.infos });
  status.textContent = say("ready", { version }) + " " + (file.findings.length ? counts : T.no_findings);
}

async function changed() {
  const text = view.state.doc.toString();
  if (!ready) {
    instant();
    return;
  }
  try {
    const asked = performance.now();
    const report = await ask("check", text);
    state.checkMs.push(performance.now() - asked);
    state.exactAt ??= performance.now();
    show(report, text);
  } catch {
    /* restarted: the answer comes after the restart */
  }
}

function setText(text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

async function fixAll(unsafe) {
  if (!ready) return;
  const text = view.state.doc.toString();
  const answer = await ask("fix", text, { unsafe });
  if (view.state.doc.toString() !== text) return;
  if (answer.refused) {
    status.textContent = answer.refused;
    return;
  }
  state.fixes = answer.fixed;
  if (answer.text !== text) setText(answer.text);
  status.textContent = say("fixed", { count: answer.fixed });
}

document.getElementById("dsref-pg-fix").onclick = () => fixAll(false);
document.getElementById("dsref-pg-fix-unsafe").onclick = () => fixAll(true);
document.getElementById("dsref-pg-share").onclick = async () => {
  const fragment = toFragment(view.state.doc.toString());
  history.replaceState(null, "", fragment);
  try {
    await navigator.clipboard.writeText(location.href);
  } catch {
    /* no clipboard here (an insecure page, a test): the address bar holds the link */
  }
  status.textContent = T.shared;
};
profile.onchange = release.onchange = () => changed(); // a typed release: on Enter, or on leaving the field

// -- "Will it fit?": the config in the editor, a declared model or a pasted config.json, through dsref estimate ----
const fit = {
  model: document.getElementById("dsref-pg-fit-model"),
  json: document.getElementById("dsref-pg-fit-json"),
  gpu: document.getElementById("dsref-pg-fit-gpu"),
  gpus: document.getElementById("dsref-pg-fit-gpus"),
  nodes: document.getElementById("dsref-pg-fit-nodes"),
  seq: document.getElementById("dsref-pg-fit-seq"),
  out: document.getElementById("dsref-pg-fit-out"),
};

function modelText() {
  const declared = data.models[fit.model.value];
  return declared ? JSON.stringify(declared.config, null, 2) : fit.json.value;
}

fit.model.onchange = () => {
  const pasted = !data.models[fit.model.value];
  fit.json.parentElement.hidden = !pasted;
  if (!pasted) fit.json.value = modelText(); // the declared shape, to start a pasted one from
};

fit.json.value = modelText();

async function estimateFit() {
  if (!ready) {
    fit.out.textContent = T.fit_waiting;
    return null;
  }
  const text = view.state.doc.toString();
  const answer = await ask("estimate", text, {
    model: modelText(),
    gpu_memory: fit.gpu.value,
    gpus_per_node: fit.gpus.value,
    nodes: fit.nodes.value,
    seq_len: fit.seq.value,
  });
  fit.out.textContent = answer.text;
  fit.out.className = answer.ok ? "" : "dsref-pg-error";
  state.fit = answer;
  return answer;
}
document.getElementById("dsref-pg-fit-run").onclick = () => estimateFit().catch(() => {});

root.classList.add("dsref-pg-running");
// Python starts once the schema's answer is shown: both at once share the CPU, and the first answer came later.
instant().finally(() => startWorker(false));
