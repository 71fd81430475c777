// Copies into the extension what it ships but the repository keeps once: the editor JSON Schema and the licence.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const here = __dirname;
const root = path.resolve(here, "..", "..");
fs.mkdirSync(path.join(here, "schemas"), { recursive: true });
fs.copyFileSync(path.join(root, "schemas", "ds_config.schema.json"), path.join(here, "schemas", "ds_config.schema.json"));
fs.copyFileSync(path.join(root, "LICENSE"), path.join(here, "LICENSE"));
