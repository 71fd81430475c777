// A real editor client for dsref's JSON Schema: VS Code's JSON language service, run with node.
//
//   node client.mjs session <request.json>   completions, hovers and diagnostics, as VS Code computes them
//   node client.mjs ajv <schema.json>...      compile each schema with Ajv in strict mode (as SchemaStore does)
//
// The request names the schema files, the URL each is served at, and the documents to open; every
// document gets the positions to complete and hover at. The answer is JSON on stdout, read by
// tests/functional/test_editor_client.py, which makes the assertions.

import { readFileSync } from "node:fs";
import Ajv from "ajv";
import languageService from "vscode-json-languageservice";

const { getLanguageService, TextDocument } = languageService;

// VS Code's extensions to JSON Schema that dsref uses (kept in step with dsref.editor.jsonschema.EDITOR_KEYWORDS).
const EDITOR_KEYWORDS = [
  "markdownDescription",
  "enumDescriptions",
  "deprecationMessage",
  "errorMessage",
  "doNotSuggest",
  "defaultSnippets",
];

function markup(contents) {
  if (Array.isArray(contents)) return contents.map(markup).join("\n\n");
  if (typeof contents === "string") return contents;
  return contents?.value ?? "";
}

async function session(requestPath) {
  const request = JSON.parse(readFileSync(requestPath, "utf8"));
  const served = new Map(request.schemas.map((s) => [s.url, readFileSync(s.file, "utf8")]));
  const service = getLanguageService({
    // The site, as the editor sees it: a schema URL answers with the committed file.
    schemaRequestService: async (uri) => {
      if (served.has(uri)) return served.get(uri);
      throw new Error(`no schema at ${uri}`);
    },
  });
  service.configure({
    validate: true,
    allowComments: false,
    schemas: request.schemas
      .filter((s) => s.fileMatch)
      .map((s) => ({ uri: s.url, fileMatch: s.fileMatch })),
  });
  const results = [];
  for (const doc of request.documents) {
    const document = TextDocument.create(doc.uri, "json", 1, doc.text);
    const json = service.parseJSONDocument(document);
    const diagnostics = await service.doValidation(document, json);
    const completions = [];
    for (const position of doc.complete ?? []) {
      const list = await service.doComplete(document, position, json);
      completions.push(
        (list?.items ?? []).map((item) => ({
          label: item.label,
          insertText: item.insertText ?? null,
          documentation: markup(item.documentation ?? ""),
        })),
      );
    }
    const hovers = [];
    for (const position of doc.hover ?? []) {
      const hover = await service.doHover(document, position, json);
      hovers.push(hover ? markup(hover.contents) : null);
    }
    results.push({
      uri: doc.uri,
      diagnostics: diagnostics.map((d) => ({
        message: d.message,
        severity: d.severity,
        code: d.code ?? null,
        range: d.range,
        text: document.getText(d.range),
      })),
      completions,
      hovers,
    });
  }
  return results;
}

function ajvStrict(files) {
  const results = [];
  for (const file of files) {
    const ajv = new Ajv({ strict: true, allErrors: true });
    for (const keyword of EDITOR_KEYWORDS) ajv.addKeyword(keyword);
    try {
      ajv.compile(JSON.parse(readFileSync(file, "utf8")));
      results.push({ file, ok: true, error: null });
    } catch (error) {
      results.push({ file, ok: false, error: String(error.message ?? error) });
    }
  }
  return results;
}

const [mode, ...args] = process.argv.slice(2);
if (mode === "session") {
  process.stdout.write(JSON.stringify(await session(args[0])) + "\n");
} else if (mode === "ajv") {
  process.stdout.write(JSON.stringify(ajvStrict(args)) + "\n");
} else {
  process.stderr.write("usage: node client.mjs session <request.json> | ajv <schema.json>...\n");
  process.exit(2);
}
