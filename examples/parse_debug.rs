fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    match tafl::syntax::parse(&text) {
        Ok(file) => println!("{} clauses", file.clauses.len()),
        Err(errors) => {
            for e in errors {
                println!("{:?} {} {:?} {:?}", e.code, e.message, e.labels, e.help);
            }
        }
    }
}
