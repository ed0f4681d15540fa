//! `tafl engine --protocol uci|gtp|opentafl`: the computer player over stdin and stdout, for
//! other programs (OpenTafl, hnefatafl-copenhagen, UCI-style tools). Searches run on a thread
//! so that `stop`, `isready` and `quit` are heard while thinking. A line that is not UTF-8, or
//! is longer than [`crate::protocol::line::MAX_LINE`], is answered as an error and the engine
//! goes on. The end of input stops the search in progress, which is still answered.

use std::process::ExitCode;
use std::time::Duration;

use crate::protocol::gtp::Gtp;
use crate::protocol::opentafl::OpenTafl;
use crate::protocol::serve::serve;
use crate::protocol::uci::Uci;
use crate::protocol::{Loaded, Protocol, Settings, StartError};

/// Arguments of `tafl engine`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The protocol to speak.
    #[arg(long, value_enum)]
    pub protocol: ProtocolName,
    /// The variant (a bundled name or a .tafl file). UCI: the one played until `setoption name
    /// Variant` [default: copenhagen]. gtp: one per board size (repeat the option; default
    /// copenhagen for 11). OpenTafl ignores it: its `rules` command says the variant.
    #[arg(long, value_name = "VARIANT")]
    pub variant: Vec<String>,
    /// The deepest any search goes, in plies, unless UCI's `go depth` says otherwise; with no
    /// clock from the protocol, the whole limit (deterministic with one thread).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Thinking time per move when the protocol gives no clock and no --depth is set.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub movetime: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Transposition table size in MiB, 0 to 4096 as UCI's `setoption name Hash` takes it.
    #[arg(long, default_value_t = 32, value_name = "MIB", value_parser = clap::value_parser!(u16).range(0..=4096))]
    pub hash: u16,
}

/// The protocols `tafl engine` speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProtocolName {
    /// UCI-like, any variant.
    Uci,
    /// hnefatafl-copenhagen's Hnefatafl Text Protocol.
    Gtp,
    /// The OpenTafl Engine Protocol.
    Opentafl,
}

/// Runs `tafl engine`.
pub fn run(args: &Args) -> ExitCode {
    let settings = Settings {
        variant: args
            .variant
            .first()
            .cloned()
            .unwrap_or_else(|| "copenhagen".to_string()),
        threads: usize::from(args.threads),
        hash_mb: usize::from(args.hash),
        depth: args.depth,
        movetime: Duration::from_millis(args.movetime),
    };
    let result = match args.protocol {
        ProtocolName::Uci => {
            let variant = settings.variant.clone();
            match Uci::new(settings) {
                Ok(uci) => serve_stdio(uci),
                Err(StartError::Variant(error)) => {
                    eprintln!("error: cannot load variant `{variant}`: {error}");
                    return ExitCode::FAILURE;
                }
                Err(StartError::Table(error)) => {
                    eprintln!("error: {error}");
                    return ExitCode::FAILURE;
                }
            }
        }
        ProtocolName::Gtp => {
            let names = if args.variant.is_empty() {
                vec!["copenhagen".to_string()]
            } else {
                args.variant.clone()
            };
            let mut boards = Vec::new();
            for name in &names {
                match Loaded::load(name) {
                    Ok(loaded) => boards.push(loaded),
                    Err(error) => {
                        eprintln!("error: cannot load variant `{name}`: {error}");
                        return ExitCode::FAILURE;
                    }
                }
            }
            match Gtp::new(settings, boards) {
                Ok(gtp) => serve_stdio(gtp),
                Err(error) => {
                    eprintln!("error: {error}");
                    return ExitCode::FAILURE;
                }
            }
        }
        ProtocolName::Opentafl => match OpenTafl::new(settings) {
            Ok(opentafl) => serve_stdio(opentafl),
            Err(error) => {
                eprintln!("error: {error}");
                return ExitCode::FAILURE;
            }
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The other program has closed the pipe: nothing more to say to it.
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Serves `protocol` over stdin and stdout until it quits or stdin ends.
fn serve_stdio(protocol: impl Protocol) -> std::io::Result<()> {
    // A locked stdin cannot move to the reading thread; stdin buffered on its own can.
    let input = std::io::BufReader::new(std::io::stdin());
    serve(protocol, input, std::io::stdout().lock())
}
