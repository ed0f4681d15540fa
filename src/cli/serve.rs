//! `tafl serve`: the browser playground (`web/dist`, built by `web/build.sh`) over HTTP on
//! 127.0.0.1, for trying it locally (docs/web.md).
//!
//! A small HTTP/1.1 file server on `std::net`: the playground is static files that a page only
//! ever fetches with GET, so a web framework would bring a runtime and dozens of crates for
//! nothing it needs. One request a connection (`Connection: close`), one thread a connection.
//!
//! A client that holds a connection open, sends a huge head or opens many connections must not
//! cost the server for good: a connection is dropped after [`READ_TIMEOUT`] without its head,
//! a request line or header over [`MAX_LINE`] bytes, or a head over [`MAX_HEAD`] bytes, is
//! answered 431 and dropped, and past [`MAX_CONNECTIONS`] at once a new one is answered 503.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How long a connection may take to send its request's head.
const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest request line or header line, in bytes.
const MAX_LINE: usize = 8 * 1024;
/// The longest head (request line and headers), in bytes.
const MAX_HEAD: usize = 64 * 1024;
/// Connections answered at once; more are told to come back.
const MAX_CONNECTIONS: usize = 64;

/// Arguments of `tafl serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The port to listen on (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// The built playground.
    #[arg(long, default_value = "web/dist")]
    dir: PathBuf,
}

/// An answer: status line, content type and body.
#[derive(Debug, PartialEq, Eq)]
struct Response {
    status: &'static str,
    content_type: &'static str,
    /// The methods served, for an `Allow` header: HTTP requires one on a 405 answer.
    allow: Option<&'static str>,
    body: Vec<u8>,
}

impl Response {
    fn text(status: &'static str, body: &str) -> Response {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            allow: None,
            body: format!("{body}\n").into_bytes(),
        }
    }
}

/// The status line and headers of `response`, up to the blank line.
fn head(response: &Response) -> String {
    let allow = response
        .allow
        .map_or(String::new(), |methods| format!("Allow: {methods}\r\n"));
    format!(
        "HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n{allow}Cache-Control: no-cache\r\nConnection: close\r\n\r\n",
        response.status,
        response.content_type,
        response.body.len()
    )
}

/// Serves `--dir` until the process is stopped.
pub fn run(args: &Args) -> ExitCode {
    let root = match fs::canonicalize(&args.dir) {
        Ok(root) if root.join("index.html").is_file() => root,
        Ok(_) | Err(_) => {
            eprintln!(
                "error: no built playground in `{}` (no index.html): build it with `bash web/build.sh` \
                 from the repository's root, or give its folder with --dir (docs/web.md)",
                args.dir.display()
            );
            return ExitCode::from(1);
        }
    };
    let listener = match TcpListener::bind(("127.0.0.1", args.port)) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!(
                "error: cannot listen on 127.0.0.1:{}: {e}; choose another port with --port",
                args.port
            );
            return ExitCode::from(1);
        }
    };
    let port = listener.local_addr().map_or(args.port, |a| a.port());
    outln!(
        "Serving {} at http://127.0.0.1:{port}/ (Ctrl-C stops)",
        args.dir.display()
    );
    let open = Arc::new(AtomicUsize::new(0));
    for mut stream in listener.incoming().flatten() {
        if open.load(Ordering::Acquire) >= MAX_CONNECTIONS {
            let busy = Response::text("503 Service Unavailable", "too many connections at once");
            let _ = stream.set_write_timeout(Some(READ_TIMEOUT));
            write_response(&mut stream, &busy, false);
            continue;
        }
        open.fetch_add(1, Ordering::AcqRel);
        let (root, open) = (root.clone(), Arc::clone(&open));
        std::thread::spawn(move || {
            answer(&root, stream, READ_TIMEOUT);
            open.fetch_sub(1, Ordering::AcqRel);
        });
    }
    ExitCode::SUCCESS
}

/// Why a request's head was not read.
#[derive(Debug, PartialEq, Eq)]
enum HeadError {
    /// The connection broke, timed out or closed before the head ended.
    Broken,
    /// A line, or the whole head, was longer than the limits allow.
    TooLarge,
}

/// Reads a request's head from `reader`: its request line (the headers are read, bounded, and
/// ignored: nothing a static file server does depends on them).
fn read_head(reader: &mut impl BufRead) -> Result<String, HeadError> {
    let mut request_line = String::new();
    let mut total = 0;
    let mut line = Vec::new();
    loop {
        line.clear();
        // One byte past the limit tells a line that fits from one that does not.
        let read = reader
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|_| HeadError::Broken)?;
        if read == 0 {
            return Err(HeadError::Broken);
        }
        total += read;
        if read > MAX_LINE || total > MAX_HEAD {
            return Err(HeadError::TooLarge);
        }
        if !line.ends_with(b"\n") {
            return Err(HeadError::Broken);
        }
        if request_line.is_empty() {
            request_line = String::from_utf8_lossy(&line).into_owned();
            continue;
        }
        if line == b"\r\n" || line == b"\n" {
            return Ok(request_line);
        }
    }
}

/// Writes `response`'s head, and its body unless `head_only`; a broken connection is dropped.
fn write_response(stream: &mut TcpStream, response: &Response, head_only: bool) {
    let _ = stream.write_all(head(response).as_bytes());
    if !head_only {
        let _ = stream.write_all(&response.body);
    }
}

/// Reads one request from `stream` and writes its answer. A broken or silent connection is the
/// browser's business: it is dropped without a word after `timeout`.
fn answer(root: &Path, mut stream: TcpStream, timeout: Duration) {
    // Without a timeout a connection that never finishes its head holds its thread for good.
    if stream.set_read_timeout(Some(timeout)).is_err()
        || stream.set_write_timeout(Some(timeout)).is_err()
    {
        return;
    }
    let head = read_head(&mut BufReader::new(&stream));
    let (response, head_only) = match head {
        Ok(request_line) => (
            respond(root, &request_line),
            request_line.starts_with("HEAD "),
        ),
        Err(HeadError::TooLarge) => (
            Response::text(
                "431 Request Header Fields Too Large",
                "the request's head is too large",
            ),
            false,
        ),
        Err(HeadError::Broken) => return,
    };
    write_response(&mut stream, &response, head_only);
}

/// The answer to `request_line` (`GET /path HTTP/1.1`) from the files under `root`.
fn respond(root: &Path, request_line: &str) -> Response {
    let mut words = request_line.split_whitespace();
    let (Some(method), Some(target)) = (words.next(), words.next()) else {
        return Response::text("400 Bad Request", "bad request");
    };
    if method != "GET" && method != "HEAD" {
        return Response {
            allow: Some("GET, HEAD"),
            ..Response::text("405 Method Not Allowed", "only GET and HEAD are served")
        };
    }
    let Some(relative) = file_path(target) else {
        return Response::text("403 Forbidden", "outside the served folder");
    };
    let mut path = root.join(relative);
    if path.is_dir() {
        path = path.join("index.html");
    }
    // A link inside the folder could still point outside it: the real path must stay inside.
    match fs::canonicalize(&path) {
        Ok(real) if real.starts_with(root) => match fs::read(&real) {
            Ok(body) => Response {
                status: "200 OK",
                content_type: mime_type(&real),
                allow: None,
                body,
            },
            Err(_) => Response::text("404 Not Found", "not found"),
        },
        Ok(_) => Response::text("403 Forbidden", "outside the served folder"),
        Err(_) => Response::text("404 Not Found", "not found"),
    }
}

/// The relative file path a request target names (query and fragment dropped, `%XX` decoded),
/// or `None` when it would leave the folder (`..`, an absolute path, a drive).
fn file_path(target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    let decoded = percent_decode(path)?;
    let mut relative = PathBuf::new();
    for component in Path::new(decoded.trim_start_matches('/')).components() {
        match component {
            Component::Normal(part) => relative.push(part),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(relative)
}

/// `%XX` escapes decoded; `None` for a malformed escape, bytes that are not UTF-8, or a NUL.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().filter(|s| !s.contains('\0'))
}

/// The content type of a file, by its extension: the playground's kinds of file, and the
/// browser's default for the rest. `.wasm` must be `application/wasm` for
/// `WebAssembly.instantiateStreaming`.
fn mime_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json" | "map") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("txt" | "tafl") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A served folder with a page, a module and a file beside it that must stay private; one
    /// for each test (`test`), since the tests run at once and each removes its own.
    fn folder(test: &str) -> (PathBuf, PathBuf) {
        let base = std::env::temp_dir().join(format!("tafl-serve-{}-{test}", std::process::id()));
        let root = base.join("dist");
        fs::create_dir_all(root.join("assets")).expect("temp dir is writable");
        fs::write(root.join("index.html"), "<p>tafl</p>").expect("temp dir is writable");
        fs::write(root.join("assets/tafl_bg.wasm"), b"\0asm").expect("temp dir is writable");
        fs::write(base.join("secret.txt"), "private").expect("temp dir is writable");
        let root = fs::canonicalize(root).expect("just made");
        (base, root)
    }

    #[test]
    fn files_are_served_with_their_types_and_the_folder_as_its_index() {
        let (base, root) = folder("types");
        let page = respond(&root, "GET / HTTP/1.1");
        assert_eq!(page.status, "200 OK");
        assert_eq!(page.content_type, "text/html; charset=utf-8");
        assert_eq!(page.body, b"<p>tafl</p>");
        let wasm = respond(&root, "GET /assets/tafl%5Fbg.wasm?v=1#x HTTP/1.1");
        assert_eq!(wasm.status, "200 OK");
        assert_eq!(wasm.content_type, "application/wasm");
        assert_eq!(
            respond(&root, "GET /missing.js HTTP/1.1").status,
            "404 Not Found"
        );
        let post = respond(&root, "POST / HTTP/1.1");
        assert_eq!(post.status, "405 Method Not Allowed");
        // HTTP requires the methods a 405 refuses in favour of (issue 62).
        assert!(
            head(&post).contains("\r\nAllow: GET, HEAD\r\n"),
            "{}",
            head(&post)
        );
        assert!(!head(&page).contains("Allow:"));
        assert_eq!(respond(&root, "").status, "400 Bad Request");
        let _ = fs::remove_dir_all(base);
    }

    #[test]
    fn a_head_is_read_within_its_limits() {
        let read = |text: &[u8]| read_head(&mut std::io::Cursor::new(text.to_vec()));
        assert_eq!(
            read(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
            Ok("GET / HTTP/1.1\r\n".to_string())
        );
        // Issue 47: 10 MB headers were read whole, and raised memory for good.
        let long = [
            b"GET / HTTP/1.1\r\nX: ".as_slice(),
            &vec![b'a'; MAX_LINE + 10],
            b"\r\n\r\n",
        ]
        .concat();
        assert_eq!(read(&long), Err(HeadError::TooLarge));
        let many = [
            b"GET / HTTP/1.1\r\n".as_slice(),
            &b"X: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n".repeat(MAX_HEAD / 30),
        ]
        .concat();
        assert_eq!(read(&many), Err(HeadError::TooLarge));
        // A head cut short is no request.
        assert_eq!(read(b"GET / HTTP/1.1\r\nHost"), Err(HeadError::Broken));
        assert_eq!(read(b""), Err(HeadError::Broken));
    }

    #[test]
    fn a_silent_connection_is_dropped_after_the_timeout() {
        // Issue 47: 200 idle half-requests held 201 threads, for good.
        let (base, root) = folder("silent");
        let listener = TcpListener::bind(("127.0.0.1", 0)).expect("a free port");
        let address = listener.local_addr().expect("bound");
        let mut client = TcpStream::connect(address).expect("connects");
        client
            .write_all(b"GET / HTTP/1.1\r\n")
            .expect("sends half a head");
        let (stream, _) = listener.accept().expect("accepts");
        let served = std::thread::spawn(move || answer(&root, stream, Duration::from_millis(200)));
        // `answer` returns (its thread ends) once the timeout passes without the rest.
        served.join().expect("the thread ends");
        let mut rest = Vec::new();
        let _ = client.read_to_end(&mut rest);
        assert!(rest.is_empty(), "no answer to half a request");
        let _ = fs::remove_dir_all(base);
    }

    #[test]
    fn paths_outside_the_folder_are_refused() {
        let (base, root) = folder("outside");
        for target in [
            "/../secret.txt",
            "/assets/../../secret.txt",
            "/%2e%2e/secret.txt",
            "/..%2fsecret.txt",
        ] {
            let response = respond(&root, &format!("GET {target} HTTP/1.1"));
            assert_eq!(response.status, "403 Forbidden", "{target}");
            assert!(!String::from_utf8_lossy(&response.body).contains("private"));
        }
        assert_eq!(
            respond(&root, "GET /%zz HTTP/1.1").status,
            "403 Forbidden",
            "a malformed escape"
        );
        let _ = fs::remove_dir_all(base);
    }
}
