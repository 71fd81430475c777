// What SchemaStore's CI does to a submitted schema, run on dsref's submission (editors/schemastore/):
//
//   node schemastore.mjs <submission-dir> [<more JSON files to check with Prettier>...]
//
// Ajv compiles src/schemas/json/<name>.json in strict mode, told only about the keywords the submission's
// options entry declares and those SchemaStore's own checker knows; every file under src/test/<name>/ must then be
// valid and every file under src/negative_test/<name>/ invalid. Prettier checks every JSON file of the
// submission. The answer is JSON on stdout, read by tests/functional/test_schemastore.py, which makes the assertions.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import Ajv from "ajv";
import * as prettier from "prettier";

// The non-standard keywords SchemaStore's checker accepts in every schema without an options entry.
const SCHEMASTORE_KNOWN = ["markdownDescription", "enumDescriptions", "defaultSnippets"];

function jsonFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...jsonFiles(path));
    else if (name.endsWith(".json")) found.push(path);
  }
  return found;
}

function compile(schema, keywords) {
  const ajv = new Ajv({ strict: true, allErrors: true });
  for (const keyword of keywords) ajv.addKeyword(keyword);
  return ajv.compile(schema);
}

const root = process.argv[2];
const options = JSON.parse(readFileSync(join(root, "src/schema-validation-options.json"), "utf8"));
const [[schemaFile, { unknownKeywords }]] = Object.entries(options);
const name = schemaFile.replace(/\.json$/, "");
const schema = JSON.parse(readFileSync(join(root, "src/schemas/json", schemaFile), "utf8"));

const answer = { schema: schemaFile, compiled: null, undeclared: null, positive: [], negative: [], unformatted: [] };
let validate = null;
try {
  validate = compile(schema, [...SCHEMASTORE_KNOWN, ...unknownKeywords]);
  answer.compiled = "ok";
} catch (error) {
  answer.compiled = String(error.message ?? error);
}
try {
  compile(schema, SCHEMASTORE_KNOWN); // without the options entry, strict mode must refuse the VS Code keywords
  answer.undeclared = "ok";
} catch (error) {
  answer.undeclared = String(error.message ?? error);
}
if (validate) {
  for (const [kind, dir] of [["positive", "test"], ["negative", "negative_test"]]) {
    for (const file of jsonFiles(join(root, "src", dir, name))) {
      const valid = validate(JSON.parse(readFileSync(file, "utf8")));
      answer[kind].push({ file: relative(root, file), valid, errors: (validate.errors ?? []).map((e) => e.message) });
    }
  }
}
for (const file of [...jsonFiles(root), ...process.argv.slice(3)]) {
  const text = readFileSync(file, "utf8");
  if (!(await prettier.check(text, { parser: "json", filepath: file }))) answer.unformatted.push(relative(root, file));
}
process.stdout.write(JSON.stringify(answer) + "\n");
