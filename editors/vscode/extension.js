// Starts `tafl lsp` for .tafl files. The language server does all the work; this only
// launches it (the path comes from the `tafl.server.path` setting).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("tafl").get("server.path", "tafl");
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "tafl",
    "Tafl language server",
    { run: server, debug: server },
    { documentSelector: [{ language: "tafl" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
