//! A network evaluation: a small network (NNUE-style) that scores a position from the pieces
//! on their squares, trained by self-play (`tafl train`, `search::train`).
//!
//! One boundary, four steps:
//!
//! - [`features`]: the inputs, each piece kind on each square seen from each side's view (the
//!   side to move's view read first);
//! - [`accumulator`]: the first layer's sums per view, `i16`, updated by a few rows as a
//!   piece moves or is captured, and equal to adding every piece up again;
//! - [`network`]: the layers (the clipped sums, one hidden layer, a logit) in integers as the
//!   search plays them, and in floats as training fits them;
//! - the score, in hundredths of a soldier for the side to move, as the hand evaluation's.
//!
//! A network file ([`mod@file`]) is versioned data: a JSON header naming the board, the piece
//! kinds, the rule key of the variant it was trained on, its sizes, units and training run,
//! then the weights. Which network plays a variant is chosen by its rules, never its name
//! ([`for_rules`]): one whose board and pieces are the variant's and whose rule key
//! ([`rule_key`]) is the variant's, so a renamed copy plays with the same network; a variant
//! with none is played by the hand evaluation (`search::profile`).

pub mod accumulator;
pub mod features;
pub mod file;
pub mod network;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::OnceLock;

pub use accumulator::Accumulator;
pub use features::Layout;
pub use network::{FloatNetwork, Header, Network, Training};

use crate::ir::Rules;

/// Why a network cannot play a variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The file cannot be read.
    #[error("cannot read network file `{path}`: {reason}")]
    Unreadable {
        /// The file.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// The file is not a network file this build reads.
    #[error("`{path}` is not a network file: {reason}")]
    Malformed {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The network reads another board or other pieces than the variant has.
    #[error(
        "the network `{path}` does not fit {variant}: it reads {network}, the variant has {has}"
    )]
    DoesNotFit {
        /// The file.
        path: String,
        /// The variant's name.
        variant: String,
        /// The network's board and pieces, in words.
        network: String,
        /// The variant's board and pieces, in words.
        has: String,
    },
}

/// A network loaded for the rest of the program (networks are few and small, and a search's
/// settings are copied freely), with the name of its file.
#[derive(Clone, Copy)]
pub struct NetRef {
    net: &'static Network,
    name: &'static str,
}

impl NetRef {
    /// A network kept for the rest of the program under `name`.
    pub fn keep(net: Network, name: &str) -> NetRef {
        NetRef {
            net: Box::leak(Box::new(net)),
            name: Box::leak(name.to_string().into_boxed_str()),
        }
    }

    /// The network.
    pub fn network(self) -> &'static Network {
        self.net
    }

    /// Its file's name (no directory).
    pub fn name(self) -> &'static str {
        self.name
    }
}

impl PartialEq for NetRef {
    /// The same network: the same loaded copy.
    fn eq(&self, other: &NetRef) -> bool {
        std::ptr::eq(self.net, other.net)
    }
}

impl Eq for NetRef {}

impl std::fmt::Debug for NetRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NetRef({})", self.name)
    }
}

/// Which evaluation a search plays with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Choice {
    /// The network the variant's rules choose ([`for_rules`]), else the hand evaluation.
    #[default]
    Rules,
    /// The hand evaluation, whatever networks exist.
    Hand,
    /// This network.
    Network(NetRef),
}

impl Choice {
    /// The network that plays `rules` under this choice, if any.
    pub fn network(self, rules: &Rules) -> Option<NetRef> {
        match self {
            Choice::Rules => for_rules(rules),
            Choice::Hand => None,
            Choice::Network(net) => Some(net),
        }
    }
}

/// The key of the rules that matter to a network: the rules without their names and notes
/// (name, source, family, notes, the sides' names), as a 64-bit FNV-1a hash of their JSON in
/// hex. A renamed copy of a variant has its key; a change of any rule does not.
pub fn rule_key(rules: &Rules) -> String {
    let mut value = serde_json::to_value(rules).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        for field in ["name", "source", "family", "notes", "sides"] {
            map.remove(field);
        }
    }
    let text = value.to_string();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The networks built into the binary: `variants/networks/v1/NAME`, each chosen by its
/// header's layout and rule key. docs/strength.md says how each was trained and what it won.
const BUNDLED: &[(&str, &[u8])] = &[];

/// The bundled networks, read once.
fn bundled() -> &'static [NetRef] {
    static READ: OnceLock<Vec<NetRef>> = OnceLock::new();
    READ.get_or_init(|| {
        BUNDLED
            .iter()
            // `tests/nnue.rs` reads every bundled file: they parse.
            .filter_map(|(name, bytes)| file::from_bytes(bytes).ok().map(|n| NetRef::keep(n, name)))
            .collect()
    })
}

/// The names of the bundled networks.
pub fn bundled_names() -> Vec<&'static str> {
    BUNDLED.iter().map(|(name, _)| *name).collect()
}

/// The bundled network that plays a variant with `rules`: one that reads its board and pieces
/// and was trained under its rule key. `None`: the hand evaluation plays it.
pub fn for_rules(rules: &Rules) -> Option<NetRef> {
    if BUNDLED.is_empty() {
        return None;
    }
    select(bundled(), rules)
}

/// The first of `networks` that plays a variant with `rules`: it reads its board and pieces
/// and was trained under its rule key.
pub fn select(networks: &[NetRef], rules: &Rules) -> Option<NetRef> {
    let (layout, key) = (Layout::of(rules), rule_key(rules));
    networks
        .iter()
        .find(|n| n.net.layout() == &layout && n.net.header().rule_key == key)
        .copied()
}

/// The network in the file at `path`.
///
/// # Errors
/// [`NetworkError::Unreadable`] or [`NetworkError::Malformed`].
pub fn read(path: &Path) -> Result<Network, NetworkError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| NetworkError::Unreadable {
        path: shown.clone(),
        reason: e.to_string(),
    })?;
    file::from_bytes(&bytes).map_err(|reason| NetworkError::Malformed {
        path: shown,
        reason,
    })
}

/// The network in the file at `path`, checked against a variant with `rules` (its board and
/// pieces; the rule key is not asked, so a network may be tried on a variant of other rules).
///
/// # Errors
/// [`NetworkError`]: unreadable, malformed, or not fitting the variant.
pub fn load_for(path: &Path, rules: &Rules) -> Result<NetRef, NetworkError> {
    let net = read(path)?;
    fits(&net, rules, &path.display().to_string())?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(NetRef::keep(net, &name))
}

/// Whether `net` reads the board and pieces of `rules`.
///
/// # Errors
/// [`NetworkError::DoesNotFit`], naming both.
pub fn fits(net: &Network, rules: &Rules, path: &str) -> Result<(), NetworkError> {
    let layout = Layout::of(rules);
    if net.layout() == &layout {
        return Ok(());
    }
    Err(NetworkError::DoesNotFit {
        path: path.to_string(),
        variant: rules.name.clone(),
        network: net.layout().describe(),
        has: layout.describe(),
    })
}
