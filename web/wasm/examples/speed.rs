//! The native half of the web speed comparison (`bash web/bench.sh`, docs/performance.md):
//! the cases of `tafl_wasm::speed`, measured natively, as one JSON array on stdout.

use std::process::ExitCode;

fn main() -> ExitCode {
    let runs = std::env::args()
        .nth(1)
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let mut all = Vec::new();
    for &(work, variant, depth) in tafl_wasm::CASES {
        match tafl_wasm::measure(work, variant, depth, runs) {
            Ok(measurement) => all.push(measurement),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match serde_json::to_string(&all) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
