//! `tafl list`: the bundled variants, what kind of game each is and where its rules come from,
//! with filters for finding one's way in a library of dozens.

use std::process::ExitCode;

use crate::ir::Rules;
use crate::search::profile::{Escape, Features};
use crate::variant::{site_types, SiteType, Variant, BUNDLED};

/// Arguments of `tafl list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only the variants of this family (`tablut`, `brandubh`, `hnefatafl`, ...), as each
    /// file's `family` clause says; any case.
    #[arg(long)]
    family: Option<String>,
    /// Only the variants on this board: `9` or `9x9`.
    #[arg(long, value_parser = parse_board)]
    board: Option<(u8, u8)>,
    /// Only the variants whose source mentions this text (`aagenielsen`, `OpenTafl`); any case.
    #[arg(long)]
    source: Option<String>,
    /// Only the variants whose king escapes there.
    #[arg(long, value_enum)]
    escape: Option<EscapeArg>,
    /// One JSON object a variant, in an array, instead of the table.
    #[arg(long)]
    json: bool,
}

/// Where the king escapes, as `--escape` spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum EscapeArg {
    Corners,
    Edge,
    None,
}

impl EscapeArg {
    fn matches(self, escape: Escape) -> bool {
        match (self, escape) {
            (EscapeArg::Corners, Escape::Corners)
            | (EscapeArg::Edge, Escape::Edge)
            | (EscapeArg::None, Escape::None) => true,
            (EscapeArg::Corners | EscapeArg::Edge | EscapeArg::None, _) => false,
        }
    }
}

/// `9` or `9x9` (also `9 x 9`, `9X9`) as a width and height.
fn parse_board(text: &str) -> Result<(u8, u8), String> {
    let number = |part: &str| {
        part.trim()
            .parse::<u8>()
            .map_err(|_| format!("write a board as `9` or `9x9`, not `{text}`"))
    };
    match text.split_once(['x', 'X']) {
        Some((width, height)) => Ok((number(width)?, number(height)?)),
        None => number(text).map(|side| (side, side)),
    }
}

/// One line of the list.
#[derive(Debug, serde::Serialize)]
struct Entry {
    name: &'static str,
    title: String,
    family: Option<String>,
    board: String,
    escape: Escape,
    /// Where the rules come from, shortened to the site or program that publishes them.
    from: Option<String>,
    /// The file's whole `source` clause.
    source: Option<String>,
    /// The game types of aagenielsen.dk whose games replay through this file.
    site_types: Vec<SiteTypeEntry>,
}

/// One of aagenielsen.dk's game types a variant plays, in the list.
#[derive(Debug, serde::Serialize)]
struct SiteTypeEntry {
    /// The site's number for the type.
    key: u32,
    /// The site's name for it.
    name: String,
    /// The share of its first games that replay through the file.
    replays: f64,
}

impl Entry {
    fn of(name: &'static str, rules: &Rules, sites: &[SiteType]) -> Entry {
        let site_types = sites
            .iter()
            .filter(|site| site.variant == name)
            .map(|site| SiteTypeEntry {
                key: site.key,
                name: site.name.clone(),
                replays: f64::from(site.replays) / f64::from(site.of.max(1)),
            })
            .collect();
        Entry {
            name,
            title: rules.name.clone(),
            family: rules.family.clone(),
            board: format!("{}x{}", rules.board.width, rules.board.height),
            escape: Features::of(rules).escape,
            from: rules.source.as_deref().map(publisher),
            source: rules.source.clone(),
            site_types,
        }
    }
}

/// Who publishes a rule set, from a `source` clause: the first web site it names, other than
/// the code host a repository is kept on, or else its words up to the first comma, bracket or
/// quote.
fn publisher(source: &str) -> String {
    let site = source
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | ';' | '\'' | '"'))
        .map(|word| {
            let word = word
                .trim_start_matches("https://")
                .trim_start_matches("http://");
            word.split('/')
                .next()
                .unwrap_or(word)
                .trim_start_matches("www.")
                .trim_end_matches('.')
        })
        .find(|host| {
            // A host is written in lower case; a file named in a source (`Brandub.java`) is not.
            host.contains('.')
                && *host != "github.com"
                && host
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '-'))
                && host.rsplit('.').next().is_some_and(|tld| tld.len() >= 2)
        });
    match site {
        Some(site) => site.to_string(),
        None => source
            .split([',', '(', '\''])
            .next()
            .unwrap_or(source)
            .trim()
            .to_string(),
    }
}

impl Args {
    fn keeps(&self, entry: &Entry, rules: &Rules) -> bool {
        let family = self.family.as_ref().is_none_or(|wanted| {
            rules
                .family
                .as_ref()
                .is_some_and(|family| family.eq_ignore_ascii_case(wanted.trim()))
        });
        let board = self.board.is_none_or(|(width, height)| {
            rules.board.width == width && rules.board.height == height
        });
        let source = self.source.as_ref().is_none_or(|wanted| {
            rules
                .source
                .as_ref()
                .is_some_and(|source| source.to_lowercase().contains(&wanted.to_lowercase()))
        });
        let escape = self
            .escape
            .is_none_or(|wanted| wanted.matches(entry.escape));
        family && board && source && escape
    }
}

pub fn run(args: &Args) -> ExitCode {
    let mut entries = Vec::new();
    let sites = site_types();
    for (name, _) in BUNDLED {
        match Variant::bundled(name) {
            Ok(variant) => {
                let entry = Entry::of(name, &variant.rules, &sites);
                if args.keeps(&entry, &variant.rules) {
                    entries.push(entry);
                }
            }
            // The test suite lints every bundled file, so this is a build from a broken tree.
            Err(_) => eprintln!("{name}: does not load (run `tafl lint {name}`)"),
        }
    }
    if args.json {
        match serde_json::to_string_pretty(&entries) {
            Ok(json) => outln!("{json}"),
            Err(error) => {
                eprintln!("error: cannot write the list as JSON: {error}");
                return ExitCode::from(1);
            }
        }
        return ExitCode::SUCCESS;
    }
    if entries.is_empty() {
        eprintln!("No bundled variant matches; `tafl list` alone lists them all.");
        return ExitCode::from(1);
    }
    print_table(&entries);
    ExitCode::SUCCESS
}

/// The entries as aligned columns under a header.
fn print_table(entries: &[Entry]) {
    let escape_word = |escape: Escape| match escape {
        Escape::Corners => "corners",
        Escape::Edge => "edge",
        Escape::None => "none",
    };
    let rows: Vec<[String; 7]> = entries
        .iter()
        .map(|entry| {
            let sites: Vec<String> = entry
                .site_types
                .iter()
                .map(|site| format!("{} ({:.0}%)", site.name, site.replays * 100.0))
                .collect();
            [
                entry.name.to_string(),
                entry.family.clone().unwrap_or_else(|| "-".to_string()),
                entry.board.clone(),
                escape_word(entry.escape).to_string(),
                entry.from.clone().unwrap_or_else(|| "-".to_string()),
                entry.title.clone(),
                sites.join("; "),
            ]
        })
        .collect();
    let header = [
        "NAME",
        "FAMILY",
        "BOARD",
        "ESCAPE",
        "FROM",
        "TITLE",
        "PLAYS ON AAGENIELSEN.DK (GAMES REPLAYED)",
    ]
    .map(String::from);
    let mut widths = [0; 7];
    for row in std::iter::once(&header).chain(&rows) {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in std::iter::once(&header).chain(&rows) {
        let line: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        outln!("{}", line.join("  ").trim_end());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_is_one_side_or_both() {
        assert_eq!(parse_board("9"), Ok((9, 9)));
        assert_eq!(parse_board("11x11"), Ok((11, 11)));
        assert_eq!(parse_board("7 X 9"), Ok((7, 9)));
        assert!(parse_board("nine").is_err());
        assert!(parse_board("9x").is_err());
    }

    #[test]
    fn the_publisher_is_the_site_named_or_the_first_words() {
        assert_eq!(
            publisher("Aage Nielsen, Rules of Copenhagen Hnefatafl 11x11, aagenielsen.dk/copenhagen_rules.php"),
            "aagenielsen.dk"
        );
        assert_eq!(
            publisher("dragonheelslair.com, Rules tablut, http://www.dragonheelslair.com/en/rulestablut.php"),
            "dragonheelslair.com"
        );
        assert_eq!(
            publisher("OpenTafl built-in 'Brandub' (jslater89/OpenTafl), via OpenTafl's built-in rules strings (github.com/jslater89/OpenTafl, RulesSerializer)"),
            "OpenTafl built-in"
        );
        assert_eq!(
            publisher("OpenTafl built-in 'Magpie' (jslater89/OpenTafl, rules/brandub/Magpie.java)"),
            "OpenTafl built-in"
        );
        assert_eq!(
            publisher("A bead games kit, 'Tablut' (the kit's rules sheet)"),
            "A bead games kit"
        );
    }
}
