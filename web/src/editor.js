// The variant editor: CodeMirror 6 with the language server's answers from the wasm module
// (diagnostics with quick fixes, hovers, completions). One wasm Document is kept per version
// of the text and freed when the text changes.

import { EditorState } from '@codemirror/state';
import { EditorView, keymap, hoverTooltip, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { StreamLanguage, syntaxHighlighting, HighlightStyle } from '@codemirror/language';
import { linter, lintGutter, lintKeymap } from '@codemirror/lint';
import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { search, searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { tags } from '@lezer/highlight';
import { Document } from '../pkg/tafl_wasm.js';

let cached = null;

/** The analysis of `text`, made once per version of the text. */
export function documentFor(text) {
  if (cached?.text === text) return cached.doc;
  cached?.doc.free();
  cached = { text, doc: new Document(text) };
  return cached.doc;
}

// Colours only: comments, quoted names, numbers and squares. Meaning comes from the checker.
const taflLanguage = StreamLanguage.define({
  name: 'tafl',
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match('#')) { stream.skipToEnd(); return 'comment'; }
    if (stream.match(/^"[^"]*"?/)) return 'string';
    if (stream.match(/^[a-s]\d{1,2}\b/)) return 'atom';
    if (stream.match(/^\d+/)) return 'number';
    if (stream.match(/^(board|setup|end|piece|name|source|family|note|region|attackers|defenders|win|lose|when|may|not|only|nobody|everyone|is|are|captured|hostile|armed|moves|like)\b/)) return 'keyword';
    if (!stream.match(/^[^\s#"]+/)) stream.next();
    return null;
  },
});

const highlight = HighlightStyle.define([
  { tag: tags.comment, color: '#8a8175', fontStyle: 'italic' },
  { tag: tags.string, color: '#2f7d4f' },
  { tag: tags.number, color: '#9a5b13' },
  { tag: tags.atom, color: '#1f5fa8' },
  { tag: tags.keyword, color: '#7b3fa0' },
]);

const escapeHtml = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

/** One line of a message with its `code` spans, as HTML. */
export function inline(text) {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** A diagnostic's message and help as HTML, their `code` spans drawn as code. */
export function messageHtml(d) {
  const help = d.help ? `<div class="help">help: ${inline(d.help)}</div>` : '';
  return `<div>${inline(d.message)}</div>${help}`;
}

/** The little Markdown the hovers use: paragraphs, `code`, **bold** and *italics*. */
export function markdown(text) {
  return escapeHtml(text).split(/\n{2,}/).map((para) => `<p>${para
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>')
    .replace(/\n/g, '<br>')}</p>`).join('');
}

/** A diagnostic's quick fix as a change of the current text: the fix was computed for the text
 * the diagnostic was made for, so it moves with the diagnostic's own position. */
export function fixChange(diagnostic, shift = 0) {
  const { range, replacement } = diagnostic.fix;
  return { from: range.from + shift, to: range.to + shift, insert: replacement };
}

export function fixName(diagnostic) {
  const { replacement } = diagnostic.fix;
  return replacement === '' ? 'Delete it' : `Write “${replacement.trim()}”`;
}

function toCodeMirror(d, length) {
  const range = d.labels[0]?.range ?? { from: 0, to: 0 };
  const from = Math.min(range.from, length);
  const to = Math.min(Math.max(range.to, from), length);
  return {
    from,
    to,
    severity: d.severity === 'note' ? 'info' : d.severity,
    source: d.code,
    message: d.help ? `${d.message}\nhelp: ${d.help}` : d.message,
    // The messages mark code with backticks, as the terminal shows them: drawn as code here.
    renderMessage() {
      const dom = document.createElement('div');
      dom.innerHTML = messageHtml(d);
      return dom;
    },
    actions: d.fix ? [{
      name: fixName(d),
      apply(view, at) { view.dispatch({ changes: fixChange(d, at - from) }); },
    }] : [],
  };
}

/**
 * The editor in `parent`. `check(text)` checks a version of the text (in a worker: a promise of
 * `{ diagnostics, explanation, hash }`, see checker.js); `onCheck(text, result)` hears every
 * checked version, the latest only.
 */
export function createEditor(parent, check, onCheck) {
  let latest = 0;
  const lint = linter(async (view) => {
    const text = view.state.doc.toString();
    const asked = ++latest;
    const result = await check(text);
    // A later version is being checked: its answer will say what is true.
    if (asked !== latest) return [];
    onCheck(text, result);
    return result.diagnostics.map((d) => toCodeMirror(d, text.length));
  }, { delay: 250 });

  const hovers = hoverTooltip((view, pos) => {
    const found = documentFor(view.state.doc.toString()).hover(pos);
    if (!found) return null;
    const { range, text } = JSON.parse(found);
    return {
      pos: range.from,
      end: range.to,
      above: true,
      create() {
        const dom = document.createElement('div');
        dom.className = 'tafl-hover';
        dom.innerHTML = markdown(text);
        return { dom };
      },
    };
  });

  const completions = autocompletion({
    icons: false,
    override: [(context) => {
      const word = context.matchBefore(/[\w'-]*/);
      if (!word || (word.from === word.to && !context.explicit)) return null;
      const items = JSON.parse(documentFor(context.state.doc.toString()).completions(context.pos));
      const type = { keyword: 'keyword', piece: 'class', region: 'constant', square: 'variable' };
      return {
        from: word.from,
        options: items.map((c) => ({ label: c.label, type: type[c.kind], detail: c.detail ?? undefined })),
        validFor: /^[\w'-]*$/,
      };
    }],
  });

  return new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(), history(),
        taflLanguage, syntaxHighlighting(highlight), lint, lintGutter(), hovers, completions,
        // Ctrl-F / Cmd-F finds (and replaces) in the text, as in any editor.
        search({ top: true }), highlightSelectionMatches(),
        keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap, ...completionKeymap, ...searchKeymap, indentWithTab]),
        EditorView.lineWrapping,
      ],
    }),
  });
}

/** Replaces the whole text. */
export function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}
