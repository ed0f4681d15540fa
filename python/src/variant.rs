//! Variants from Python: bundled, from a file or from a string; lint errors as an exception that
//! carries every diagnostic with its span.

use std::io::Read;
use std::sync::Arc;

use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;
use tafl::check::limits::MAX_FILE_BYTES;
use tafl::{Diagnostics, Engine, LoadError, Severity, Side};

use crate::actions::{Actions, Kind};
use crate::args;
use crate::errors::LintError;
use crate::moves::{read_move, PyMove};

/// One problem the checker found in a variant text.
#[pyclass(frozen, get_all, eq, module = "tafl._tafl")]
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// The stable code, e.g. `unknown-piece` (docs/diagnostics.md explains each).
    pub code: String,
    /// `error`, `warning` or `note`.
    pub severity: String,
    /// What is wrong, in one line.
    pub message: String,
    /// 1-based line of the main span (0 when the problem has no span).
    pub line: usize,
    /// 1-based column of the main span (0 when the problem has no span).
    pub column: usize,
    /// The main span as byte offsets `(start, end)` into the text, or `None`.
    pub span: Option<(usize, usize)>,
    /// Every span concerned, the main one first: `(start, end, text)`.
    pub labels: Vec<(usize, usize, String)>,
    /// How to fix it, if the checker knows.
    pub help: Option<String>,
    /// Where the text came from (a path, `bundled:NAME.tafl` or `<string>`).
    pub origin: String,
}

/// `line` or `column` of a `Diagnostic`.
fn line(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    args::size(value, "line or column")
}

/// `span` of a `Diagnostic`: `None` or `(start, end)`.
fn span(value: &Bound<'_, PyAny>) -> PyResult<Option<(usize, usize)>> {
    if value.is_none() {
        return Ok(None);
    }
    let (start, end): (Bound<'_, PyAny>, Bound<'_, PyAny>) = value.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "`span` must be None or (start, end), not {}",
            args::type_name(value)
        ))
    })?;
    Ok(Some((
        args::size(&start, "span start")?,
        args::size(&end, "span end")?,
    )))
}

/// `labels` of a `Diagnostic`: `[(start, end, text), ...]`.
fn labels(value: &Bound<'_, PyAny>) -> PyResult<Vec<(usize, usize, String)>> {
    let listed: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>, String)> = value
        .extract()
        .map_err(|_| PyTypeError::new_err("`labels` must be a list of (start, end, text)"))?;
    listed
        .iter()
        .map(|(start, end, text)| {
            Ok((
                args::size(start, "label start")?,
                args::size(end, "label end")?,
                text.clone(),
            ))
        })
        .collect()
}

#[pymethods]
impl Diagnostic {
    /// A diagnostic from its fields, as `__reduce__` gives them: how one is unpickled (with
    /// the `LintError` that carries it).
    #[new]
    #[pyo3(signature = (code, severity, message, line, column, span, labels, help, origin))]
    #[allow(clippy::too_many_arguments)] // One a field.
    fn new(
        code: String,
        severity: String,
        message: String,
        #[pyo3(from_py_with = line)] line: usize,
        #[pyo3(from_py_with = line)] column: usize,
        #[pyo3(from_py_with = span)] span: Option<(usize, usize)>,
        #[pyo3(from_py_with = labels)] labels: Vec<(usize, usize, String)>,
        help: Option<String>,
        origin: String,
    ) -> PyResult<Diagnostic> {
        if !matches!(severity.as_str(), "error" | "warning" | "note") {
            return Err(PyValueError::new_err(format!(
                "`severity` must be error, warning or note, not {severity:?}"
            )));
        }
        Ok(Diagnostic {
            code,
            severity,
            message,
            line,
            column,
            span,
            labels,
            help,
            origin,
        })
    }

    /// Pickles as its fields.
    #[allow(clippy::type_complexity)] // The tuple pickle's protocol asks for.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, PyType>,
        (
            String,
            String,
            String,
            usize,
            usize,
            Option<(usize, usize)>,
            Vec<(usize, usize, String)>,
            Option<String>,
            String,
        ),
    ) {
        let d = slf.get().clone();
        (
            slf.get_type(),
            (
                d.code, d.severity, d.message, d.line, d.column, d.span, d.labels, d.help, d.origin,
            ),
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Diagnostic({:?}, {:?}, {:?}, line={}, column={})",
            self.code, self.severity, self.message, self.line, self.column
        )
    }

    fn __str__(&self) -> String {
        format!(
            "{}:{}:{}: {}[{}]: {}",
            self.origin, self.line, self.column, self.severity, self.code, self.message
        )
    }
}

fn severity_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// Every diagnostic of `diagnostics` as Python values.
pub fn diagnostics(diagnostics: &Diagnostics) -> Vec<Diagnostic> {
    diagnostics
        .items()
        .iter()
        .map(|d| {
            let span = d.primary_span();
            let (line, column) = span.map_or((0, 0), |s| diagnostics.line_column(s.start));
            Diagnostic {
                code: d.code.as_str().to_string(),
                severity: severity_word(d.severity).to_string(),
                message: d.message.clone(),
                line,
                column,
                span: span.map(|s| (s.start, s.end)),
                labels: d
                    .labels
                    .iter()
                    .map(|l| (l.span.start, l.span.end, l.text.clone()))
                    .collect(),
                help: d.help.clone(),
                origin: diagnostics.origin().to_string(),
            }
        })
        .collect()
}

/// A load error as a Python exception: `LintError` (with `.diagnostics`) for a text with errors,
/// `ValueError` for an unknown name, `OSError` for an unreadable file.
pub fn load_error(py: Python<'_>, error: LoadError) -> PyErr {
    match error {
        LoadError::Invalid {
            origin,
            diagnostics: found,
        } => {
            let list = diagnostics(&found);
            let errors: Vec<String> = list
                .iter()
                .filter(|d| d.severity == "error")
                .map(|d| d.__str__())
                .collect();
            let err = LintError::new_err(format!("`{origin}` has errors:\n{}", errors.join("\n")));
            let attached = list
                .into_iter()
                .map(|d| Py::new(py, d))
                .collect::<PyResult<Vec<_>>>()
                .and_then(|list| err.value(py).setattr("diagnostics", list));
            match attached {
                Ok(()) => err,
                Err(e) => e,
            }
        }
        LoadError::NotFound { .. } => PyValueError::new_err(error.to_string()),
        LoadError::Io { .. } => PyOSError::new_err(error.to_string()),
    }
}

/// A checked variant, compiled for play: its rules, text and engine.
///
/// `Variant("copenhagen")` loads a bundled variant or else a file by path;
/// `Variant.from_text(text)` checks a string. Text with errors raises `LintError`.
#[pyclass(frozen, module = "tafl._tafl")]
#[derive(Clone)]
pub struct Variant {
    pub inner: Arc<tafl::Variant>,
    pub engine: Arc<Engine>,
    pub actions: Actions,
}

impl Variant {
    fn from_loaded(variant: tafl::Variant) -> PyResult<Variant> {
        let engine = Engine::new(&variant.rules)
            .map_err(|e| PyValueError::new_err(format!("the engine cannot play it: {e}")))?;
        let actions = Actions::for_rules(&variant.rules);
        Ok(Variant {
            inner: Arc::new(variant),
            engine: Arc::new(engine),
            actions,
        })
    }

    /// A variant from a name, a path or an existing `Variant`: what every function that takes
    /// a variant accepts.
    pub fn resolve(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Variant> {
        if let Ok(variant) = value.cast::<Variant>() {
            return Ok(variant.get().clone());
        }
        // A str or an os.PathLike (pathlib.Path).
        let name: std::path::PathBuf = value.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "a variant is a name, a path or a tafl.Variant, not {}",
                args::type_name(value)
            ))
        })?;
        Variant::load(py, &name.to_string_lossy())
    }

    /// A bundled variant by name, or else a variant file by path, read as [`read_file`] reads
    /// it.
    fn load(py: Python<'_>, name_or_path: &str) -> PyResult<Variant> {
        let loaded = match tafl::Variant::bundled(name_or_path) {
            Err(LoadError::NotFound { .. }) if std::path::Path::new(name_or_path).exists() => {
                let text = read_file(name_or_path)?;
                tafl::Variant::from_text(name_or_path, &text)
            }
            Err(LoadError::NotFound { .. }) => tafl::Variant::load(name_or_path),
            other => other,
        };
        Variant::from_loaded(loaded.map_err(|e| load_error(py, e))?)
    }
}

/// The text of the variant file at `path`, reading no more than a variant file may hold
/// (`MAX_FILE_BYTES`, 1 MiB): a larger file (or `/dev/zero`) is refused with `ValueError`
/// before it fills the memory; an unreadable one raises `OSError`.
fn read_file(path: &str) -> PyResult<String> {
    let cannot = |e: std::io::Error| PyOSError::new_err(format!("cannot read `{path}`: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(PyValueError::new_err(format!(
            "`{path}` is longer than a variant file may be ({MAX_FILE_BYTES} bytes, 1 MiB)"
        )));
    }
    String::from_utf8(bytes).map_err(|_| {
        cannot(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })
}

/// `attackers` or `defenders`.
pub fn side_word(side: Side) -> &'static str {
    side.as_str()
}

#[pymethods]
impl Variant {
    #[new]
    fn new(py: Python<'_>, name_or_path: &Bound<'_, PyAny>) -> PyResult<Variant> {
        Variant::resolve(py, name_or_path)
    }

    /// Pickles as its text, checked again when unpickled (for Ray and multiprocessing).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let from_text = py.get_type::<Variant>().getattr("from_text")?;
        Ok((
            from_text,
            (self.inner.text.clone(), self.inner.origin.clone()),
        ))
    }

    /// The bundled variant called `name`.
    #[staticmethod]
    fn bundled(py: Python<'_>, name: &str) -> PyResult<Variant> {
        let loaded = tafl::Variant::bundled(name).map_err(|e| load_error(py, e))?;
        Variant::from_loaded(loaded)
    }

    /// The variant file at `path`.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: &str) -> PyResult<Variant> {
        let text = read_file(path)?;
        Variant::from_text(py, &text, path)
    }

    /// A variant from its text; `origin` names it in diagnostics.
    #[staticmethod]
    #[pyo3(signature = (text, origin = "<string>"))]
    fn from_text(py: Python<'_>, text: &str, origin: &str) -> PyResult<Variant> {
        let loaded = tafl::Variant::from_text(origin, text).map_err(|e| load_error(py, e))?;
        Variant::from_loaded(loaded)
    }

    /// The variant's name, from its `name` clause.
    #[getter]
    fn name(&self) -> String {
        self.inner.rules.name.clone()
    }

    /// Where the rules come from, from the `source` clause; `None` without one.
    #[getter]
    fn source(&self) -> Option<String> {
        self.inner.rules.source.clone()
    }

    /// The game this variant is a version of (`"tablut"`), from the `family` clause; `None`
    /// without one.
    #[getter]
    fn family(&self) -> Option<String> {
        self.inner.rules.family.clone()
    }

    /// Where the text came from: a path, `bundled:NAME.tafl` or `<string>`.
    #[getter]
    fn origin(&self) -> String {
        self.inner.origin.clone()
    }

    /// The variant file's text.
    #[getter]
    fn text(&self) -> String {
        self.inner.text.clone()
    }

    /// Board width (files).
    #[getter]
    fn width(&self) -> u8 {
        self.engine.width()
    }

    /// Board height (ranks).
    #[getter]
    fn height(&self) -> u8 {
        self.engine.height()
    }

    /// The side that moves first.
    #[getter]
    fn first_to_move(&self) -> &'static str {
        side_word(self.inner.rules.first_to_move)
    }

    /// The piece kinds: `(name, side, symbol, role)` with role `soldier` or `king`.
    #[getter]
    fn pieces(&self) -> Vec<(String, &'static str, char, &'static str)> {
        self.inner
            .rules
            .pieces
            .iter()
            .map(|p| {
                let role = match p.role {
                    tafl::ir::Role::Soldier => "soldier",
                    tafl::ir::Role::King => "king",
                };
                (p.name.clone(), side_word(p.side), p.symbol, role)
            })
            .collect()
    }

    /// The named regions (throne, corners, ...): `(name, [square, ...])`.
    #[getter]
    fn regions(&self) -> Vec<(String, Vec<String>)> {
        self.inner
            .rules
            .regions
            .iter()
            .map(|r| {
                (
                    r.name.clone(),
                    r.squares.iter().map(|s| s.to_string()).collect(),
                )
            })
            .collect()
    }

    /// The warnings and notes of the check (a variant with errors does not load).
    #[getter]
    fn warnings(&self) -> Vec<Diagnostic> {
        diagnostics(&self.inner.warnings)
    }

    /// How many actions the fixed action space has (see `Game.legal_action_mask`).
    #[getter]
    fn action_count(&self) -> usize {
        self.actions.count()
    }

    /// `line` (from-square x direction x distance) or `from_to` (from-square x to-square, for
    /// variants where a piece moves to any empty square).
    #[getter]
    fn action_kind(&self) -> &'static str {
        match self.actions.kind() {
            Kind::Line => "line",
            Kind::FromTo => "from_to",
        }
    }

    /// The move of an action number (`None` for an int no square pair has, negative or past
    /// the last action included; `TypeError` for anything but an int).
    fn action_move(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<PyMove>> {
        let number = args::index(action, "action")?.ok();
        Ok(number
            .and_then(|n| usize::try_from(n).ok())
            .and_then(|n| self.actions.decode(n))
            .map(PyMove::from))
    }

    /// The action number of a move (`None` if the numbering cannot say it).
    fn move_action(&self, mv: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let mv = read_move(mv)?;
        Ok(self.actions.encode(mv))
    }

    fn __repr__(&self) -> String {
        format!("Variant({:?})", self.inner.rules.name)
    }
}
