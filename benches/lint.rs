//! `tafl lint` on large files: its time must grow linearly with the file's size. Each input is
//! measured at two sizes in the same run, so the report can give the ratio (about 4 for four
//! times the text, where a quadratic front end would give 16).
//!
//! The inputs are the bundled Linnaeus file grown with comment lines (the common case: all of
//! it parses), and with clauses that each give an error (the worst case for reporting: many
//! diagnostics, capped at 100).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tafl::check::limits::MAX_FILE_BYTES;

/// The Linnaeus file followed by copies of `line` up to about `bytes`.
fn grown(line: &str, bytes: usize) -> String {
    let mut text = tafl::BUNDLED
        .iter()
        .find(|(name, _)| *name == "linnaeus")
        .expect("linnaeus is bundled")
        .1
        .to_string();
    while text.len() + line.len() < bytes {
        text.push_str(line);
    }
    text
}

fn lint(c: &mut Criterion) {
    let mut group = c.benchmark_group("lint");
    group.sample_size(10);
    let inputs = [
        (
            "comments",
            "# a comment line of about sixty characters, for padding\n",
        ),
        ("errors", "nobody may land on the nowhere\n"),
    ];
    for (name, line) in inputs {
        for bytes in [MAX_FILE_BYTES / 4, MAX_FILE_BYTES - 1] {
            let text = grown(line, bytes);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::new(name, text.len()), &text, |b, text| {
                b.iter(|| black_box(tafl::check::check_text("big.tafl", text)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, lint);
criterion_main!(benches);
