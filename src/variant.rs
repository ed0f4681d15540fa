//! A loaded variant: its rules, the text they came from, and the map between the two.

use std::path::Path;

use crate::check;
use crate::diagnostic::Diagnostics;
use crate::ir::{RuleRef, Rules, SourceMap};

/// The variants bundled with the toolkit: `(name, file text)`, sorted by name.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "alea-evangelii",
        include_str!("../variants/alea-evangelii.tafl"),
    ),
    ("ard-ri", include_str!("../variants/ard-ri.tafl")),
    (
        "ard-ri-39",
        include_str!("../variants/aagenielsen/ard-ri-39.tafl"),
    ),
    ("ashton", include_str!("../variants/ashton.tafl")),
    ("berserk", include_str!("../variants/berserk.tafl")),
    ("brandubh", include_str!("../variants/brandubh.tafl")),
    (
        "brandubh-1-aagenielsen",
        include_str!("../variants/aagenielsen/brandubh-1-aagenielsen.tafl"),
    ),
    (
        "brandubh-aagenielsen",
        include_str!("../variants/aagenielsen/brandubh-aagenielsen.tafl"),
    ),
    (
        "brettspielnetz",
        include_str!("../variants/brettspielnetz.tafl"),
    ),
    ("copenhagen", include_str!("../variants/copenhagen.tafl")),
    (
        "copenhagen-bell",
        include_str!("../variants/aagenielsen/copenhagen-bell.tafl"),
    ),
    (
        "dragonheelslair-v1",
        include_str!("../variants/dragonheelslair-v1.tafl"),
    ),
    (
        "dragonheelslair-v2",
        include_str!("../variants/dragonheelslair-v2.tafl"),
    ),
    (
        "dragonheelslair-v3",
        include_str!("../variants/dragonheelslair-v3.tafl"),
    ),
    (
        "federation-brandubh",
        include_str!("../variants/federation-brandubh.tafl"),
    ),
    ("fetlar", include_str!("../variants/fetlar.tafl")),
    (
        "historical-hnefatafl",
        include_str!("../variants/historical-hnefatafl.tafl"),
    ),
    (
        "historical-hnefatafl-13x13",
        include_str!("../variants/aagenielsen/historical-hnefatafl-13x13.tafl"),
    ),
    ("linnaeus", include_str!("../variants/linnaeus.tafl")),
    ("magpie", include_str!("../variants/magpie.tafl")),
    (
        "norseamerica-hnefatafl-11x11",
        include_str!("../variants/aagenielsen/norseamerica-hnefatafl-11x11.tafl"),
    ),
    (
        "saami-tablut",
        include_str!("../variants/aagenielsen/saami-tablut.tafl"),
    ),
    (
        "saami-tablut-w",
        include_str!("../variants/aagenielsen/saami-tablut-w.tafl"),
    ),
    (
        "sea-battle-11x11",
        include_str!("../variants/aagenielsen/sea-battle-11x11.tafl"),
    ),
    (
        "sea-battle-13x13",
        include_str!("../variants/sea-battle-13x13.tafl"),
    ),
    (
        "sea-battle-204577",
        include_str!("../variants/aagenielsen/sea-battle-204577.tafl"),
    ),
    (
        "sea-battle-9x9",
        include_str!("../variants/sea-battle-9x9.tafl"),
    ),
    (
        "skalk-9x9-w",
        include_str!("../variants/aagenielsen/skalk-9x9-w.tafl"),
    ),
    (
        "tablut-11x11",
        include_str!("../variants/tablut-11x11.tafl"),
    ),
    (
        "tablut-15x15",
        include_str!("../variants/tablut-15x15.tafl"),
    ),
    (
        "tafl-leaflet",
        include_str!("../variants/tafl-leaflet.tafl"),
    ),
    ("tawlbwrdd", include_str!("../variants/tawlbwrdd.tafl")),
    (
        "tawlbwrdd-11x11",
        include_str!("../variants/aagenielsen/tawlbwrdd-11x11.tafl"),
    ),
    (
        "tawlbwrdd-lewis-cross",
        include_str!("../variants/aagenielsen/tawlbwrdd-lewis-cross.tafl"),
    ),
    (
        "tawlbwrdd-t-diamond",
        include_str!("../variants/aagenielsen/tawlbwrdd-t-diamond.tafl"),
    ),
    (
        "tawlbwrdd-throneless-t-cross",
        include_str!("../variants/aagenielsen/tawlbwrdd-throneless-t-cross.tafl"),
    ),
    (
        "thrones-and-bones",
        include_str!("../variants/thrones-and-bones.tafl"),
    ),
    (
        "thrones-and-bones-pinshape",
        include_str!("../variants/thrones-and-bones-pinshape.tafl"),
    ),
    (
        "thrones-and-bones-tts",
        include_str!("../variants/thrones-and-bones-tts.tafl"),
    ),
];

/// Other names players use for a bundled variant: `(alias, bundled name)`. "Hnefatafl" on its
/// own most often means today's standard 11x11 game, Copenhagen.
pub const ALIASES: &[(&str, &str)] = &[("hnefatafl", "copenhagen")];

/// The bundled name `name` stands for: itself, or the variant it is an alias of.
fn resolve_alias(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |(_, bundled)| bundled)
}

/// The names of the bundled variants, sorted.
pub fn bundled_names() -> impl Iterator<Item = &'static str> {
    BUNDLED.iter().map(|(name, _)| *name)
}

/// One of aagenielsen.dk's game types, and the bundled variant that plays it: the type's games
/// replay through that file (`tafl games site`, docs/records.md), at least 90 of its first 100.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub struct SiteType {
    /// The site's number for the type (`AageGameTypeKey` in its records).
    pub key: u32,
    /// The site's name for the type.
    pub name: String,
    /// The bundled variant that replays most of its games.
    pub variant: String,
    /// Of the type's first `of` games, how many replay move for move.
    pub replays: u32,
    /// How many of its games were checked.
    pub of: u32,
}

/// The site's types that bundled variants play, as the last run of `tafl games site` over the
/// site's public records found them (variants/aagenielsen/site-types.json, written by
/// docs/data/aagenielsen/table.py).
pub fn site_types() -> Vec<SiteType> {
    // The file is the repository's own data, read at build time; the test suite parses it, so
    // an empty list here means a broken tree, not a user's mistake.
    serde_json::from_str(include_str!("../variants/aagenielsen/site-types.json"))
        .unwrap_or_default()
}

/// A variant: its validated rules, its text and where each rule was written.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Where the text came from: a path, or `bundled:<name>.tafl`.
    pub origin: String,
    /// The variant file's text.
    pub text: String,
    /// The validated rules.
    pub rules: Rules,
    /// Where each rule was written in `text`.
    pub source_map: SourceMap,
    /// Warnings and notes the check found (no errors: a variant with errors does not load).
    pub warnings: Diagnostics,
}

/// Why a variant could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// No bundled variant has that name and no file has that path.
    #[error(
        "no variant `{}`: not a bundled variant nor a readable file{}; `tafl list` lists the bundled variants",
        crate::printable::quoted(name),
        nearest.as_ref().map_or_else(String::new, |n| format!(" (did you mean `{n}`?)"))
    )]
    NotFound {
        /// What was asked for.
        name: String,
        /// The bundled name nearest to it, when it looks like a misspelling of one.
        nearest: Option<String>,
    },
    /// The file exists but could not be read.
    #[error("cannot read `{}`: {source}", crate::printable::quoted(path))]
    Io {
        /// The path.
        path: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file has errors.
    #[error("`{}` has errors", crate::printable::quoted(origin))]
    Invalid {
        /// Where the text came from.
        origin: String,
        /// Every problem found, errors and warnings.
        diagnostics: Diagnostics,
    },
}

impl Variant {
    /// Parses and checks a variant file's text. `origin` names it in diagnostics.
    ///
    /// # Errors
    /// [`LoadError::Invalid`] with every diagnostic when the text has any error.
    pub fn from_text(origin: &str, text: &str) -> Result<Variant, LoadError> {
        let checked = check::check_text(origin, text);
        match checked.rules {
            Some((rules, source_map)) if !checked.diagnostics.has_errors() => Ok(Variant {
                origin: origin.to_string(),
                text: text.to_string(),
                rules,
                source_map,
                warnings: checked.diagnostics,
            }),
            _ => Err(LoadError::Invalid {
                origin: origin.to_string(),
                diagnostics: checked.diagnostics,
            }),
        }
    }

    /// The bundled variant called `name` (e.g. `linnaeus`).
    ///
    /// # Errors
    /// [`LoadError::NotFound`] for an unknown name; [`LoadError::Invalid`] cannot happen for the
    /// bundled files, which the test suite lints.
    pub fn bundled(name: &str) -> Result<Variant, LoadError> {
        let name = resolve_alias(name);
        let (name, text) = BUNDLED
            .iter()
            .find(|(bundled, _)| *bundled == name)
            .ok_or_else(|| not_found(name))?;
        Variant::from_text(&format!("bundled:{name}.tafl"), text)
    }

    /// A bundled variant by name, or else a variant file by path: what `VARIANT` means on the
    /// command line.
    ///
    /// # Errors
    /// As [`Variant::bundled`] and [`Variant::from_text`], and [`LoadError::Io`] for an unreadable
    /// file.
    pub fn load(name_or_path: &str) -> Result<Variant, LoadError> {
        if BUNDLED
            .iter()
            .any(|(name, _)| *name == resolve_alias(name_or_path))
        {
            return Variant::bundled(name_or_path);
        }
        let path = Path::new(name_or_path);
        if !path.exists() {
            return Err(not_found(name_or_path));
        }
        let text =
            crate::check::limits::read_variant_file(path).map_err(|source| LoadError::Io {
                path: name_or_path.to_string(),
                source,
            })?;
        Variant::from_text(name_or_path, &text)
    }

    /// The 1-based line of the clause `rule` came from, if it was written.
    pub fn line_of(&self, rule: RuleRef) -> Option<usize> {
        self.source_map
            .span(rule)
            .map(|span| span.line_in(&self.text))
    }

    /// The text of the clause `rule` came from, if it was written.
    pub fn clause_text(&self, rule: RuleRef) -> Option<&str> {
        let span = self.source_map.span(rule)?;
        self.text.get(span.start..span.end)
    }
}

/// A name that is no bundled variant: with the nearest bundled name or alias, since a library
/// of dozens is too long to list in a message.
fn not_found(name: &str) -> LoadError {
    let candidates = bundled_names().chain(ALIASES.iter().map(|(alias, _)| *alias));
    LoadError::NotFound {
        name: name.to_string(),
        nearest: crate::suggest::nearest(name, candidates).map(str::to_string),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_site_type_names_a_bundled_variant() {
        let text = include_str!("../variants/aagenielsen/site-types.json");
        let types: Vec<SiteType> = serde_json::from_str(text).expect("the site types parse");
        assert_eq!(site_types(), types);
        assert!(!types.is_empty());
        for site in &types {
            assert!(bundled_names().any(|name| name == site.variant), "{site:?}");
            assert!(
                site.replays * 100 >= 90 * site.of && site.replays <= site.of,
                "{site:?}"
            );
        }
    }
}
