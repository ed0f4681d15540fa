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

/// The five mistakes: a misspelt keyword, a short setup row, an undefined square name,
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
