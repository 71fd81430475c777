// Loads extension.js with `vscode` and the language client stubbed, runs activate(), and prints what it would start.
// Run by tests/test_vscode_extension.py: node test/smoke.js '<settings as JSON>' [platform]
"use strict";

const Module = require("node:module");

const settings = JSON.parse(process.argv[2] || "{}");
const started = [];

const stubs = {
  vscode: {
    workspace: {
      getConfiguration: (section) => ({
        get: (key) => (section === "dsref" ? settings[key] : undefined),
      }),
    },
  },
  "vscode-languageclient/node": {
    TransportKind: { stdio: 0, ipc: 1 },
    LanguageClient: class {
      constructor(id, name, serverOptions, clientOptions) {
        started.push({ id, name, serverOptions, clientOptions });
      }
      async start() {}
      async stop() {}
    },
  },
};

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request in stubs ? request : resolve.call(this, request, ...rest);
};
for (const [name, exports] of Object.entries(stubs)) {
  require.cache[name] = { id: name, filename: name, loaded: true, exports };
}

const extension = require("../extension.js");
const context = { subscriptions: [] };
extension.activate(context).then(() => {
  const command = extension.serverCommand({ get: (key) => settings[key] }, process.argv[3] || process.platform);
  process.stdout.write(JSON.stringify({ started, command, subscriptions: context.subscriptions.length }));
});
