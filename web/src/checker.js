// The checker, off the page's thread: for each version of the text it answers its problems
// (the language server's diagnostics), and for a text without errors its rules in words and
// their hash, from one parse. A text of a megabyte takes seconds to check; here the page keeps
// answering keys meanwhile. The page sends the compiled wasm module first, as to the computer's
// worker.

import init, { Document, explain, rulesHash } from '../pkg/tafl_wasm.js';

let ready = null;

self.onmessage = async ({ data }) => {
  if (data.module) {
    ready = init({ module_or_path: data.module });
    return;
  }
  const { id, text } = data;
  try {
    await ready;
    const doc = new Document(text);
    try {
      const diagnostics = doc.diagnostics();
      const clean = !doc.hasErrors();
      self.postMessage({
        id,
        diagnostics,
        explanation: clean ? explain(text) : null,
        hash: clean ? rulesHash(text) ?? null : null,
      });
    } finally {
      doc.free();
    }
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
};
