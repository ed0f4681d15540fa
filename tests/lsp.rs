//! `tafl lsp` driven over JSON-RPC as an editor drives it: the real binary, real messages.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use serde_json::{json, Value};

/// Long enough for a busy machine; a server that says nothing for this long has hung.
const PATIENCE: Duration = Duration::from_secs(60);

const URI: &str = "file:///tmp/five-mistakes.tafl";

/// The issue's five mistakes: a misspelt keyword, a short setup row, an undefined square name,
/// a king forbidden the corners while winning at them, no first mover.
const FIVE_MISTAKES: &str = include_str!("lint/many_problems_five_mistakes.tafl");

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, messages) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 1,
        }
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len())
            .expect("the server reads");
        self.stdin.flush().expect("the server reads");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its result, skipping the notifications before it.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.next();
            if message["id"] == json!(id) {
                assert!(message.get("error").is_none(), "{method} failed: {message}");
                return message["result"].clone();
            }
        }
    }

    fn next(&self) -> Value {
        self.messages
            .recv_timeout(PATIENCE)
            .expect("the server answers in time")
    }

    /// The next `publishDiagnostics` notification.
    fn diagnostics(&self) -> Value {
        loop {
            let message = self.next();
            if message["method"] == "textDocument/publishDiagnostics" {
                return message["params"].clone();
            }
        }
    }

    fn initialize(&mut self) -> Value {
        let result = self.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        self.notify("initialized", json!({}));
        result
    }

    fn open(&mut self, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": URI, "languageId": "tafl", "version": 1, "text": text}}),
        );
    }

    fn at(&mut self, method: &str, line: usize, character: usize) -> Value {
        let mut params = json!({
            "textDocument": {"uri": URI},
            "position": {"line": line, "character": character},
        });
        if method == "textDocument/references" {
            params["context"] = json!({"includeDeclaration": true});
        }
        self.request(method, params)
    }

    fn shut_down(mut self) {
        let result = self.request("shutdown", Value::Null);
        assert_eq!(result, Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("the server exits");
        assert!(
            status.success(),
            "exit after shutdown is a clean exit: {status}"
        );
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some(value) = header.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// The 0-based line and UTF-16 column of the first `needle` in `text`.
fn position_of(text: &str, needle: &str) -> (usize, usize) {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` is in the text"));
    let line = text[..offset].matches('\n').count();
    let line_start = text[..offset].rfind('\n').map_or(0, |index| index + 1);
    (line, text[line_start..offset].encode_utf16().count())
}

fn range_of(text: &str, needle: &str) -> Value {
    range_in(text, needle, needle)
}

/// The range of `word` in the first `context` of `text` (for a word that also occurs earlier).
fn range_in(text: &str, context: &str, word: &str) -> Value {
    let (line, character) = position_of(text, context);
    let within = context.find(word).expect("the word is in its context");
    let character = character + context[..within].encode_utf16().count();
    json!({
        "start": {"line": line, "character": character},
        "end": {"line": line, "character": character + word.encode_utf16().count()},
    })
}

#[test]
fn an_editor_session() {
    let mut client = Client::start();
    let capabilities = client.initialize();
    assert_eq!(capabilities["serverInfo"]["name"], "tafl");
    assert_eq!(capabilities["capabilities"]["hoverProvider"], true);
    assert_eq!(
        capabilities["capabilities"]["textDocumentSync"], 1,
        "full sync"
    );

    // Opening the broken file publishes all five mistakes, each where `tafl lint` puts it.
    client.open(FIVE_MISTAKES);
    let published = client.diagnostics();
    assert_eq!(published["uri"], URI);
    let diagnostics = published["diagnostics"].as_array().expect("a list");
    let codes: Vec<&str> = diagnostics
        .iter()
        .map(|diagnostic| diagnostic["code"].as_str().expect("a code"))
        .collect();
    assert_eq!(
        codes,
        [
            "tafl::syntax::unknown_clause",
            "tafl::check::missing_first_move",
            "tafl::check::setup_width",
            "tafl::check::unknown_region",
            "tafl::check::unreachable_escape",
        ]
    );
    let typo = &diagnostics[0];
    assert_eq!(typo["range"], range_in(FIVE_MISTAKES, "boadr 9", "boadr"));
    assert_eq!(typo["severity"], 1, "an error");
    assert_eq!(typo["source"], "tafl");
    let message = typo["message"].as_str().expect("a message");
    assert!(message.contains("help: did you mean `board`?"), "{message}");
    assert_eq!(diagnostics[1]["severity"], 2, "a warning");
    assert_eq!(
        diagnostics[2]["range"],
        range_of(FIVE_MISTAKES, "t . . . T . . t")
    );
    assert_eq!(
        diagnostics[3]["range"],
        range_in(FIVE_MISTAKES, "the thorne", "thorne")
    );
    let related = &diagnostics[4]["relatedInformation"][0];
    assert_eq!(
        related["location"]["range"],
        range_of(FIVE_MISTAKES, "nobody may enter the corners")
    );
    assert_eq!(related["message"], "this clause forbids it");

    // Quick fixes: "did you mean" as an edit, for the keyword and for the region name.
    for (context, word, fixed) in [
        ("boadr 9", "boadr", "board"),
        ("the thorne", "thorne", "throne"),
    ] {
        let range = range_in(FIVE_MISTAKES, context, word);
        let actions = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": URI}, "range": range, "context": {"diagnostics": []}}),
        );
        let action = &actions[0];
        assert_eq!(action["kind"], "quickfix");
        assert_eq!(action["title"], format!("Write `{fixed}`"));
        let edit = &action["edit"]["changes"][URI][0];
        assert_eq!(edit["range"], range);
        assert_eq!(edit["newText"], fixed);
    }

    // Hover: a clause in the words of `tafl show`, and a name with its declaration.
    let (line, character) = position_of(FIVE_MISTAKES, "attackers win when");
    let hover = client.at("textDocument/hover", line, character + 3);
    assert_eq!(hover["contents"]["kind"], "markdown");
    assert_eq!(
        hover["contents"]["value"],
        "The Attackers win when the King is captured."
    );
    assert_eq!(
        hover["range"],
        range_of(FIVE_MISTAKES, "attackers win when the king is captured")
    );

    // Completion: keywords in context, then regions where a region is named.
    let edited = FIVE_MISTAKES.replace(
        "everyone moves like a rook",
        "everyone moves like a rook\nnobody may land on the c",
    );
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": edited}]}),
    );
    let after_change = client.diagnostics();
    assert_eq!(after_change["uri"], URI);
    let (line, character) = position_of(&edited, "land on the c");
    let completion = client.at(
        "textDocument/completion",
        line,
        character + "land on the c".len(),
    );
    let labels: Vec<(&str, u64)> = completion
        .as_array()
        .expect("a list of items")
        .iter()
        .map(|item| {
            (
                item["label"].as_str().expect("a label"),
                item["kind"].as_u64().expect("a kind"),
            )
        })
        .collect();
    // 21 is CompletionItemKind::CONSTANT, how regions are offered.
    assert_eq!(labels, [("throne", 21), ("corners", 21), ("edge", 21)]);

    let (line, character) = position_of(&edited, "nobody may land on the c");
    let keywords = client.at(
        "textDocument/completion",
        line,
        character + "nobody may ".len(),
    );
    let keywords: Vec<&str> = keywords
        .as_array()
        .expect("a list of items")
        .iter()
        .map(|item| item["label"].as_str().expect("a label"))
        .collect();
    assert_eq!(keywords, ["enter", "land", "not", "pass"]);

    // The outline groups clauses by rule family.
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let families: Vec<&str> = symbols
        .as_array()
        .expect("a list of symbols")
        .iter()
        .map(|symbol| symbol["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(
        families,
        ["About", "Board and sides", "Moving", "End of the game"]
    );

    client.shut_down();
}

#[test]
fn definitions_and_references_over_the_wire() {
    let text = "board 7 x 7\nregion camps = d1 d7\nattackers may not enter the camps\n\
                defenders may not land on a camp\n";
    let mut client = Client::start();
    client.initialize();
    client.open(text);
    client.diagnostics();
    let (line, character) = position_of(text, "the camps");
    let definition = client.at("textDocument/definition", line, character + 5);
    assert_eq!(definition[0]["uri"], URI);
    assert_eq!(definition[0]["range"], range_of(text, "camps"));
    assert_eq!(definition.as_array().map(Vec::len), Some(1));
    let references = client.at("textDocument/references", line, character + 5);
    let ranges: Vec<&Value> = references
        .as_array()
        .expect("a list of locations")
        .iter()
        .map(|location| &location["range"])
        .collect();
    assert_eq!(ranges.len(), 3, "{references}");
    assert_eq!(ranges[2], &range_in(text, "a camp\n", "camp"));
    client.shut_down();
}

#[test]
fn unknown_requests_get_an_error_not_a_crash() {
    let mut client = Client::start();
    client.initialize();
    client.send(
        &json!({"jsonrpc": "2.0", "id": 99, "method": "textDocument/formatting", "params": {}}),
    );
    let reply = loop {
        let message = client.next();
        if message["id"] == 99 {
            break message;
        }
    };
    assert_eq!(reply["error"]["code"], -32601, "method not found");
    // A request about a file that is not open answers null.
    let hover = client.at("textDocument/hover", 0, 0);
    assert_eq!(hover, Value::Null);
    client.shut_down();
}

/// Every query at every offset of mangled bundled files answers without panicking, with spans
/// inside the text on character boundaries.
mod queries_never_panic {
    use proptest::prelude::*;
    use tafl::lsp::Analysis;

    fn bundled(index: usize) -> &'static str {
        tafl::BUNDLED[index % tafl::BUNDLED.len()].1
    }

    fn check_span(text: &str, span: tafl::span::Span) {
        assert!(span.start <= span.end && span.end <= text.len(), "{span:?}");
        assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
    }

    fn query_everywhere(text: &str) {
        let analysis = Analysis::new("mangled.tafl", text);
        let mut offset = 0;
        while offset <= text.len() {
            if let Some(hover) = analysis.hover(offset) {
                check_span(text, hover.span);
            }
            analysis.completions(offset);
            for span in analysis.definition(offset) {
                check_span(text, span);
            }
            for span in analysis.references(offset, true) {
                check_span(text, span);
            }
            offset += 1;
        }
        analysis.symbols();
        for token in analysis.tokens() {
            check_span(text, token.span);
        }
    }

    /// A misspelt keyword with a wide character in it (`ti𝔸mes`, read as `times`) once gave
    /// its clause a span ending inside that character (found by the proptest below).
    #[test]
    fn a_corrected_keyword_keeps_clauses_on_character_boundaries() {
        let text =
            "board 9 x 9\nthe defenders lose when a position occurs 3 ti\u{1D538}mes # note\n";
        query_everywhere(text);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn after_inserting_text(file in 0usize..64, at in 0usize..4000, inserted in "[a-z ,.:=\"é𝔸\n#]{0,12}") {
            let text = bundled(file);
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let mangled = format!("{}{inserted}{}", &text[..at], &text[at..]);
            query_everywhere(&mangled);
        }

        #[test]
        fn after_deleting_text(file in 0usize..64, at in 0usize..4000, length in 0usize..40) {
            let text = bundled(file);
            let start = at.min(text.len());
            let end = (start + length).min(text.len());
            if text.is_char_boundary(start) && text.is_char_boundary(end) {
                let mangled = format!("{}{}", &text[..start], &text[end..]);
                query_everywhere(&mangled);
            }
        }
    }
}

/// A 7 x 7 file with no first mover and built-in regions.
const SMALL: &str = "board 7 x 7\nsetup\n  . . . t . . .\n  . . . t . . .\n  . . . T . . .\n\
                     t t T K T t t\n  . . . T . . .\n  . . . t . . .\n  . . . t . . .\nend\n\
                     everyone moves like a rook\nnobody may land on the throne\n\
                     defenders win when the king reaches a corner\nattackers win when the king is captured\n";

#[test]
fn the_missing_first_move_has_a_quick_fix_that_writes_it() {
    let mut client = Client::start();
    client.initialize();
    client.open(SMALL);
    let published = client.diagnostics();
    let missing = published["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|d| d["code"] == "tafl::check::missing_first_move")
        .expect("the warning")
        .clone();
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": URI}, "range": missing["range"], "context": {"diagnostics": []}}),
    );
    let action = &actions[0];
    assert_eq!(action["title"], "Write `attackers move first`");
    let edit = &action["edit"]["changes"][URI][0];
    // Inserted after `board 7 x 7`, on a line of its own.
    let end_of_board = json!({"line": 0, "character": 11});
    assert_eq!(
        edit["range"],
        json!({"start": end_of_board, "end": end_of_board})
    );
    assert_eq!(edit["newText"], "\nattackers move first");
    // Applied, the warning is gone.
    let fixed = SMALL.replacen("board 7 x 7", "board 7 x 7\nattackers move first", 1);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    let after = client.diagnostics();
    assert!(!after.to_string().contains("missing_first_move"), "{after}");
    client.shut_down();
}

#[test]
fn a_built_in_region_is_defined_by_its_cells_and_an_unknown_word_by_nothing() {
    let mut client = Client::start();
    client.initialize();
    client.open(SMALL);
    client.diagnostics();
    let (line, character) = position_of(SMALL, "the throne");
    let throne = client.at("textDocument/definition", line, character + 5);
    // The king's cell, d4, in the diagram.
    assert_eq!(throne[0]["range"], range_in(SMALL, "K T t t", "K"));
    let (line, character) = position_of(SMALL, "everyone");
    let nothing = client.at("textDocument/definition", line, character + 2);
    assert_eq!(nothing, json!([]), "an empty list, not null");
    client.shut_down();
}

#[test]
fn semantic_tokens_colour_the_file() {
    let mut client = Client::start();
    let capabilities = client.initialize();
    let provider = &capabilities["capabilities"]["semanticTokensProvider"];
    assert_eq!(provider["full"], true);
    let legend: Vec<&str> = provider["legend"]["tokenTypes"]
        .as_array()
        .expect("a legend")
        .iter()
        .map(|t| t.as_str().expect("a name"))
        .collect();
    client.open(SMALL);
    client.diagnostics();
    let result = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": URI}}),
    );
    let data: Vec<u64> = result["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|n| n.as_u64().expect("a number"))
        .collect();
    assert_eq!(data.len() % 5, 0);
    // Decode: (line, column, length, type) of each token.
    let mut tokens = Vec::new();
    let (mut line, mut column) = (0, 0);
    for chunk in data.chunks(5) {
        if chunk[0] > 0 {
            column = 0;
        }
        line += chunk[0];
        column += chunk[1];
        tokens.push((line, column, chunk[2], legend[chunk[3] as usize]));
    }
    let token_at = |needle: &str| {
        let (l, c) = position_of(SMALL, needle);
        tokens
            .iter()
            .find(|t| t.0 == l as u64 && t.1 == c as u64)
            .map(|t| (t.2, t.3))
    };
    assert_eq!(token_at("board"), Some((5, "keyword")));
    assert_eq!(token_at("7 x"), Some((1, "number")));
    assert_eq!(token_at("K T t t"), Some((1, "macro")), "the king's cell");
    assert_eq!(token_at("throne"), Some((6, "namespace")), "a region");
    assert_eq!(token_at("defenders win"), Some((9, "type")), "a side");
    client.shut_down();
}

/// Issue 62, item 7: each token's column was counted from its line's start, so a long line
/// cost quadratic time (13 s at 256 KiB). The positions now come from one walk through the
/// text; every token of a long line, after others, with characters of two UTF-16 units before
/// it, still decodes to its own word.
#[test]
fn semantic_tokens_of_a_long_line_decode_to_their_words() {
    let mut client = Client::start();
    let capabilities = client.initialize();
    let legend: Vec<String> = capabilities["capabilities"]["semanticTokensProvider"]["legend"]
        ["tokenTypes"]
        .as_array()
        .expect("a legend")
        .iter()
        .map(|t| t.as_str().expect("a name").to_string())
        .collect();
    let long = "the king is armed ".repeat(2000);
    let text = format!("{SMALL}note \"𝔸𝔸 ü\"\n{long}# 𝔸 end\nthe king is armed\n");
    client.open(&text);
    client.diagnostics();
    let result = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": URI}}),
    );
    let data: Vec<u64> = result["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|n| n.as_u64().expect("a number"))
        .collect();
    let lines: Vec<Vec<u16>> = text.lines().map(|l| l.encode_utf16().collect()).collect();
    let (mut line, mut column) = (0usize, 0usize);
    let mut words: Vec<(usize, String, String)> = Vec::new();
    for chunk in data.chunks(5) {
        if chunk[0] > 0 {
            column = 0;
        }
        line += chunk[0] as usize;
        column += chunk[1] as usize;
        let units = &lines[line][column..column + chunk[2] as usize];
        words.push((
            line,
            String::from_utf16(units).expect("whole characters"),
            legend[chunk[3] as usize].clone(),
        ));
    }
    let long_line = SMALL.lines().count() + 1;
    let on_long: Vec<(&str, &str)> = words
        .iter()
        .filter(|(l, _, _)| *l == long_line)
        .map(|(_, word, kind)| (word.as_str(), kind.as_str()))
        .collect();
    assert_eq!(on_long.len(), 4 * 2000 + 1);
    for (i, pair) in on_long[..8000].iter().enumerate() {
        let expected = match i % 4 {
            0 => ("the", "keyword"),
            1 => ("king", "keyword"),
            2 => ("is", "keyword"),
            _ => ("armed", "keyword"),
        };
        assert_eq!(*pair, expected, "token {i}");
    }
    assert_eq!(on_long[8000], ("# 𝔸 end", "comment"));
    let note: Vec<(&str, &str)> = words
        .iter()
        .filter(|(l, _, _)| *l == long_line - 1)
        .map(|(_, word, kind)| (word.as_str(), kind.as_str()))
        .collect();
    assert_eq!(note, [("note", "keyword"), ("\"𝔸𝔸 ü\"", "string")]);
    let last: Vec<&str> = words
        .iter()
        .filter(|(l, _, _)| *l == long_line + 1)
        .map(|(_, word, _)| word.as_str())
        .collect();
    assert_eq!(last, ["the", "king", "is", "armed"]);
    client.shut_down();
}

/// Changes sent faster than the server checks them: each is answered or skipped, never
/// queued behind the others, and the diagnostics in the end are those of the last text.
#[test]
fn a_burst_of_changes_ends_with_the_diagnostics_of_the_last() {
    let mut client = Client::start();
    client.initialize();
    client.open(SMALL);
    client.diagnostics();
    // A large file (every line repeated), each version a little different.
    let big: String = SMALL.replace("attackers win when the king is captured\n", "")
        + &"# padding line\n".repeat(5000);
    for version in 2..60 {
        let text = format!("{big}# version {version}\n");
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }
    // The last version has the first mover: no warning about it.
    let last = SMALL.replacen("board 7 x 7", "board 7 x 7\nattackers move first", 1);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 60}, "contentChanges": [{"text": last}]}),
    );
    let hover = client.at("textDocument/hover", 1, 3);
    assert!(
        hover.to_string().contains("first"),
        "the last text is the one answered: {hover}"
    );
    client.shut_down();
}

/// Hostile input (issue 47): bytes a client should never send, sent all at once on stdin, which
/// is then closed.
mod hostile {
    use std::io::{BufReader, Read, Write};
    use std::process::{Command, ExitStatus, Stdio};
    use std::thread;
    use std::time::Instant;

    use serde_json::{json, Value};

    use super::{read_message, PATIENCE, SMALL};

    /// What the server did with a whole session's input.
    struct Session {
        status: ExitStatus,
        messages: Vec<Value>,
        log: String,
    }

    impl Session {
        /// The answer to request `id`.
        fn answer(&self, id: Value) -> &Value {
            self.messages
                .iter()
                .find(|message| message["id"] == id && message.get("method").is_none())
                .unwrap_or_else(|| panic!("no answer to {id}: {:?}\n{}", self.messages, self.log))
        }
    }

    fn framed(body: &[u8]) -> Vec<u8> {
        let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        bytes.extend_from_slice(body);
        bytes
    }

    fn message(value: Value) -> Vec<u8> {
        framed(value.to_string().as_bytes())
    }

    fn initialize() -> Vec<u8> {
        let mut bytes = message(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"processId": null, "rootUri": null, "capabilities": {}}}));
        bytes.extend(message(
            json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        ));
        bytes
    }

    fn hover(id: u64, uri: &str) -> Vec<u8> {
        message(
            json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}}),
        )
    }

    fn shut_down() -> Vec<u8> {
        let mut bytes = message(json!({"jsonrpc": "2.0", "id": "last", "method": "shutdown"}));
        bytes.extend(message(json!({"jsonrpc": "2.0", "method": "exit"})));
        bytes
    }

    /// Runs `tafl lsp` on `input`, reading its output as it comes.
    fn session(input: Vec<u8>) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        // A server that dies early breaks the pipe: that is for the exit status to tell.
        let writer = thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let reader = thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut messages = Vec::new();
            while let Some(message) = read_message(&mut reader) {
                messages.push(message);
            }
            messages
        });
        let logger = thread::spawn(move || {
            let mut log = String::new();
            let _ = stderr.read_to_string(&mut log);
            log
        });
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("the server can be waited for") {
                break status;
            }
            if start.elapsed() > PATIENCE {
                let _ = child.kill();
                panic!("the server did not end");
            }
            thread::sleep(std::time::Duration::from_millis(10));
        };
        writer.join().expect("the writer ends");
        Session {
            status,
            messages: reader.join().expect("the reader ends"),
            log: logger.join().expect("the logger ends"),
        }
    }

    /// The issue's lengths panicked ("capacity overflow"), aborted, or allocated 1.5 GB before
    /// reading the body: each is refused at its header, and the input ending inside its body
    /// ends the server cleanly.
    #[test]
    fn a_length_past_any_memory_is_refused_at_its_header() {
        for length in [u64::MAX, 2_000_000_000, 1_500_000_000] {
            let mut input = initialize();
            input.extend(hover(1, "file:///not-open.tafl"));
            input.extend(format!("Content-Length: {length}\r\n\r\n{{\"jsonrpc\":").as_bytes());
            let session = session(input);
            assert!(
                session.status.success(),
                "{length}: {}\n{}",
                session.status,
                session.log
            );
            assert_eq!(session.answer(json!(1))["result"], Value::Null);
            assert!(
                session.log.contains(&format!(
                    "tafl lsp: a message of {length} bytes is over the limit of 64 MiB; its body was skipped"
                )),
                "{}",
                session.log
            );
        }
    }

    /// A body over the limit is skipped unread, and the messages after it are answered.
    #[test]
    fn a_message_over_64_mib_is_skipped_and_the_next_is_answered() {
        let big = "board 7 x 7\n".repeat(64 * 1024 * 1024 / 12 + 1);
        let open =
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": "file:///big.tafl", "languageId": "tafl", "version": 1, "text": big}}})
            .to_string();
        assert!(open.len() > 64 * 1024 * 1024);
        let mut input = initialize();
        input.extend(framed(open.as_bytes()));
        input.extend(hover(1, "file:///big.tafl"));
        input.extend(shut_down());
        let session = session(input);
        assert!(
            session.status.success(),
            "{}\n{}",
            session.status,
            session.log
        );
        assert!(
            session.log.contains(&format!(
                "a message of {} bytes is over the limit of 64 MiB",
                open.len()
            )),
            "{}",
            session.log
        );
        // Never opened: no diagnostics, and a hover on it answers null.
        assert!(!session
            .messages
            .iter()
            .any(|message| message["method"] == "textDocument/publishDiagnostics"));
        assert_eq!(session.answer(json!(1))["result"], Value::Null);
        assert_eq!(session.answer(json!("last"))["result"], Value::Null);
    }

    /// Bad JSON, bytes that are not UTF-8, JSON that is no message, a header without a length,
    /// a body that runs into the next frame: each is logged and skipped, a request among them
    /// is answered with an error when its id can be read, and the server goes on.
    #[test]
    fn a_malformed_message_is_answered_or_skipped_and_the_server_goes_on() {
        let mut input = initialize();
        input.extend(framed(b"{{{{{"));
        input.extend(framed(
            br#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hov"#,
        ));
        input.extend(framed(
            b"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"textDocument/hover\",\"params\":\"\xff\"}",
        ));
        input.extend(framed(br#"{"jsonrpc":"2.0","id":9,"method":5}"#));
        input.extend(framed(br#"{"jsonrpc":"2.0","id":4294967296,"method":"x"}"#));
        input.extend(b"Content-Type: application/vscode-jsonrpc\r\n\r\n");
        input.extend(b"a line that is no header\r\n");
        input.extend(framed(b"\xff\xfe"));
        // A request whose length runs 40 bytes into the next frame.
        let cut = br#"{"jsonrpc":"2.0","id":10,"method":"textDocument/hover","params":"#;
        input.extend(format!("Content-Length: {}\r\n\r\n", cut.len() + 40).as_bytes());
        input.extend(cut);
        input.extend(hover(11, "file:///not-open.tafl"));
        // Notifications with parameters that are not the method's.
        input.extend(message(
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": [1]}),
        ));
        input.extend(message(
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": "file:///small.tafl", "languageId": "tafl",
                                        "version": 1, "text": SMALL}}}),
        ));
        input.extend(message(
            json!({"jsonrpc": "2.0", "id": 12, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": "file:///small.tafl"},
                       "position": {"line": 0, "character": 1}}}),
        ));
        input.extend(shut_down());
        let session = session(input);
        assert!(
            session.status.success(),
            "{}\n{}",
            session.status,
            session.log
        );
        for (id, code) in [
            (json!(7), -32700),
            (json!(8), -32700),
            (json!(9), -32600),
            (json!(4_294_967_296u64), -32600),
            (json!(10), -32700),
        ] {
            let answer = session.answer(id.clone());
            assert_eq!(answer["error"]["code"], code, "{answer}");
            assert_eq!(answer["jsonrpc"], "2.0");
        }
        assert_eq!(session.answer(json!(11))["result"], Value::Null);
        let hover = &session.answer(json!(12))["result"]["contents"]["value"];
        assert!(hover.to_string().contains("board"), "{hover}");
        let skipped = session
            .log
            .lines()
            .filter(|line| line.starts_with("tafl lsp: "))
            .count();
        assert_eq!(skipped, 10, "{}", session.log);
        for logged in [
            "a message that is not JSON was skipped",
            "a message that is not UTF-8 was skipped",
            "a message that is no JSON-RPC request, notification or response was skipped",
            "a message header without Content-Length was skipped",
            "26 bytes that are not a message header were skipped",
            "a message's Content-Length (104) runs past its end into the next message",
            "`textDocument/didOpen` skipped",
        ] {
            assert!(session.log.contains(logged), "{logged}: {}", session.log);
        }
    }

    /// Before `initialize` a request gets an error and the server waits on; after `shutdown`
    /// only `exit` is left.
    #[test]
    fn the_life_cycle_holds_against_messages_out_of_turn() {
        let mut input = hover(1, "file:///a.tafl");
        input.extend(framed(b"not json"));
        input.extend(initialize());
        input.extend(message(
            json!({"jsonrpc": "2.0", "id": 2, "method": "initialize",
            "params": {"capabilities": {}}}),
        ));
        input.extend(message(
            json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}),
        ));
        input.extend(hover(4, "file:///a.tafl"));
        input.extend(message(json!({"jsonrpc": "2.0", "method": "exit"})));
        let session = session(input);
        assert!(
            session.status.success(),
            "{}\n{}",
            session.status,
            session.log
        );
        assert_eq!(session.answer(json!(1))["error"]["code"], -32002);
        assert_eq!(
            session.answer(json!(0))["result"]["serverInfo"]["name"],
            "tafl"
        );
        assert_eq!(session.answer(json!(2))["error"]["code"], -32600);
        assert_eq!(session.answer(json!(3))["result"], Value::Null);
        assert_eq!(session.answer(json!(4))["error"]["code"], -32600);

        // `exit` without `shutdown` is an exit with code 1, as the protocol asks.
        let mut input = initialize();
        input.extend(message(json!({"jsonrpc": "2.0", "method": "exit"})));
        assert_eq!(session_status(input), Some(1));
        // The input ending is a clean end.
        assert_eq!(session_status(initialize()), Some(0));
        assert_eq!(session_status(b"Content-Length: 1".to_vec()), Some(0));
    }

    fn session_status(input: Vec<u8>) -> Option<i32> {
        session(input).status.code()
    }
}

/// Changes of 10,000 documents, read faster than checked, took seconds when each waiting
/// change looked through all the messages after it (issue 47): all are checked, each
/// document ends with the diagnostics of its last text, and a request after them is answered.
#[test]
fn ten_thousand_documents_opened_and_changed_are_all_checked() {
    const DOCUMENTS: usize = 10_000;
    let mut client = Client::start();
    client.initialize();
    let fixed = SMALL.replacen("board 7 x 7", "board 7 x 7\nattackers move first", 1);
    let uri = |document: usize| format!("file:///many/{document}.tafl");
    for document in 0..DOCUMENTS {
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(document), "languageId": "tafl", "version": 1, "text": SMALL}}),
        );
    }
    for document in 0..DOCUMENTS {
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(document), "version": 2}, "contentChanges": [{"text": fixed}]}),
        );
    }
    let id = client.next_id;
    client.next_id += 1;
    client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": uri(DOCUMENTS - 1)}, "position": {"line": 1, "character": 3}}}));
    let mut last = std::collections::HashMap::new();
    let hover = loop {
        let message = client.next();
        if message["id"] == json!(id) {
            break message;
        }
        if message["method"] == "textDocument/publishDiagnostics" {
            let params = &message["params"];
            let count = params["diagnostics"].as_array().map_or(0, Vec::len);
            last.insert(params["uri"].as_str().unwrap_or("").to_string(), count);
        }
    };
    assert!(hover["result"].to_string().contains("first"), "{hover}");
    assert_eq!(last.len(), DOCUMENTS);
    assert!(
        last.values().all(|&count| count == 0),
        "the fixed text has no warning"
    );
    client.shut_down();
}
