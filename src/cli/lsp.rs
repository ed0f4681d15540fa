//! `tafl lsp`: a language server over stdin and stdout, for editors.
//!
//! The protocol plumbing only: every answer comes from [`crate::lsp::Analysis`], which works in
//! byte offsets; this file converts them to the protocol's line and UTF-16 column positions.
//! Documents are synchronised whole (`TextDocumentSyncKind::FULL`): variant files are small,
//! and checking one takes well under a millisecond.

use std::collections::{HashMap, VecDeque};
use std::process::ExitCode;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Exit,
    Notification as NotificationKind, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, References,
    Request as RequestKind, SemanticTokensFullRequest, Shutdown,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CompletionItem, CompletionItemKind, CompletionOptions,
    CompletionParams, CompletionResponse, DiagnosticRelatedInformation, DiagnosticSeverity,
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams,
    GotoDefinitionResponse, Hover, HoverContents, HoverParams, HoverProviderCapability,
    InitializeResult, Location, MarkupContent, MarkupKind, NumberOrString, OneOf, Position,
    PublishDiagnosticsParams, Range, ReferenceParams, SemanticToken, SemanticTokenType,
    SemanticTokens, SemanticTokensFullOptions, SemanticTokensLegend, SemanticTokensOptions,
    SemanticTokensParams, SemanticTokensResult, SemanticTokensServerCapabilities,
    ServerCapabilities, ServerInfo, SymbolKind, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextEdit, Uri, WorkspaceEdit,
};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::diagnostic::Severity;
use crate::lsp::{self, Analysis, CompletionKind, TokenKind};
use crate::span::Span;

/// Arguments of `tafl lsp`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Accepted for editors that pass it: the server always talks over stdin and stdout.
    #[arg(long)]
    stdio: bool,
}

/// Serves until the client says `exit`; exit code 1 when the connection breaks.
pub fn run(_args: &Args) -> ExitCode {
    let (connection, io_threads) = Connection::stdio();
    let served = serve(&connection);
    // The writer thread ends once the connection (its sender) is dropped.
    drop(connection);
    let joined = io_threads.join();
    match (served, joined) {
        (Ok(()), Ok(())) => ExitCode::SUCCESS,
        (Err(error), _) => {
            eprintln!("tafl lsp: {error}");
            ExitCode::FAILURE
        }
        (_, Err(error)) => {
            eprintln!("tafl lsp: {error}");
            ExitCode::FAILURE
        }
    }
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![" ".to_string()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: TOKEN_TYPES.iter().map(|(_, t)| t.clone()).collect(),
                    token_modifiers: Vec::new(),
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                ..SemanticTokensOptions::default()
            },
        )),
        ..ServerCapabilities::default()
    }
}

/// The legend: each kind of token and the standard type editors colour it as. Standard types
/// only, so that every colour scheme has a colour for each.
const TOKEN_TYPES: [(TokenKind, SemanticTokenType); 12] = [
    (TokenKind::Keyword, SemanticTokenType::KEYWORD),
    (TokenKind::Comment, SemanticTokenType::COMMENT),
    (TokenKind::String, SemanticTokenType::STRING),
    (TokenKind::Number, SemanticTokenType::NUMBER),
    (TokenKind::Square, SemanticTokenType::ENUM_MEMBER),
    (TokenKind::Side, SemanticTokenType::TYPE),
    (TokenKind::Piece, SemanticTokenType::CLASS),
    (TokenKind::Region, SemanticTokenType::NAMESPACE),
    (TokenKind::AttackerCell, SemanticTokenType::ENUM),
    (TokenKind::DefenderCell, SemanticTokenType::STRUCT),
    (TokenKind::KingCell, SemanticTokenType::MACRO),
    // Empty cells are the background of the diagram: dim, like a comment.
    (TokenKind::EmptyCell, SemanticTokenType::COMMENT),
];

/// The legend index of `kind`.
fn token_type(kind: TokenKind) -> u32 {
    // Every kind is in the table (a test checks it), so the fallback is never used.
    TOKEN_TYPES
        .iter()
        .position(|(k, _)| *k == kind)
        .unwrap_or(0) as u32
}

fn serve(connection: &Connection) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (id, _params) = connection.initialize_start()?;
    let result = InitializeResult {
        capabilities: capabilities(),
        server_info: Some(ServerInfo {
            name: "tafl".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
    };
    connection.initialize_finish(id, serde_json::to_value(result)?)?;

    let mut server = Server {
        documents: HashMap::new(),
    };
    // lsp-server hands over messages through a channel without capacity, one at a time; a
    // relay into an unbounded channel lets the messages that arrived while a change was being
    // checked pile up, so that a change followed by a newer change of the same document can be
    // skipped (an editor sends one per keystroke; checking each version of a large file in
    // turn leaves the server seconds behind).
    let (relay, incoming) = std::sync::mpsc::channel();
    let receiver = connection.receiver.clone();
    // The relay ends when the connection does (end of input, after `exit`).
    std::thread::spawn(move || {
        for message in receiver {
            if relay.send(message).is_err() {
                break;
            }
        }
    });
    let mut queued: VecDeque<Message> = VecDeque::new();
    loop {
        let message = match queued.pop_front() {
            Some(message) => message,
            None => match incoming.recv() {
                Ok(message) => message,
                Err(_) => break,
            },
        };
        queued.extend(incoming.try_iter());
        if is_superseded(&message, &queued) {
            continue;
        }
        match message {
            Message::Request(request) if request.method == Shutdown::METHOD => {
                connection
                    .sender
                    .send(Response::new_ok(request.id, ()).into())?;
                let next = match queued.pop_front() {
                    Some(message) => Some(message),
                    None => incoming.recv_timeout(EXIT_PATIENCE).ok(),
                };
                return match next {
                    Some(Message::Notification(n)) if n.method == Exit::METHOD => Ok(()),
                    Some(other) => {
                        Err(format!("unexpected message after shutdown: {other:?}").into())
                    }
                    None => Err("no `exit` after `shutdown`".into()),
                };
            }
            Message::Request(request) => {
                let response = server.answer(request);
                connection.sender.send(Message::Response(response))?;
            }
            Message::Notification(notification) => {
                for reply in server.notified(notification) {
                    connection.sender.send(Message::Notification(reply))?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// How long to wait for `exit` after answering `shutdown`.
const EXIT_PATIENCE: std::time::Duration = std::time::Duration::from_secs(30);

/// Whether `message` changes a document that a later message changes again before anything
/// asks about it: then checking this version is wasted work. Any request stops the search (it
/// may be about this version), as does the document being opened or closed.
fn is_superseded(message: &Message, later: &VecDeque<Message>) -> bool {
    let changed_document = |message: &Message| match message {
        Message::Notification(n) if n.method == DidChangeTextDocument::METHOD => {
            n.params["textDocument"]["uri"].as_str().map(str::to_string)
        }
        _ => None,
    };
    let Some(uri) = changed_document(message) else {
        return false;
    };
    for next in later {
        match next {
            Message::Request(_) => return false,
            Message::Notification(n) if n.params["textDocument"]["uri"].as_str() == Some(&uri) => {
                return n.method == DidChangeTextDocument::METHOD;
            }
            Message::Notification(_) | Message::Response(_) => {}
        }
    }
    false
}

/// The open documents, each checked at its latest version.
struct Server {
    documents: HashMap<String, Document>,
}

struct Document {
    uri: Uri,
    analysis: Analysis,
    lines: LineIndex,
}

impl Document {
    fn new(uri: Uri, text: &str) -> Document {
        let name = uri
            .as_str()
            .rsplit('/')
            .next()
            .unwrap_or("untitled.tafl")
            .to_string();
        Document {
            uri,
            analysis: Analysis::new(&name, text),
            lines: LineIndex::new(text),
        }
    }

    fn range(&self, span: Span) -> Range {
        Range::new(
            self.lines.position(span.start),
            self.lines.position(span.end),
        )
    }

    fn location(&self, span: Span) -> Location {
        Location::new(self.uri.clone(), self.range(span))
    }

    fn diagnostics(&self) -> PublishDiagnosticsParams {
        let items = self
            .analysis
            .diagnostics()
            .items()
            .iter()
            .map(|item| self.diagnostic(item))
            .collect();
        PublishDiagnosticsParams::new(self.uri.clone(), items, None)
    }

    /// The quick fixes of the diagnostics whose main span meets `range`: "did you mean" as an
    /// edit.
    // lsp-types keys `WorkspaceEdit::changes` by `Uri`, which caches its parsed parts in a
    // cell; the map is built once and never changed, so the key cannot move.
    #[allow(clippy::mutable_key_type)]
    fn fixes(&self, range: Range) -> Vec<CodeActionOrCommand> {
        let start = self.lines.offset(range.start);
        let end = self.lines.offset(range.end);
        self.analysis
            .diagnostics()
            .items()
            .iter()
            .filter_map(|item| {
                let fix = item.fix.as_ref()?;
                let span = item.primary_span()?;
                if span.end < start || end < span.start {
                    return None;
                }
                let edit = TextEdit::new(self.range(fix.span), fix.replacement.clone());
                let changes = HashMap::from([(self.uri.clone(), vec![edit])]);
                Some(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("Write `{}`", fix.replacement.trim()),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![self.diagnostic(item)]),
                    edit: Some(WorkspaceEdit::new(changes)),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                }))
            })
            .collect()
    }

    fn diagnostic(&self, item: &crate::Diagnostic) -> lsp_types::Diagnostic {
        let primary = item.labels.first();
        let range = primary.map_or_else(Range::default, |label| self.range(label.span));
        let mut message = item.message.clone();
        if let Some(label) = primary.filter(|label| !label.text.is_empty()) {
            message.push_str(&format!(": {}", label.text));
        }
        if let Some(help) = &item.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        let related: Vec<DiagnosticRelatedInformation> = item
            .labels
            .iter()
            .skip(1)
            .map(|label| DiagnosticRelatedInformation {
                location: self.location(label.span),
                message: label.text.clone(),
            })
            .collect();
        lsp_types::Diagnostic {
            range,
            severity: Some(match item.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
                Severity::Note => DiagnosticSeverity::INFORMATION,
            }),
            code: Some(NumberOrString::String(item.code.as_str().to_string())),
            source: Some("tafl".to_string()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..lsp_types::Diagnostic::default()
        }
    }
}

impl Server {
    fn notified(&mut self, notification: Notification) -> Vec<Notification> {
        let uri = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(params) = parse::<lsp_types::DidOpenTextDocumentParams>(notification.params)
                else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                let document = Document::new(uri.clone(), &params.text_document.text);
                self.documents.insert(uri.as_str().to_string(), document);
                uri
            }
            DidChangeTextDocument::METHOD => {
                let Ok(params) =
                    parse::<lsp_types::DidChangeTextDocumentParams>(notification.params)
                else {
                    return Vec::new();
                };
                // Full synchronisation: the last change holds the whole text.
                let Some(change) = params.content_changes.into_iter().next_back() else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                let document = Document::new(uri.clone(), &change.text);
                self.documents.insert(uri.as_str().to_string(), document);
                uri
            }
            DidCloseTextDocument::METHOD => {
                let Ok(params) =
                    parse::<lsp_types::DidCloseTextDocumentParams>(notification.params)
                else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                self.documents.remove(uri.as_str());
                // Closed files keep no diagnostics in the editor.
                let cleared = PublishDiagnosticsParams::new(uri, Vec::new(), None);
                return vec![Notification::new(
                    PublishDiagnostics::METHOD.to_string(),
                    cleared,
                )];
            }
            _ => return Vec::new(),
        };
        self.documents
            .get(uri.as_str())
            .map(|document| {
                Notification::new(
                    PublishDiagnostics::METHOD.to_string(),
                    document.diagnostics(),
                )
            })
            .into_iter()
            .collect()
    }

    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            HoverRequest::METHOD => self.with::<HoverParams, _>(request, |document, params| {
                let offset = document
                    .lines
                    .offset(params.text_document_position_params.position);
                document.analysis.hover(offset).map(|hover| Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: hover.text,
                    }),
                    range: Some(document.range(hover.span)),
                })
            }),
            Completion::METHOD => self.with::<CompletionParams, _>(request, |document, params| {
                let offset = document
                    .lines
                    .offset(params.text_document_position.position);
                let items = document
                    .analysis
                    .completions(offset)
                    .into_iter()
                    .map(|completion| CompletionItem {
                        label: completion.label,
                        kind: Some(match completion.kind {
                            CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                            CompletionKind::Piece => CompletionItemKind::CLASS,
                            CompletionKind::Region => CompletionItemKind::CONSTANT,
                            CompletionKind::Square => CompletionItemKind::VALUE,
                        }),
                        detail: completion.detail,
                        ..CompletionItem::default()
                    })
                    .collect();
                Some(CompletionResponse::Array(items))
            }),
            GotoDefinition::METHOD => {
                self.with::<GotoDefinitionParams, _>(request, |document, params| {
                    let offset = document
                        .lines
                        .offset(params.text_document_position_params.position);
                    // Always a list, empty when nothing is defined in the file: Neovim
                    // then says so instead of falling back to tags (E433).
                    let spans = document.analysis.definition(offset);
                    Some(GotoDefinitionResponse::Array(
                        spans
                            .into_iter()
                            .map(|span| document.location(span))
                            .collect(),
                    ))
                })
            }
            References::METHOD => self.with::<ReferenceParams, _>(request, |document, params| {
                let offset = document
                    .lines
                    .offset(params.text_document_position.position);
                let spans = document
                    .analysis
                    .references(offset, params.context.include_declaration);
                Some(
                    spans
                        .into_iter()
                        .map(|span| document.location(span))
                        .collect::<Vec<_>>(),
                )
            }),
            DocumentSymbolRequest::METHOD => {
                self.with::<DocumentSymbolParams, _>(request, |document, _| {
                    let symbols = document
                        .analysis
                        .symbols()
                        .iter()
                        .map(|symbol| document_symbol(document, symbol))
                        .collect();
                    Some(DocumentSymbolResponse::Nested(symbols))
                })
            }
            SemanticTokensFullRequest::METHOD => self
                .with::<SemanticTokensParams, _>(request, |document, _| {
                    Some(SemanticTokensResult::Tokens(semantic_tokens(document)))
                }),
            CodeActionRequest::METHOD => self
                .with::<CodeActionParams, _>(request, |document, params| {
                    Some(document.fixes(params.range))
                }),
            _ => Err(Response::new_err(
                id.clone(),
                ErrorCode::MethodNotFound as i32,
                format!("tafl lsp does not answer `{}`", request.method),
            )),
        };
        result.unwrap_or_else(|error| error)
    }

    /// Parses a request about a document and answers it with `answer` (null when it has
    /// nothing to say, or when the document is not open).
    fn with<P, R>(
        &self,
        request: Request,
        answer: impl FnOnce(&Document, P) -> Option<R>,
    ) -> Result<Response, Response>
    where
        P: DeserializeOwned + DocumentParams,
        R: Serialize,
    {
        let id: RequestId = request.id;
        let params: P = parse(request.params).map_err(|error| {
            Response::new_err(
                id.clone(),
                ErrorCode::InvalidParams as i32,
                error.to_string(),
            )
        })?;
        let result = self
            .documents
            .get(params.uri().as_str())
            .and_then(|document| answer(document, params));
        Ok(Response::new_ok(id, result))
    }
}

/// The document a request is about.
trait DocumentParams {
    fn uri(&self) -> &Uri;
}

impl DocumentParams for HoverParams {
    fn uri(&self) -> &Uri {
        &self.text_document_position_params.text_document.uri
    }
}

impl DocumentParams for CompletionParams {
    fn uri(&self) -> &Uri {
        &self.text_document_position.text_document.uri
    }
}

impl DocumentParams for GotoDefinitionParams {
    fn uri(&self) -> &Uri {
        &self.text_document_position_params.text_document.uri
    }
}

impl DocumentParams for ReferenceParams {
    fn uri(&self) -> &Uri {
        &self.text_document_position.text_document.uri
    }
}

impl DocumentParams for CodeActionParams {
    fn uri(&self) -> &Uri {
        &self.text_document.uri
    }
}

impl DocumentParams for SemanticTokensParams {
    fn uri(&self) -> &Uri {
        &self.text_document.uri
    }
}

impl DocumentParams for DocumentSymbolParams {
    fn uri(&self) -> &Uri {
        &self.text_document.uri
    }
}

/// The document's tokens in the protocol's encoding: each relative to the one before, in
/// UTF-16 columns.
fn semantic_tokens(document: &Document) -> SemanticTokens {
    let mut data = Vec::new();
    let mut previous = Position::new(0, 0);
    for token in document.analysis.tokens() {
        let start = document.lines.position(token.span.start);
        let end = document.lines.position(token.span.end);
        // Tokens never span lines, so the length is the difference of columns.
        let length = end.character.saturating_sub(start.character);
        let delta_line = start.line - previous.line;
        let delta_start = if delta_line == 0 {
            start.character - previous.character
        } else {
            start.character
        };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: token_type(token.kind),
            token_modifiers_bitset: 0,
        });
        previous = start;
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}

fn parse<P: DeserializeOwned>(params: serde_json::Value) -> Result<P, serde_json::Error> {
    serde_json::from_value(params)
}

fn document_symbol(document: &Document, symbol: &lsp::Symbol) -> DocumentSymbol {
    let children: Vec<DocumentSymbol> = symbol
        .children
        .iter()
        .map(|child| document_symbol(document, child))
        .collect();
    // `deprecated` is itself deprecated in favour of `tags`, but the struct still has it.
    #[allow(deprecated)]
    DocumentSymbol {
        name: symbol.name.clone(),
        detail: None,
        kind: match symbol.kind {
            lsp::SymbolKind::Family => SymbolKind::NAMESPACE,
            lsp::SymbolKind::Piece => SymbolKind::CLASS,
            lsp::SymbolKind::Region => SymbolKind::CONSTANT,
            lsp::SymbolKind::Clause => SymbolKind::PROPERTY,
        },
        tags: None,
        deprecated: None,
        range: document.range(symbol.span),
        selection_range: document.range(symbol.selection),
        children: (!children.is_empty()).then_some(children),
    }
}

/// Byte offsets to the protocol's positions (line, UTF-16 column) and back.
struct LineIndex {
    text: String,
    /// The byte offset where each line starts.
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(index, _)| index + 1))
            .collect();
        LineIndex {
            text: text.to_string(),
            starts,
        }
    }

    fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let start = self.starts[line];
        let column: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, column as u32)
    }

    /// The byte offset of `position`, clamped to its line (a column past the end of the line
    /// is its end).
    fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |next| next - 1);
        let mut column = 0;
        for (index, c) in self.text[start..end].char_indices() {
            if column >= position.character as usize {
                return start + index;
            }
            column += c.len_utf16();
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(uri: &str, text: &str) -> Message {
        Message::Notification(Notification::new(
            DidChangeTextDocument::METHOD.to_string(),
            serde_json::json!({
                "textDocument": { "uri": uri, "version": 1 },
                "contentChanges": [{ "text": text }],
            }),
        ))
    }

    fn hover(uri: &str) -> Message {
        Message::Request(Request::new(
            RequestId::from(1),
            HoverRequest::METHOD.to_string(),
            serde_json::json!({
                "textDocument": { "uri": uri },
                "position": { "line": 0, "character": 0 },
            }),
        ))
    }

    #[test]
    fn a_change_is_skipped_only_when_a_newer_change_of_the_same_file_follows_before_a_request() {
        let a = "file:///a.tafl";
        let b = "file:///b.tafl";
        let later = |messages: Vec<Message>| messages.into_iter().collect::<VecDeque<_>>();
        assert!(is_superseded(&change(a, "1"), &later(vec![change(a, "2")])));
        assert!(is_superseded(
            &change(a, "1"),
            &later(vec![change(b, "x"), change(a, "2")])
        ));
        assert!(!is_superseded(
            &change(a, "1"),
            &later(vec![change(b, "x")])
        ));
        assert!(!is_superseded(&change(a, "1"), &later(vec![])));
        assert!(!is_superseded(
            &change(a, "1"),
            &later(vec![hover(a), change(a, "2")])
        ));
        assert!(!is_superseded(&hover(a), &later(vec![change(a, "2")])));
    }

    #[test]
    fn every_token_kind_is_in_the_legend() {
        use TokenKind::*;
        for kind in [
            Keyword,
            Comment,
            String,
            Number,
            Square,
            Side,
            Piece,
            Region,
            AttackerCell,
            DefenderCell,
            KingCell,
            EmptyCell,
        ] {
            assert!(TOKEN_TYPES.iter().any(|(k, _)| *k == kind), "{kind:?}");
        }
    }

    #[test]
    fn positions_count_utf16_columns() {
        let index = LineIndex::new("name \"Ø𝔸\"\nboard 9 x 9\n");
        // `𝔸` is two UTF-16 units and four bytes.
        let after = "name \"Ø𝔸".len();
        assert_eq!(index.position(after), Position::new(0, 9));
        assert_eq!(index.offset(Position::new(0, 9)), after);
        assert_eq!(index.position(after + 2), Position::new(1, 0));
        assert_eq!(
            index.offset(Position::new(1, 99)),
            after + 2 + "board 9 x 9".len()
        );
        assert_eq!(index.offset(Position::new(7, 0)), index.text.len());
    }
}
