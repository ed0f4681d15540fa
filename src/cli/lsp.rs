//! `tafl lsp`: a language server over stdin and stdout, for editors.
//!
//! The protocol plumbing only: every answer comes from [`crate::lsp::Analysis`], which works in
//! byte offsets; this file converts them to the protocol's line and UTF-16 column positions.
//! Documents are synchronised whole (`TextDocumentSyncKind::FULL`): variant files are small,
//! and checking one takes well under a millisecond.
//!
//! The transport is this server's own: [`frame`] reads the base protocol's frames from input
//! that may hold anything (what is not a message is skipped, never the end of the server), and
//! [`inbox`] holds what has been read until it is handled. lsp-server supplies only the message
//! types.

mod frame;
mod inbox;

use std::collections::HashMap;
use std::io::{self, BufReader, Read, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, RecvTimeoutError};

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Exit,
    Notification as NotificationKind, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, Initialize,
    References, Request as RequestKind, SemanticTokensFullRequest, Shutdown,
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
use frame::{Frame, FrameReader};
use inbox::Inbox;

/// Arguments of `tafl lsp`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Accepted for editors that pass it: the server always talks over stdin and stdout.
    #[arg(long)]
    stdio: bool,
}

/// Serves until the client says `exit` or the input ends; exit code 1 when the connection
/// breaks, or at an `exit` without `shutdown` (as the protocol asks).
pub fn run(_args: &Args) -> ExitCode {
    let stdout = io::stdout();
    let ended = serve(io::stdin(), &mut stdout.lock(), &mut io::stderr());
    match ended {
        Ok(Ending::Exit {
            after_shutdown: true,
        })
        | Ok(Ending::EndOfInput) => ExitCode::SUCCESS,
        Ok(Ending::Exit {
            after_shutdown: false,
        }) => ExitCode::FAILURE,
        Err(error) => {
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

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// The client said `exit`.
    Exit {
        /// Whether it said `shutdown` first.
        after_shutdown: bool,
    },
    /// The input ended.
    EndOfInput,
}

/// Why a session ended before the client said `exit`.
#[derive(Debug, thiserror::Error)]
enum ServeError {
    /// Reading the input failed.
    #[error("cannot read the client's messages: {0}")]
    Read(#[source] io::Error),
    /// Writing the output failed.
    #[error("cannot write to the client: {0}")]
    Write(#[source] io::Error),
    /// The client said `shutdown` and then neither `exit` nor ended the input.
    #[error("no `exit` after `shutdown`")]
    NoExit,
}

/// Where the session is in the protocol's life cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before `initialize`: requests are answered with an error.
    Starting,
    /// Serving.
    Running,
    /// After `shutdown`: waiting for `exit`.
    ShutDown,
}

/// Serves the client that writes to `input` and reads `output`, logging to `log` what it
/// skips, until the client says `exit` or `input` ends. Nothing in `input` ends it otherwise:
/// what is not a message is skipped, and answered with an error when it was a request whose
/// id can be read.
fn serve(
    input: impl Read + Send + 'static,
    output: &mut impl Write,
    log: &mut impl Write,
) -> Result<Ending, ServeError> {
    // Frames are read on their own thread into a channel without bound, so that the messages
    // that arrive while a change is being checked pile up in the inbox, where a change followed
    // by a newer change of the same document is dropped.
    let (sender, frames) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = FrameReader::new(BufReader::new(input));
        loop {
            let read = reader.read();
            let last = !matches!(read, Ok(Some(_)));
            if let Some(frame) = read.transpose() {
                if sender.send(frame).is_err() {
                    break;
                }
            }
            if last {
                break;
            }
        }
    });
    let mut inbox = Inbox::default();
    let mut server = Server {
        documents: HashMap::new(),
    };
    let mut phase = Phase::Starting;
    loop {
        for frame in frames.try_iter() {
            inbox.push(frame.map_err(ServeError::Read)?);
        }
        let Some(frame) = inbox.pop() else {
            let next = match phase {
                Phase::ShutDown => {
                    frames
                        .recv_timeout(EXIT_PATIENCE)
                        .map_err(|error| match error {
                            RecvTimeoutError::Timeout => Some(ServeError::NoExit),
                            RecvTimeoutError::Disconnected => None,
                        })
                }
                Phase::Starting | Phase::Running => frames.recv().map_err(|_| None),
            };
            match next {
                Ok(frame) => inbox.push(frame.map_err(ServeError::Read)?),
                Err(Some(error)) => return Err(error),
                Err(None) => return Ok(Ending::EndOfInput),
            }
            continue;
        };
        let message = match frame {
            Frame::Message(message) => message,
            Frame::Refused(error) => {
                let _ = writeln!(log, "tafl lsp: {error}");
                if let Some(id) = error.id() {
                    let answer = serde_json::json!({
                        "jsonrpc": "2.0",
                        "id": id,
                        "error": { "code": error.code(), "message": error.to_string() },
                    });
                    write_frame(output, &answer.to_string()).map_err(ServeError::Write)?;
                }
                continue;
            }
        };
        let replies = match message {
            Message::Request(request) => {
                let (response, next) = respond(&server, phase, request);
                phase = next;
                vec![Message::Response(response)]
            }
            Message::Notification(notification) if notification.method == Exit::METHOD => {
                return Ok(Ending::Exit {
                    after_shutdown: phase == Phase::ShutDown,
                });
            }
            Message::Notification(notification) => match phase {
                Phase::Running => {
                    let method = notification.method.clone();
                    match server.notified(notification) {
                        Ok(replies) => replies.into_iter().map(Message::Notification).collect(),
                        Err(error) => {
                            let _ = writeln!(log, "tafl lsp: `{method}` skipped: {error}");
                            Vec::new()
                        }
                    }
                }
                // Before `initialize` notifications are dropped, as the protocol asks; after
                // `shutdown` nothing changes any more.
                Phase::Starting | Phase::ShutDown => Vec::new(),
            },
            Message::Response(_) => Vec::new(),
        };
        for reply in replies {
            reply.write(output).map_err(ServeError::Write)?;
        }
    }
}

/// The answer to `request` in `phase`, and the phase after it.
fn respond(server: &Server, phase: Phase, request: Request) -> (Response, Phase) {
    let refuse = |code: ErrorCode, message: &str| {
        Response::new_err(request.id.clone(), code as i32, message.to_string())
    };
    match (phase, request.method.as_str()) {
        (Phase::Starting, Initialize::METHOD) => {
            let result = InitializeResult {
                capabilities: capabilities(),
                server_info: Some(ServerInfo {
                    name: "tafl".to_string(),
                    version: Some(env!("CARGO_PKG_VERSION").to_string()),
                }),
            };
            (Response::new_ok(request.id, result), Phase::Running)
        }
        (Phase::Starting, _) => (
            refuse(
                ErrorCode::ServerNotInitialized,
                "the first request must be `initialize`",
            ),
            phase,
        ),
        (Phase::Running, Initialize::METHOD) => (
            refuse(
                ErrorCode::InvalidRequest,
                "`initialize` was already received",
            ),
            phase,
        ),
        (Phase::Running, Shutdown::METHOD) => (Response::new_ok(request.id, ()), Phase::ShutDown),
        (Phase::Running, _) => (server.answer(request), phase),
        (Phase::ShutDown, _) => (
            refuse(
                ErrorCode::InvalidRequest,
                "the server is shut down: only `exit` is left",
            ),
            phase,
        ),
    }
}

/// Writes one frame holding `body`.
fn write_frame(output: &mut impl Write, body: &str) -> io::Result<()> {
    write!(output, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    output.flush()
}

/// How long to wait for `exit` after answering `shutdown`.
const EXIT_PATIENCE: std::time::Duration = std::time::Duration::from_secs(30);

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
    /// Takes in a notification; returns the notifications it calls for (the diagnostics of
    /// the document it changed).
    ///
    /// # Errors
    ///
    /// When its parameters are not the method's.
    fn notified(
        &mut self,
        notification: Notification,
    ) -> Result<Vec<Notification>, serde_json::Error> {
        let uri = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let params = parse::<lsp_types::DidOpenTextDocumentParams>(notification.params)?;
                let uri = params.text_document.uri;
                let document = Document::new(uri.clone(), &params.text_document.text);
                self.documents.insert(uri.as_str().to_string(), document);
                uri
            }
            DidChangeTextDocument::METHOD => {
                let params = parse::<lsp_types::DidChangeTextDocumentParams>(notification.params)?;
                // Full synchronisation: the last change holds the whole text.
                let Some(change) = params.content_changes.into_iter().next_back() else {
                    return Ok(Vec::new());
                };
                let uri = params.text_document.uri;
                let document = Document::new(uri.clone(), &change.text);
                self.documents.insert(uri.as_str().to_string(), document);
                uri
            }
            DidCloseTextDocument::METHOD => {
                let params = parse::<lsp_types::DidCloseTextDocumentParams>(notification.params)?;
                let uri = params.text_document.uri;
                self.documents.remove(uri.as_str());
                // Closed files keep no diagnostics in the editor.
                let cleared = PublishDiagnosticsParams::new(uri, Vec::new(), None);
                return Ok(vec![Notification::new(
                    PublishDiagnostics::METHOD.to_string(),
                    cleared,
                )]);
            }
            _ => return Ok(Vec::new()),
        };
        Ok(self
            .documents
            .get(uri.as_str())
            .map(|document| {
                Notification::new(
                    PublishDiagnostics::METHOD.to_string(),
                    document.diagnostics(),
                )
            })
            .into_iter()
            .collect())
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
    // The tokens come in order and do not overlap, so one walk through the text finds every
    // position: counting each token's column from its line's start cost time quadratic in a
    // long line's length (13 s for a line of 256 KiB).
    let mut walk = document.lines.walk();
    for token in document.analysis.tokens() {
        let start = walk.to(token.span.start);
        let end = walk.to(token.span.end);
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

    /// A walk forward through the text, for positions asked in increasing order.
    fn walk(&self) -> Walk<'_> {
        Walk {
            index: self,
            line: 0,
            offset: 0,
            column: 0,
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

/// Positions of offsets asked in increasing order, each found from the last: the text between
/// them is read once in all.
struct Walk<'a> {
    index: &'a LineIndex,
    /// Where the walk stands: its line, byte offset and UTF-16 column.
    line: usize,
    offset: usize,
    column: usize,
}

impl Walk<'_> {
    /// The position of `offset` (a char boundary; one before the last asked is taken as the
    /// last).
    fn to(&mut self, offset: usize) -> Position {
        let index = self.index;
        let offset = offset.min(index.text.len()).max(self.offset);
        while index
            .starts
            .get(self.line + 1)
            .is_some_and(|&next| next <= offset)
        {
            self.line += 1;
            self.offset = index.starts[self.line];
            self.column = 0;
        }
        self.column += index.text[self.offset..offset]
            .chars()
            .map(char::len_utf16)
            .sum::<usize>();
        self.offset = offset;
        Position::new(self.line as u32, self.column as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_walk_finds_the_positions_that_position_finds() {
        let text = "name \"Ø𝔸\" # ü\r\nboard 9 x 9\n\nthe king 𝔸 is armed\nlast";
        let index = LineIndex::new(text);
        let mut walk = index.walk();
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            assert_eq!(walk.to(offset), index.position(offset), "{offset}");
        }
        // Asked again, or behind, it stays where it stands.
        assert_eq!(walk.to(3), index.position(text.len()));
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
