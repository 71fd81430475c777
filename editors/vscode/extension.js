// dsref for VS Code: starts `dsref server` (the language server) for JSON files and hands it the dsref settings.
//
// The server decides which JSON files are DeepSpeed configs (by name or content) and answers for those only.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

/** The command that starts the server: dsref.server.command, else <dsref.interpreter> -m dsref server. */
function serverCommand(config, platform = process.platform) {
  const command = config.get("server.command") || [];
  if (Array.isArray(command) && command.length > 0) {
    return command.map(String);
  }
  const interpreter = config.get("interpreter") || (platform === "win32" ? "python" : "python3");
  return [interpreter, "-m", "dsref", "server"];
}

/** The settings the server reads (initializationOptions, and the dsref section on every change). */
function serverSettings(config) {
  return {
    language: config.get("language") ?? null,
    profile: config.get("profile") ?? null,
    worldSize: config.get("worldSize") ?? null,
    deepspeedVersion: config.get("deepspeedVersion") ?? null,
    python: config.get("python") || null,
  };
}

function clientOptions(config) {
  const selector = [];
  for (const language of ["json", "jsonc"]) {
    for (const scheme of ["file", "untitled"]) {
      selector.push({ scheme, language });
    }
  }
  // launch files (a LLaMA-Factory, axolotl or Accelerate YAML, a shell script): saved ones, whose ds_config is
  // found relative to them; the server says nothing of a YAML or a script that launches no DeepSpeed run
  for (const language of ["yaml", "shellscript"]) {
    selector.push({ scheme: "file", language });
  }
  return {
    documentSelector: selector,
    synchronize: { configurationSection: "dsref" },
    initializationOptions: serverSettings(config),
  };
}

async function activate(context) {
  const config = vscode.workspace.getConfiguration("dsref");
  const [command, ...args] = serverCommand(config);
  const serverOptions = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient("dsref", "dsref", serverOptions, clientOptions(config));
  context.subscriptions.push({ dispose: () => (client ? client.stop() : undefined) });
  // What the checks are for (the DeepSpeed release and how the file is read), as `dsref check` says it first.
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  context.subscriptions.push(status);
  client.onNotification("dsref/status", (params) => showStatus(status, params));
  await client.start();
}

/** The status bar item for a dsref/status notification: the release checked for, the whole sentence on hover. */
function showStatus(item, params) {
  if (!params || typeof params.text !== "string") {
    return;
  }
  item.text = typeof params.deepspeed === "string" ? `dsref: DeepSpeed ${params.deepspeed}` : "dsref";
  item.tooltip = params.text;
  item.show();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, serverCommand, serverSettings, clientOptions, showStatus };
