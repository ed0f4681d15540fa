use tafl::engine::{testing, Engine};
fn main() {
    for (name, rules) in [
        ("linnaeus", testing::linnaeus()),
        ("brett", testing::brettspielnetz()),
        ("fetlar", testing::fetlar11()),
    ] {
        let e = Engine::new(&rules).unwrap();
        let s = e.start();
        for d in 1..=4 {
            let t = std::time::Instant::now();
            let n = e.perft(&s, d);
            println!(
                "{name} d{d} {n} {:?} {:.1} M/s",
                t.elapsed(),
                n as f64 / t.elapsed().as_secs_f64() / 1e6
            );
        }
        let t = std::time::Instant::now();
        let p = e.playouts(&s, 2000, 1, 500);
        println!(
            "{name} playouts {:?} {:?} {:.0}/s",
            p,
            t.elapsed(),
            2000.0 / t.elapsed().as_secs_f64()
        );
    }
}
