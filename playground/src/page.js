// The playground page: CodeMirror 6 holding a ds_config.json. At once, in the page: the JSON syntax, and the site's
// generated JSON Schema (Ajv, its messages in the page's language), and completion of keys from that schema, with
// its descriptions in the page's language. As soon as the worker has started (worker.js: Pyodide running dsref),
// dsref's exact findings, fixes, texts and completion replace them. The page's own texts come from dsref's catalogs,
// in the page's language (dsref/site/playground.py writes them into the page). Beside the config, a second editor
// takes the launch (a command line or script, a LLaMA-Factory or axolotl YAML, an Accelerate config): while it holds
// one, the check is dsref check LAUNCH's (dsref/site/playground_launch.py), each finding marked in the editor that
// holds the value; while it is empty, the page is what it is without it.
import { json, jsonLanguage, jsonParseLinter } from "@codemirror/lang-json";
import { syntaxTree } from "@codemirror/language";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import Ajv from "ajv";
import localizeEn from "ajv-i18n/localize/en";
import localizeZh from "ajv-i18n/localize/zh";
import { Compartment } from "@codemirror/state";
import { hoverTooltip, placeholder } from "@codemirror/view";
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
const world = document.getElementById("dsref-pg-world");
const effective = document.getElementById("dsref-pg-effective");
const more = document.createElement("p");
more.id = "dsref-pg-more";
list.after(more);

// The page's own stylesheet, shipped with the editor (a site built without the playground's files needs none)
const sheet = document.createElement("link");
sheet.rel = "stylesheet";
sheet.href = new URL(data.app + "/page.css", location.href).href;
document.head.append(sheet);

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
// A share link (or a "Try it" link of the site, dsref/site/playground.py: config_fragment) carries the text, then
// the settings it is checked with where they are not the page's defaults: &world=8&reading=hf&release=0.14.5,
// and the launch pasted beside it: &launch=<base64url>
function fromBase64url(value) {
  try {
    const bytes = Uint8Array.from(atob(value.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function toBase64url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromFragment() {
  const match = /^#config=([A-Za-z0-9_-]*)((?:&\w+=[\w.-]*)*)$/.exec(location.hash);
  if (!match) return { config: null, launch: "" };
  const settings = Object.fromEntries(match[2].split("&").slice(1).map((pair) => pair.split("=")));
  if (/^[1-9]\d*$/.test(settings.world ?? "")) world.value = settings.world;
  if (["deepspeed", "hf"].includes(settings.reading)) profile.value = settings.reading;
  if (settings.release) release.value = settings.release;
  return { config: fromBase64url(match[1]), launch: (settings.launch && fromBase64url(settings.launch)) || "" };
}

function toFragment(text, launch) {
  const settings = { world: worldSize(), reading: profile.value || undefined };
  if (release.value !== release.defaultValue) settings.release = release.value;
  if (launch.trim()) settings.launch = toBase64url(launch);
  const tail = Object.entries(settings).filter(([, value]) => value !== undefined);
  return "#config=" + toBase64url(text) + tail.map(([name, value]) => `&${name}=${value}`).join("");
}

// The world size --world-size is given, or undefined (not given: the batch arithmetic that needs it is not done)
function worldSize() {
  return /^[1-9]\d*$/.test(world.value.trim()) ? Number(world.value.trim()) : undefined;
}

// Long lines wrap where the page is narrow (a phone), and scroll sideways where it is not
const wrapping = new Compartment();
const narrow = window.matchMedia("(max-width: 600px)");
const wrapped = () => (narrow.matches ? EditorView.lineWrapping : []);

let timer = null;
const shared = fromFragment();
const view = new EditorView({
  doc: shared.config ?? SAMPLE,
  parent: document.getElementById("dsref-pg-editor"),
  extensions: [
    basicSetup,
    json(),
    lintGutter(),
    hoverTooltip(hover),
    wrapping.of(wrapped()),
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

// The launch: plain text (a shell line or script, or YAML), checked with the config whenever either changes
const launchWrapping = new Compartment();
const launchView = new EditorView({
  doc: shared.launch,
  parent: document.getElementById("dsref-pg-launch"),
  extensions: [
    basicSetup,
    lintGutter(),
    placeholder(T.launch_placeholder),
    launchWrapping.of(wrapped()),
    EditorView.theme({
      "&": { border: "1px solid var(--md-default-fg-color--lightest, #ccc)", fontSize: "0.8rem" },
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

// The launch pasted, or "" where the pane holds nothing but blanks (then the config is checked alone)
function launchText() {
  const text = launchView.state.doc.toString();
  return text.trim() ? text : "";
}

narrow.addEventListener("change", () => {
  view.dispatch({ effects: wrapping.reconfigure(wrapped()) });
  launchView.dispatch({ effects: launchWrapping.reconfigure(wrapped()) });
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
let stoppedOn = null; // the text (and launch) the checker last stopped on: not sent again until either changes
const waiting = new Map();
const state = {
  report: null,
  checkedText: null,
  checkedLaunch: null,
  launch: null,
  ready: false,
  fixes: 0,
  instant: null,
  readyAt: null,
  exactAt: null,
  checkMs: [],
  stopped: null,
  restarts: 0,
};
window.dsrefPlayground = {
  view,
  launchView,
  state,
  setText,
  setLaunch,
  fixAll,
  estimateFit,
  get worker() {
    return worker;
  },
};

function startWorker(notice) {
  if (worker) worker.terminate();
  for (const [, reject] of waiting.values()) reject(new Error("restarted"));
  waiting.clear();
  ready = false;
  state.ready = false;
  worker = new Worker(new URL(data.app + "/worker.js", location.href), { type: "module" });
  if (!notice) status.textContent = T.starting;
  worker.onmessage = (event) => {
    const message = event.data;
    if (message.kind === "ready") {
      ready = true;
      state.ready = true;
      state.readyAt = performance.now();
      version = message.version;
      if (!state.stopped) status.textContent = say("ready", { version });
      changed();
    } else if (message.kind === "failed") {
      status.textContent = message.error;
    } else if (waiting.has(message.id)) {
      const [resolve, reject, text] = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.ok) resolve(message.result);
      else {
        reject(new Error(message.error));
        // Python that raised is still running: only a check that failed is said; Python that died is started again
        if (message.fatal || ["check", "fix"].includes(message.kind)) stop(text, message.error, message.fatal);
      }
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    const pending = [...waiting.values()].pop(); // the text of the last question asked, if one is unanswered
    stop(pending ? pending[2] : null, event.message, true);
  };
}

// The checker stopped on `text` (null: on no text known), for `reason`: what it said about an earlier text is taken
// away, the reason is shown, and, where its Python died or hung, the worker is started again. It then checks the text
// in the editor unless that is the text it stopped on, which waits for the reader's next change: so no text can keep
// it restarting, and none can stop it checking the next one.
function stop(text, reason, restartIt) {
  stoppedOn = text;
  state.stopped = { text, reason: String(reason) };
  state.report = null;
  state.launch = null;
  state.checkedText = null;
  state.checkedLaunch = null;
  view.dispatch(setDiagnostics(view.state, []));
  launchView.dispatch(setDiagnostics(launchView.state, []));
  effective.hidden = true;
  list.replaceChildren();
  more.textContent = "";
  const line = String(reason || "").trim().split("\n").pop();
  status.textContent = say("stopped", { reason: line });
  if (restartIt) {
    state.restarts += 1;
    startWorker(true);
  }
}

// What the checker is asked about: the config, and the launch beside it when there is one (a stop is on both)
function askedKey(text, launch) {
  return launch ? text + "\u0000" + launch : text;
}

// A question to the worker; one that gets no answer in data.check_seconds stops it (Python cannot be interrupted).
function ask(kind, text, extra = {}) {
  asked += 1;
  const id = asked;
  return new Promise((resolve, reject) => {
    const key = askedKey(text, extra.launch);
    const timer = setTimeout(() => {
      if (waiting.has(id)) stop(key, say("too_slow", { seconds: data.check_seconds }), true);
    }, data.check_seconds * 1000);
    const done = (settle) => (value) => {
      clearTimeout(timer);
      settle(value);
    };
    waiting.set(id, [done(resolve), done(reject), key]);
    worker.postMessage({
      id,
      kind,
      text,
      lang: data.lang,
      profile: profile.value,
      release: release.value,
      world_size: worldSize(),
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

// The size of text in UTF-8, as the loader counts it (stops counting past the limit)
function tooLarge(text) {
  return text.length > data.max_bytes || new TextEncoder().encode(text).length > data.max_bytes;
}

// The schema's errors as the page shows them. Ajv says why each branch of an anyOf failed; the branch whose type the
// value has says what is wrong, and the others ("must be null" for a section written as an object) say nothing the
// exact check will say, so they are held back. A value of none of the branches' types gets one error naming them.
function schemaErrors(errors) {
  const branchType = /\/(anyOf|oneOf)\/\d+\/type$/;
  const shown = [];
  const types = new Map(); // instancePath + anyOf's schema path -> the types the value is not
  for (const error of errors) {
    if (SKIPPED.has(error.keyword)) continue;
    if (error.keyword === "type" && branchType.test(error.schemaPath)) {
      const key = error.instancePath + " " + error.schemaPath.replace(branchType, "");
      types.set(key, [...(types.get(key) ?? []), ...[error.params.type].flat()]);
      continue;
    }
    shown.push(error);
  }
  for (const [key, names] of types) {
    const [instancePath, anyOf] = key.split(" ");
    // another branch matched the value's type and failed inside it: that branch's errors are the ones to show
    const inside = shown.some(
      (e) => e.schemaPath.startsWith(anyOf + "/") && (e.instancePath + "/").startsWith(instancePath + "/"),
    );
    if (!inside) shown.push({ keyword: "types", instancePath, params: {}, message: say("schema_types", { types: names.join(" | ") }) });
  }
  return shown;
}

async function instant() {
  const text = view.state.doc.toString();
  let found = [];
  if (tooLarge(text)) {
    // not parsed in the page either: the exact check says what the loader says (DS000)
  } else if (jsonParseLinter()(view).length) {
    // Strict JSON is what Hugging Face reads; the deepspeed launcher reads Hjson (comments, trailing commas, unquoted
    // keys), and Python's json reads NaN and Infinity, so a syntax error is shown only where the exact check will
    // show one too
    if (reading(text) === "hf" && !/\b(NaN|Infinity)\b/.test(text)) {
      found = jsonParseLinter()(view).map((d) => ({ ...d, message: say("syntax", { detail: d.message }) }));
    }
  } else {
    const validate = await validator(schemaUrl(text));
    if (ready || view.state.doc.toString() !== text) return; // the exact answer, or a newer text, came first
    if (validate && !validate(JSON.parse(text))) {
      (data.lang === "zh" ? localizeZh : localizeEn)(validate.errors);
      const seen = new Set();
      for (const error of schemaErrors(validate.errors)) {
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

const ICONS = { error: "\u2716", warning: "\u26a0", info: "\u2139" }; // ✖ ⚠ ℹ beside the word, never alone

// One finding in the list; `file`: the name of the editor it is in, shown before its line while a launch is pasted
// (null: the config alone, as without a launch). What is said of the launch has no rule, so no code and no link.
function finding(f, file = null) {
  const item = document.createElement("li");
  item.dataset.code = f.code ?? f.reason;
  item.className = "dsref-pg-" + f.severity;
  const icon = document.createElement("span");
  icon.className = "dsref-pg-icon";
  icon.setAttribute("aria-hidden", "true");
  icon.textContent = ICONS[f.severity];
  const severity = document.createElement("strong");
  severity.className = "dsref-pg-severity";
  severity.textContent = data.severities[f.severity];
  const where = document.createElement("code");
  where.className = "dsref-pg-where";
  where.textContent = file === null ? `${f.line}:${f.column}` : `${file}:${f.line}:${f.column}`;
  const message = document.createElement("span");
  message.className = "dsref-pg-message";
  message.textContent = f.message;
  if (f.code) {
    const code = document.createElement("a");
    code.href = new URL(`${data.rules}${f.code}/`, location.href).href;
    code.title = say("rule_link", { code: f.code });
    code.innerHTML = "<code></code>";
    code.firstChild.textContent = f.code;
    item.append(icon, " ", severity, " ", code, " ", where, " ", message);
  } else {
    item.append(icon, " ", severity, " ", where, " ", message);
  }
  if (f.fix) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = say("fix_one", { title: f.fix.title });
    button.onclick = () => applyFix(f.fix);
    item.append(" ", button);
  }
  for (const help of f.help ?? []) {
    const line = document.createElement("div");
    line.className = "dsref-pg-help";
    line.textContent = help;
    item.append(line);
  }
  return item;
}

// A finding as the editor whose `doc` holds it marks it; `prefix`: where it is when that is the other editor
function diagnostic(doc, f, at = f, prefix = "") {
  const fix = f.fix && at === f ? f.fix : null;
  return {
    from: offset(doc, at.line, at.column),
    to: offset(doc, at.end_line, at.end_column),
    severity: SEVERITY[f.severity],
    source: f.code ? `${data.severities[f.severity]} ${f.code}` : data.severities[f.severity],
    message: [prefix + f.message, ...(f.help ?? [])].join("\n"),
    actions: fix ? [{ name: say("fix_one", { title: fix.title }), apply: () => applyFix(fix) }] : [],
  };
}

// The answer for the config `text` (and the `launch` beside it, "" for none): a report of dsref check, or, with a
// launch, what dsref check LAUNCH says (its report, what it says of the launch, the filled config)
function show(answer, text, launch) {
  if (view.state.doc.toString() !== text || launchText() !== launch) return; // an answer about older texts
  state.stopped = null;
  more.textContent = "";
  const withLaunch = Boolean(launch) && !answer.refused;
  const report = withLaunch ? answer.report : answer;
  state.report = report;
  state.launch = withLaunch ? answer : null;
  state.checkedText = text;
  state.checkedLaunch = launch;
  effective.hidden = !(withLaunch && answer.effective);
  if (withLaunch && answer.effective) {
    effective.querySelector("pre").textContent = JSON.stringify(answer.effective, null, 2);
  }
  if (answer.refused) {
    // a release dsref does not cover: what the command line says, and no findings for a release not checked
    view.dispatch(setDiagnostics(view.state, []));
    launchView.dispatch(setDiagnostics(launchView.state, []));
    list.replaceChildren();
    status.textContent = answer.refused;
    return;
  }
  const found = report ? report.files[0].findings : [];
  // at most data.shown are drawn, in the editors and in the list; the rest are counted
  const shown = found.slice(0, data.shown);
  const said = withLaunch ? answer.said : [];
  const configFile = withLaunch ? answer.named : null;
  // in the launch: the findings of the ds_config it builds (an Accelerate config), and those dsref check places at
  // the launch's flag or key (an "auto" the launch fills: its "auto" is their related place in the config)
  const inLaunch = (f) => withLaunch && (answer.pane === "launch" || f.file === answer.launch_file);
  const doc = view.state.doc;
  const launchDoc = launchView.state.doc;
  const configMarks = [];
  const launchMarks = said.filter((f) => !f.file).map((f) => diagnostic(launchDoc, f));
  for (const f of shown) {
    if (!inLaunch(f)) {
      if (!f.file) configMarks.push(diagnostic(doc, f)); // f.file: another file the launch names, not in the page
      continue;
    }
    launchMarks.push(diagnostic(launchDoc, f));
    for (const place of f.related ?? []) {
      if (place.file === configFile) configMarks.push(diagnostic(doc, f, place, `${f.file}:${f.line}:${f.column}: `));
    }
  }
  for (const mark of withLaunch ? answer.marks : []) {
    const f = found[mark.finding];
    if (mark.finding >= shown.length) continue;
    launchMarks.push(diagnostic(launchDoc, f, mark, `${configFile}:${f.line}:${f.column}: `));
  }
  view.dispatch(setDiagnostics(view.state, configMarks));
  launchView.dispatch(setDiagnostics(launchView.state, launchMarks));
  const where = (f) => (withLaunch ? (f.file ?? (answer.pane === "launch" ? answer.launch_file : configFile)) : null);
  list.replaceChildren(
    ...said.map((f) => finding(f, f.file ?? answer.launch_file)),
    ...shown.map((f) => finding(f, where(f))),
  );
  if (found.length > shown.length) {
    more.textContent = say("more_findings", { hidden: found.length - shown.length, shown: shown.length });
  }
  const parts = [say("ready", { version })];
  if (report) parts.push(say("checked_for", { release: report.checked_for?.deepspeed ?? release.value }));
  if (withLaunch && answer.form) {
    const processes =
      answer.world_size == null ? T.launch_processes_unknown : say("launch_processes", { count: answer.world_size });
    parts.push(say("launch_read", { form: T["launch_form_" + answer.form], processes }));
    if (answer.named) parts.push(say("launch_named", { written: answer.named }));
    if (answer.builds) parts.push(T.launch_builds);
  }
  if (!report) parts.push(T.launch_unread);
  else {
    const file = report.files[0];
    const counts = say("findings", { errors: file.errors, warnings: file.warnings, infos: file.infos });
    parts.push(found.length ? counts : T.no_findings);
  }
  status.textContent = parts.join(" ");
}

async function changed() {
  const text = view.state.doc.toString();
  const launch = launchText();
  if (!ready) {
    instant();
    return;
  }
  if (askedKey(text, launch) === stoppedOn) return; // the reader's next change is checked
  try {
    const asked = performance.now();
    const answer = await ask("check", text, launch ? { launch } : {});
    state.checkMs.push(performance.now() - asked);
    state.exactAt ??= performance.now();
    show(answer, text, launch);
  } catch {
    /* stopped: said by stop(), and the next text is checked once it has started again */
  }
}

function setText(text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

function setLaunch(text) {
  launchView.dispatch({ changes: { from: 0, to: launchView.state.doc.length, insert: text } });
}

async function fixAll(unsafe) {
  const text = view.state.doc.toString();
  if (!ready || text === stoppedOn) return;
  let answer;
  try {
    answer = await ask("fix", text, { unsafe });
  } catch {
    return; // stopped: said by stop()
  }
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
  const fragment = toFragment(view.state.doc.toString(), launchView.state.doc.toString());
  history.replaceState(null, "", fragment);
  try {
    await navigator.clipboard.writeText(location.href);
  } catch {
    /* no clipboard here (an insecure page, a test): the address bar holds the link */
  }
  status.textContent = T.shared;
};
profile.onchange = release.onchange = world.onchange = () => {
  stoppedOn = null; // under other settings, the text the checker stopped on is tried again
  changed();
}; // a typed release: on Enter, or on leaving the field

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
