// Loads extension.js with `vscode` and the language client stubbed, runs activate(), and prints what it would start.
// Run by tests/test_vscode_extension.py: node test/smoke.js '<settings as JSON>' [platform] ['<dsref/status params>']
"use strict";

const Module = require("node:module");

const settings = JSON.parse(process.argv[2] || "{}");
const status = JSON.parse(process.argv[4] || "null");
const started = [];
const handlers = {};
const item = { text: "", tooltip: "", shown: false, show() { this.shown = true; }, dispose() {} };

const stubs = {
  vscode: {
    StatusBarAlignment: { Left: 1, Right: 2 },
    window: { createStatusBarItem: () => item },
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
      onNotification(method, handler) {
        handlers[method] = handler;
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
  if (status !== null && handlers["dsref/status"]) {
    handlers["dsref/status"](status); // as the server sends it after `initialized`
  }
  const statusBar = { text: item.text, tooltip: item.tooltip, shown: item.shown };
  process.stdout.write(
    JSON.stringify({ started, command, subscriptions: context.subscriptions.length, statusBar }),
  );
});
